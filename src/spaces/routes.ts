import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { NoContent, noContent, problems } from "../http/schemas";
import { deleteSpace, deletionPreview } from "../commands/delete-space";
import { freeKey } from "./free-key";
import {
  CreatedSpace,
  CreateSpaceBody,
  DeleteSpaceBody,
  DeletionPreview,
  ExportsBody,
  FreeKey,
  KeyParams,
  Space,
  UpdateSpaceBody,
} from "./schemas";
import { createSpaceFromRequest } from "../commands/welcome-page";
import { getSpace, listSpaces, setArchived, setExports, updateSpace } from "./service";

const detail = (summary: string) => ({ tags: ["Spaces"], summary });

export function spaceRoutes(core: Core) {
  return new Elysia({ prefix: "/api/spaces" })
    .get("/", ({ query, request }) => listSpaces(core, callerOf(request), query.includeArchived ?? false), {
      query: t.Object({ includeArchived: t.Optional(t.Boolean({ description: "Also list archived spaces" })) }),
      response: { 200: t.Array(Space), ...problems(400) },
      detail: detail("The spaces you can see, by name (archived ones only with includeArchived=true)"),
    })
    .post(
      "/",
      ({ body, request, set }) => {
        const space = createSpaceFromRequest(core, callerOf(request), body);
        set.status = 201;
        return space;
      },
      {
        body: CreateSpaceBody,
        response: { 201: CreatedSpace, ...problems(400, 401, 403, 409) },
        detail: {
          ...detail("Create a space (needs the right spaces.create); a key already in use is 409 key_taken"),
          description:
            "A new space is open to everyone signed in: you get Admin and the built-in " +
            "Everyone group gets Edit, so every account can view and edit it. " +
            "The answer says so in `access` (`everyone`: 1, with a `summary`). To make it private, remove the Everyone grant " +
            "(`GET /api/spaces/{key}/permissions`, then `DELETE /api/spaces/{key}/permissions/{id}`). " +
            "`welcomePage: true` also makes a page explaining the basics (editing, links, comments, search, access) as the space's " +
            "home page, in the same transaction; the web UI asks for it, scripts get an empty space unless they do.",
        },
      },
    )
    .get("/free-key", ({ query, request }) => freeKey(core, callerOf(request), query.key), {
      query: t.Object({ key: t.String({ minLength: 1, maxLength: 100, description: "The key wanted (any case)" }) }),
      response: { 200: FreeKey, ...problems(400, 401, 403) },
      detail: {
        ...detail("A free space key: the one wanted, or the nearest free one (DOCS2, DOCS3…); needs the right spaces.create"),
        description:
          "For a form that proposes a key before a space is created or imported. The key is taken whether or not you can see the " +
          "space holding it. 400 when the key is not one (2 to 50 letters and digits, starting with a letter).",
      },
    })
    .get("/:key", ({ params, request }) => getSpace(core, callerOf(request), params.key), {
      params: KeyParams,
      response: { 200: Space, ...problems(404) },
      detail: detail("One space"),
    })
    .put("/:key", ({ params, body, request }) => updateSpace(core, callerOf(request), params.key, body), {
      params: KeyParams,
      body: UpdateSpaceBody,
      response: { 200: Space, ...problems(400, 401, 403, 404) },
      detail: detail("Change a space's name, description, icon or tree style (fields not sent are kept)"),
    })
    .delete(
      "/:key",
      async ({ params, body, request }) => {
        await deleteSpace(core, callerOf(request), params.key, body);
        return noContent();
      },
      {
        params: KeyParams,
        body: DeleteSpaceBody,
        response: { 204: NoContent, ...problems(400, 401, 403, 404) },
        detail: detail("Delete a space and everything in it; confirmKey and your password are required (tokens: 403 reauth_required)"),
      },
    )
    .post("/:key/archive", ({ params, request }) => setArchived(core, callerOf(request), params.key, true), {
      params: KeyParams,
      response: { 200: Space, ...problems(401, 403, 404) },
      detail: detail("Archive a space: it becomes read-only and leaves the space list"),
    })
    .post("/:key/unarchive", ({ params, request }) => setArchived(core, callerOf(request), params.key, false), {
      params: KeyParams,
      response: { 200: Space, ...problems(401, 403, 404) },
      detail: detail("Bring an archived space back"),
    })
    .get("/:key/deletion-preview", ({ params, request }) => deletionPreview(core, callerOf(request), params.key), {
      params: KeyParams,
      response: { 200: DeletionPreview, ...problems(403, 404) },
      detail: detail("What deleting the space would remove"),
    })
    .put("/:key/exports", ({ params, body, request }) => setExports(core, callerOf(request), params.key, body), {
      params: KeyParams,
      body: ExportsBody,
      response: { 200: Space, ...problems(400, 401, 403, 404) },
      detail: detail("Switch the space's export formats on or off (switches not sent are kept)"),
    });
}
