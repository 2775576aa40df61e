import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { noContent, NoContent, problems } from "../http/schemas";
import { ActivityQuery, AdminToken, SummaryQuery, TokenActivity, TokenIdParams, TokenSummary } from "./admin-schemas";
import { adminRevokeToken, listAllTokens, tokenActivityOf, tokenSummary } from "./admin-tokens";

const detail = (summary: string) => ({ tags: ["Admin"], summary });

/** /api/admin/api-tokens: everyone's tokens (right tokens.manage). */
export function adminTokenRoutes(core: Core) {
  return new Elysia({ prefix: "/api/admin/api-tokens" })
    .get("/", ({ request }) => listAllTokens(core, callerOf(request)), {
      response: { 200: t.Array(AdminToken), ...problems(401, 403) },
      detail: detail("Every API token with its owner, revoked and expired ones included, newest first (right tokens.manage)"),
    })
    .get("/activity", ({ query, request }) => tokenActivityOf(core, callerOf(request), query.tokenId, query.take), {
      query: ActivityQuery,
      response: { 200: TokenActivity, ...problems(400, 401, 403, 404) },
      detail: detail(
        "One token's requests per day and the address of its last use (right tokens.manage; counted per day, up to a minute behind)",
      ),
    })
    .get("/summary", ({ query, request }) => tokenSummary(core, callerOf(request), query.days), {
      query: SummaryQuery,
      response: { 200: TokenSummary, ...problems(400, 401, 403) },
      detail: detail("Per day: tokens created, tokens revoked and requests made with tokens (right tokens.manage)"),
    })
    .delete(
      "/:id",
      ({ params, request }) => {
        adminRevokeToken(core, callerOf(request), params.id);
        return noContent();
      },
      {
        params: TokenIdParams,
        response: { 204: NoContent, ...problems(400, 401, 403, 404) },
        detail: detail(
          "Revoke anyone's token at once (right tokens.manage; the owner's tokens only by " +
            "the owner: 403 owner_protected); recorded in the audit log",
        ),
      },
    );
}
