import { Elysia, t } from "elysia";
import { requireRight } from "../identity/rights";
import { requireUser } from "../identity/caller";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { Id, Int, NoContent, noContent, problems } from "../http/schemas";
import { createInvite, deleteInvite, INVITE_DEFAULT_DAYS, INVITE_MAX_DAYS, INVITE_MESSAGE_MAX, listInvites } from "./invites";
import { CreatedInvite, DirectoryEntry, Invite } from "./schemas";
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
      { response: { 200: t.Array(DirectoryEntry), ...problems(401) }, detail: { tags: ["Users"], summary: "The directory of active accounts" } },
    )
    .get("/admin/invites", ({ request }) => (inviter(request), listInvites(core)), {
      response: { 200: t.Array(Invite), ...problems(401, 403) },
      detail: { tags: ["Admin"], summary: "Pending invites" },
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
          expiresInDays: t.Optional(Int({ minimum: 1, maximum: INVITE_MAX_DAYS, description: `Days until the invite expires, 1 to ${INVITE_MAX_DAYS}; ${INVITE_DEFAULT_DAYS} when left out` })),
          sendEmail: t.Optional(t.Boolean()),
          message: t.Optional(t.String({ maxLength: INVITE_MESSAGE_MAX })),
        }),
        response: { 201: CreatedInvite, ...problems(400, 401, 403) },
        detail: { tags: ["Admin"], summary: "Invite someone; answers the single-use register link" },
      },
    )
    .delete(
      "/admin/invites/:id",
      ({ params, request }) => {
        deleteInvite(core, inviter(request), params.id);
        return noContent();
      },
      { params: t.Object({ id: Id }), response: { 204: NoContent, ...problems(401, 403, 404) }, detail: { tags: ["Admin"], summary: "Withdraw an invite" } },
    );
}
