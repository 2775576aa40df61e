import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { problems } from "../http/schemas";
import { recoverAccess } from "../permissions/grants";
import { Grant } from "../permissions/schemas";
import { PublicWarning, withPublicWarning } from "../settings/public-spaces";
import { listAllSpaces, setPublic } from "../permissions/space-admins";
import { KeyParams, Space, SpaceMetadata } from "./schemas";

const detail = (summary: string) => ({ tags: ["Admin"], summary });

const AdminSpace = t.Object(
  {
    ...SpaceMetadata.properties,
    pageCount: t.Integer({ description: "Every page: published, drafts and the trash" }),
    administrators: t.Array(
      t.Object({
        principalType: t.Integer({ description: "0 User, 1 Group" }),
        principalId: t.String(),
        principalName: t.Nullable(t.String()),
      }),
      { description: "Who holds Admin on the space" },
    ),
  },
  { title: "AdminSpace" },
);

/** /api/admin/spaces: every space's metadata, making spaces public, recovering access. */
export function adminSpaceRoutes(core: Core) {
  return (
    new Elysia({ prefix: "/api/admin/spaces" })
      .get("/", ({ request }) => listAllSpaces(core, callerOf(request)), {
        response: { 200: t.Array(AdminSpace), ...problems(401, 403) },
        detail: detail("Every space's metadata, archived ones included, never its content (right spaces.manage)"),
      })
      // The change is made and answered 200 even while allowPublicSpaces is off; `warning` says so.
      .put("/:key/public", ({ params, body, request }) => withPublicWarning(core, setPublic(core, callerOf(request), params.key, body)), {
        params: KeyParams,
        body: t.Object({
          isPublic: t.Optional(t.Boolean()),
          publicComments: t.Optional(t.Boolean({ description: "Anonymous readers see the comments too" })),
        }),
        response: {
          200: t.Object({ ...Space.properties, warning: PublicWarning }, { title: "PublishedSpace" }),
          ...problems(400, 401, 403, 404),
        },
        detail: detail(
          "Make a space public or private, with or without its comments (right spaces.publish; " +
            "needs a recent password confirmation, tokens: 403 reauth_required)",
        ),
      })
      .post("/:key/recover-access", ({ params, request }) => recoverAccess(core, callerOf(request), params.key), {
        params: KeyParams,
        response: { 200: Grant, ...problems(401, 403, 404) },
        detail: detail("Give yourself an explicit Admin grant on the space (right spaces.manage); recorded in the audit log"),
      })
  );
}
