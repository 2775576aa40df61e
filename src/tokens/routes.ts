import { Elysia, t } from "elysia";
import { requireSession } from "../identity/caller";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { Id, Int, NoContent, noContent, problems } from "../http/schemas";
import { createToken, listTokens, revokeToken, TOKEN_MAX_DAYS, TOKEN_NAME_MAX } from "./service";

const ApiToken = t.Object(
  {
    id: t.String(),
    name: t.String(),
    prefix: t.String({ description: "The first characters of the value" }),
    readOnly: t.Boolean(),
    expiresAt: t.Union([t.String(), t.Null()]),
    createdAt: t.String(),
    lastUsedAt: t.Union([t.String(), t.Null()]),
    useCount: t.Integer(),
  },
  { title: "ApiToken" },
);

const detail = (summary: string) => ({ tags: ["API tokens"], summary, security: [{ session: [] }] });

export function tokenRoutes(core: Core) {
  return new Elysia({ prefix: "/api/api-tokens" })
    .get("/", ({ request }) => listTokens(core, requireSession(callerOf(request)).user.id), {
      response: { 200: t.Array(ApiToken), ...problems(401, 403) },
      detail: detail("Your API tokens"),
    })
    .post(
      "/",
      ({ body, request, set }) => {
        const created = createToken(core, requireSession(callerOf(request)), body);
        set.status = 201;
        return created;
      },
      {
        body: t.Object({
          name: t.String({ maxLength: TOKEN_NAME_MAX }),
          readOnly: t.Optional(t.Boolean()),
          expiresInDays: t.Optional(
            t.Union([Int({ minimum: 1, maximum: TOKEN_MAX_DAYS }), t.Null()], {
              description:
                `Days until the token expires, 1 to ${TOKEN_MAX_DAYS}. Left out or null: the ` +
                `token never expires (revoke it when no longer needed).`,
            }),
          ),
        }),
        response: {
          201: t.Composite([ApiToken, t.Object({ token: t.String({ description: "The value, shown once" }) })]),
          ...problems(400, 401, 403, 429),
        },
        detail: detail("Create an API token; the value is answered once"),
      },
    )
    .delete(
      "/:id",
      ({ params, request }) => {
        revokeToken(core, requireSession(callerOf(request)), params.id);
        return noContent();
      },
      {
        params: t.Object({ id: Id }),
        response: { 204: NoContent, ...problems(401, 403, 404) },
        detail: detail("Revoke an API token (cannot be undone)"),
      },
    );
}
