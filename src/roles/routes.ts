import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { Id, NoContent, noContent, problems } from "../http/schemas";
import { NewRoleBody, PermissionsBody, ReviewAnswer, RoleChange, RoleOut, RolesAnswer } from "./schemas";
import { createRole, deleteRole, listRoles, resetRole, reviewRoles, setPermissions, updateRole } from "./service";

const detail = (summary: string, description?: string) => ({ tags: ["Admin"], summary, ...(description ? { description } : {}) });
const params = t.Object({ roleId: Id });
const GUARDS =
  "Needs roles.manage. Only the owner changes the Owner role; nobody changes a role above their own tier (403 " +
  "`forbidden`); nobody but the owner grants a right they do not hold (403 `forbidden`, listing them).";

/** /api/admin/roles: roles and the rights matrix (right roles.manage). */
export function roleRoutes(core: Core) {
  return new Elysia({ prefix: "/api/admin/roles" })
    .get("/", ({ request }) => listRoles(core, callerOf(request)), {
      response: { 200: RolesAnswer, ...problems(401, 403) },
      detail: detail(
        "Every role with its rights and how many accounts hold it, the rights catalogue (each right " +
          "with its area and description) and the last review (right roles.manage)",
      ),
    })
    .post(
      "/",
      ({ body, request, set }) => {
        const role = createRole(core, callerOf(request), body);
        set.status = 201;
        return role;
      },
      {
        body: NewRoleBody,
        response: { 201: RoleOut, ...problems(400, 401, 403, 409) },
        detail: detail(
          "Create a custom role (Member or Admin tier), empty or copying another role's rights",
          `${GUARDS} A name already taken (any case) is 409.`,
        ),
      },
    )
    .post("/review", ({ request }) => reviewRoles(core, callerOf(request)), {
      response: { 200: ReviewAnswer, ...problems(401, 403) },
      detail: detail("Record that the rights matrix was reviewed: who and when (audited as roles.reviewed)"),
    })
    .put("/:roleId", ({ params, body, request }) => updateRole(core, callerOf(request), params.roleId, body), {
      params,
      body: RoleChange,
      response: { 200: RoleOut, ...problems(400, 401, 403, 404, 409) },
      detail: detail("Rename a role or change its description (a built-in role keeps its name)", GUARDS),
    })
    .delete(
      "/:roleId",
      ({ params, request }) => {
        deleteRole(core, callerOf(request), params.roleId);
        return noContent();
      },
      {
        params,
        response: { 204: NoContent, ...problems(401, 403, 404, 409) },
        detail: detail(
          "Delete a custom role",
          `${GUARDS} Built-in roles cannot be deleted (409). While accounts hold the role, or pending invites would give it, 409 ` +
            `says how many (\`accounts\` / \`invites\`). Used and expired invites naming it are deleted with it.`,
        ),
      },
    )
    .put("/:roleId/permissions", ({ params, body, request }) => setPermissions(core, callerOf(request), params.roleId, body.permissions), {
      params,
      body: PermissionsBody,
      response: { 200: RoleOut, ...problems(400, 401, 403, 404) },
      detail: detail(
        "Set the whole list of rights a role holds (re-authentication)",
        `${GUARDS} The Owner role's reserved rights can never be removed (400). Takes effect on each holder's next ` +
          `request, tokens included. Audited as role.permissions_changed with the rights added and removed.`,
      ),
    })
    .post("/:roleId/reset", ({ params, request }) => resetRole(core, callerOf(request), params.roleId), {
      params,
      response: { 200: RoleOut, ...problems(401, 403, 404, 409) },
      detail: detail("Put a built-in role back to its default rights (re-authentication); a custom role is 409", GUARDS),
    });
}
