import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { NoContent, noContent, problems } from "../http/schemas";
import { KeyParams } from "../spaces/schemas";
import { listGrants, putGrant, resetGrants, revokeGrant } from "./grants";
import { addRestriction, clearRestrictions, listRestrictions, removeRestriction } from "./restrictions";
import { ClearQuery, Grant, GrantBody, GrantParams, PageIdParams, Restriction, RestrictionBody, RestrictionParams } from "./schemas";

const detail = (summary: string) => ({ tags: ["Permissions"], summary });

/** Space permissions (/api/spaces/{key}/permissions) and page restrictions (/api/pages/{id}/restrictions). */
export function permissionRoutes(core: Core) {
  return new Elysia()
    .get("/api/spaces/:key/permissions", ({ params, request }) => listGrants(core, callerOf(request), params.key), {
      params: KeyParams,
      response: { 200: t.Array(Grant), ...problems(401, 403, 404) },
      detail: detail("The space's grants, Admin first, each naming its principal (space admins)"),
    })
    .post(
      "/api/spaces/:key/permissions",
      ({ params, body, request, set }) => {
        const { grant, created } = putGrant(core, callerOf(request), params.key, body);
        set.status = created ? 201 : 200;
        return grant;
      },
      {
        params: KeyParams,
        body: GrantBody,
        response: { 200: Grant, 201: Grant, ...problems(400, 401, 403, 404) },
        detail: detail(
          "Grant View, Edit or Admin to an account or a group (201); one already granted gets the " +
            "new operation (200). Taking Admin from the last administrator is 400",
        ),
      },
    )
    .delete(
      "/api/spaces/:key/permissions",
      ({ params, request }) => {
        resetGrants(core, callerOf(request), params.key);
        return noContent();
      },
      {
        params: KeyParams,
        response: { 204: NoContent, ...problems(401, 403, 404) },
        detail: detail(
          "Remove every grant; you keep an explicit Admin grant. Needs a recent password confirmation (tokens: 403 reauth_required)",
        ),
      },
    )
    .delete(
      "/api/spaces/:key/permissions/:id",
      ({ params, request }) => {
        revokeGrant(core, callerOf(request), params.key, params.id);
        return noContent();
      },
      {
        params: GrantParams,
        response: { 204: NoContent, ...problems(400, 401, 403, 404) },
        detail: detail("Remove one grant (never the last Admin grant: 400)"),
      },
    )
    .get("/api/pages/:id/restrictions", ({ params, request }) => listRestrictions(core, callerOf(request), params.id), {
      params: PageIdParams,
      response: { 200: t.Array(Restriction), ...problems(401, 404) },
      detail: detail("The page's restrictions, then those inherited from its ancestors"),
    })
    .post(
      "/api/pages/:id/restrictions",
      ({ params, body, request, set }) => {
        const { restriction, created } = addRestriction(core, callerOf(request), params.id, body);
        set.status = created ? 201 : 200;
        return restriction;
      },
      {
        params: PageIdParams,
        body: RestrictionBody,
        response: { 200: Restriction, 201: Restriction, ...problems(400, 401, 403, 404, 409) },
        detail: detail(
          "Restrict a page and its subtree: View hides it from everyone not named, Edit lets only those named edit. " +
            "Unless you administer the space, the restriction must name you or a group you are in (400)",
        ),
      },
    )
    .delete(
      "/api/pages/:id/restrictions",
      ({ params, query, request }) => {
        clearRestrictions(core, callerOf(request), params.id, query.operation);
        return noContent();
      },
      {
        params: PageIdParams,
        query: ClearQuery,
        response: { 204: NoContent, ...problems(400, 401, 403, 404, 409) },
        detail: detail("Lift every restriction set on the page (or those of one operation)"),
      },
    )
    .delete(
      "/api/pages/:id/restrictions/:restrictionId",
      ({ params, request }) => {
        removeRestriction(core, callerOf(request), params.id, params.restrictionId);
        return noContent();
      },
      {
        params: RestrictionParams,
        response: { 204: NoContent, ...problems(400, 401, 403, 404, 409) },
        detail: detail("Remove one restriction set on this page (what remains must still name you, unless you administer the space: 400)"),
      },
    );
}
