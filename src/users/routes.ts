import { Elysia, t } from "elysia";
import { requireRight } from "../identity/rights";
import { requireUser } from "../identity/caller";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { Id, Int, NoContent, noContent, problems } from "../http/schemas";
import { createInvite, deleteInvite, INVITE_DEFAULT_DAYS, INVITE_MAX_DAYS, INVITE_MESSAGE_MAX, listInvites } from "./invites";
import { INVITE_SPACES_MAX, inviteOptions } from "./invite-access";
import { CreatedInvite, DirectoryEntry, Invite, InviteOptions } from "./schemas";
import { listDirectory, normaliseEmail } from "./service";

const inviter = (request: Request) => {
  const caller = requireUser(callerOf(request));
  requireRight(caller, "users.invite");
  return caller;
};

export function userRoutes(core: Core) {
  return new Elysia({ prefix: "/api" })
    .get(
      "/users",
      ({ request }) => {
        requireUser(callerOf(request));
        return listDirectory(core);
      },
      {
        response: { 200: t.Array(DirectoryEntry), ...problems(401) },
        detail: { tags: ["Users"], summary: "The directory of active accounts" },
      },
    )
    .get("/admin/invites", ({ request }) => (inviter(request), listInvites(core)), {
      response: { 200: t.Array(Invite), ...problems(401, 403) },
      detail: { tags: ["Admin"], summary: "Pending invites" },
    })
    .get("/admin/invites/options", ({ request }) => inviteOptions(core, inviter(request)), {
      response: { 200: InviteOptions, ...problems(401, 403) },
      detail: { tags: ["Admin"], summary: "The roles and spaces the caller's invites may give" },
    })
    .post(
      "/admin/invites",
      ({ body, request, set }) => {
        const created = createInvite(core, inviter(request), body, normaliseEmail);
        set.status = 201;
        return created;
      },
      {
        body: t.Object({
          email: t.Optional(t.Union([t.String({ maxLength: 320 }), t.Null()])),
          expiresInDays: t.Optional(
            Int({
              minimum: 1,
              maximum: INVITE_MAX_DAYS,
              description: `Days until the invite expires, 1 to ${INVITE_MAX_DAYS}; ${INVITE_DEFAULT_DAYS} when left out`,
            }),
          ),
          sendEmail: t.Optional(t.Boolean()),
          message: t.Optional(t.String({ maxLength: INVITE_MESSAGE_MAX })),
          roleId: t.Optional(Id),
          spaces: t.Optional(
            t.Array(t.Object({ spaceId: Id, operation: t.Integer({ minimum: 0, maximum: 2, description: "0 View, 1 Edit, 2 Admin" }) }), {
              maxItems: INVITE_SPACES_MAX,
              description:
                "Spaces the new account gets access to (user grants, applied when the " +
                "invite is accepted); only spaces the caller administers",
            }),
          ),
        }),
        response: { 201: CreatedInvite, ...problems(400, 401, 403) },
        detail: {
          tags: ["Admin"],
          summary: "Invite someone; answers the single-use register link",
          description:
            "roleId: the role the account gets (the built-in User when left out); spaces: access to spaces it gets. Only a role " +
            "and spaces the caller may give (GET /api/admin/invites/options): any other id, existing or not, is 400 naming the " +
            "field.",
        },
      },
    )
    .delete(
      "/admin/invites/:id",
      ({ params, request }) => {
        deleteInvite(core, inviter(request), params.id);
        return noContent();
      },
      {
        params: t.Object({ id: Id }),
        response: { 204: NoContent, ...problems(401, 403, 404) },
        detail: { tags: ["Admin"], summary: "Withdraw an invite" },
      },
    );
}
