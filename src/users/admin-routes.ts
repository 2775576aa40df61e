import { Elysia, t } from "elysia";
import { disableTwoFactor, revokeAllSessions, setStatus, unlockAccount } from "../auth/admin-sign-in";
import { createResetLink, RESET_LINK_HOURS } from "../auth/recover";
import { requireReauth } from "../auth/service";
import { requireUser, type Caller } from "../identity/caller";
import { requireRight } from "../identity/rights";
import type { Core } from "../core";
import { bodyLimit, KB } from "../http/body";
import { callerOf } from "../http/request-state";
import { NoContent, noContent, problems } from "../http/schemas";
import { usageTracker } from "../tokens/usage";
import { AdminUser, InviteEmailStatus, ResetLink, Revoked, RoleChange, StatusChange, UserIdParams } from "./admin-schemas";
import { revokeAllTokens } from "../tokens/admin-tokens";
import { changeRole, listAccounts, requireOwner, transferOwnership } from "./admin-users";

const SMALL_BODY = bodyLimit(4 * KB, "Account administration requests may be at most 4 KB.");
const detail = (summary: string, description?: string) => ({
  tags: ["Admin"],
  summary,
  ...(description ? { description } : {}),
  ...SMALL_BODY,
});

const RULES =
  "Nobody can act on the owner's account (403 `owner_protected`), nor on an account whose role is of a " +
  "higher tier than the caller's (403 `higher_tier`); an unknown account is a 404.";
const REAUTH = "Needs a session that confirmed its password in the last five minutes (403 `reauth_required`; API tokens never can).";

// Cairn does not send mail yet, so invite links are shared by hand.
const INVITE_EMAIL_OFF =
  "E-mail sending is not set up on this server yet: invites cannot be e-mailed, so " +
  "copy each invite link and give it to the person yourself.";

const manager = (caller: Caller) => {
  const user = requireUser(caller);
  requireRight(user, "users.manage");
  return user;
};

/** /api/admin/users (right users.manage) and the invites' e-mail status (users.invite). */
export function adminUserRoutes(core: Core) {
  const reauthenticated = (request: Request) => {
    const caller = manager(callerOf(request));
    requireReauth(core, caller);
    return caller;
  };
  return new Elysia({ prefix: "/api/admin" })
    .get(
      "/users",
      ({ request }) => {
        manager(callerOf(request));
        usageTracker(core).flush();
        return listAccounts(core);
      },
      {
        response: { 200: t.Array(AdminUser), ...problems(401, 403) },
        detail: {
          tags: ["Admin"],
          summary: "Every account with its role, status, two-factor, last use and sign-in locks (right users.manage)",
        },
      },
    )
    .put("/users/:userId/role", ({ params, body, request }) => changeRole(core, reauthenticated(request), params.userId, body), {
      params: UserIdParams,
      body: RoleChange,
      response: { 200: AdminUser, ...problems(400, 401, 403, 404, 409) },
      detail: detail(
        "Give an account a role: a tier (built-in User or Administrator) or a role by id (right users.manage)",
        `Takes effect on the account's next request. The Owner tier is given only by transfer-ownership (400). ` +
          `Demoting the last active administrator is 409 \`last_administrator\`. ${RULES} ${REAUTH}`,
      ),
    })
    .put("/users/:userId/status", ({ params, body, request }) => setStatus(core, manager(callerOf(request)), params.userId, body.status), {
      params: UserIdParams,
      body: StatusChange,
      response: { 200: AdminUser, ...problems(400, 401, 403, 404, 409) },
      detail: detail(
        "Suspend (1) or reactivate (0) an account (right users.manage)",
        `Suspending ends every session of the account and stops its API tokens from the very next request. You cannot suspend ` +
          `yourself (403 \`own_account\`) nor the last active administrator (409 \`last_administrator\`). ${RULES}`,
      ),
    })
    .post(
      "/users/:userId/reset-password",
      ({ params, request, set }) => {
        // A reset link lets whoever holds it into the account: minting one is as strong as a role change.
        const link = createResetLink(core, reauthenticated(request), params.userId);
        set.status = 201;
        return link;
      },
      {
        params: UserIdParams,
        response: { 201: ResetLink, ...problems(401, 403, 404) },
        detail: detail(
          "Make a one-time password reset link for an account (right users.manage)",
          `The link is answered once, lasts ${RESET_LINK_HOURS} hours and works once (POST ` +
            `/api/auth/recover/token); a new one replaces the account's unused links. It is not e-mailed yet: ` +
            `e-mail sending arrives with the account security issue (\`emailed: false\`). ${RULES} ${REAUTH}`,
        ),
      },
    )
    .post(
      "/users/:userId/revoke-sessions",
      ({ params, request }) => ({ count: revokeAllSessions(core, manager(callerOf(request)), params.userId) }),
      {
        params: UserIdParams,
        response: { 200: Revoked, ...problems(401, 403, 404) },
        detail: detail("Sign an account out of every session (right users.manage)", RULES),
      },
    )
    .post(
      "/users/:userId/revoke-tokens",
      ({ params, request }) => ({ count: revokeAllTokens(core, manager(callerOf(request)), params.userId) }),
      {
        params: UserIdParams,
        response: { 200: Revoked, ...problems(401, 403, 404) },
        detail: detail("Revoke every API token of an account, for good (right users.manage)", RULES),
      },
    )
    .post(
      "/users/:userId/unlock",
      ({ params, request }) => {
        unlockAccount(core, manager(callerOf(request)), params.userId);
        return noContent();
      },
      {
        params: UserIdParams,
        response: { 204: NoContent, ...problems(401, 403, 404) },
        detail: detail(
          "Lift an account's sign-in locks and clear its count of wrong passwords, for every address (right users.manage)",
          RULES,
        ),
      },
    )
    .post(
      "/users/:userId/disable-two-factor",
      ({ params, request }) => {
        disableTwoFactor(core, reauthenticated(request), params.userId);
        return noContent();
      },
      {
        params: UserIdParams,
        response: { 204: NoContent, ...problems(401, 403, 404, 409) },
        detail: detail(
          "Switch off an account's two-factor sign-in, for someone who lost their authenticator (right users.manage)",
          `409 \`two_factor_off\` when the account does not use it (two-factor sign-in itself arrives with ` +
            `the account security issue, so for now no account does). ${RULES} ${REAUTH}`,
        ),
      },
    )
    .post(
      "/users/:userId/transfer-ownership",
      ({ params, request }) => {
        const caller = requireOwner(requireUser(callerOf(request)));
        requireReauth(core, caller);
        return transferOwnership(core, caller, params.userId);
      },
      {
        params: UserIdParams,
        response: { 200: AdminUser, ...problems(401, 403, 404, 409) },
        detail: detail(
          "Hand ownership to another account; you become an Administrator (the owner only)",
          `In one change the account becomes the Owner and you an Administrator: there is always exactly ` +
            `one owner. Anyone else gets 403 \`owner_only\`; a suspended account cannot be given ownership ` +
            `(409 \`account_suspended\`). Answers the new owner. ${REAUTH}`,
        ),
      },
    )
    .get(
      "/invites/email",
      ({ request }) => {
        requireRight(requireUser(callerOf(request)), "users.invite");
        return { enabled: false, reason: INVITE_EMAIL_OFF };
      },
      {
        response: { 200: InviteEmailStatus, ...problems(401, 403) },
        detail: { tags: ["Admin"], summary: "Whether invites can be e-mailed; when not, why (right users.invite)" },
      },
    );
}
