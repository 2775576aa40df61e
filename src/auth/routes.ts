import { withHeaders } from "@elysiajs/openapi/openapi";
import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { clearedSessionCookie, readCookie, sessionCookie } from "../http/cookies";
import { callerOf } from "../http/request-state";
import type { QuickContext, QuickRead } from "../http/quick-reads";
import { bodyLimit, KB } from "../http/body";
import { isHttps, NoContent, noContent, problems } from "../http/schemas";
import { AppError } from "../platform/errors";
import { accountJson, findUserWithRoleById, register, toAccount, updateDisplayName } from "../users/service";
import { readyJson } from "../platform/security-headers";
import { Account, InviteDetails } from "../users/schemas";
import { describeInvite } from "../users/invites";
import { requireSession, requireUser } from "../identity/caller";
import { changePassword, login, reauthenticate } from "./service";
import { useResetLink } from "./recover";
import {
  cookieLifetimeSeconds,
  createSession,
  deleteSession,
  listSessions,
  revokeOtherSessions,
  revokeSessionByHandle,
  SESSION_COOKIE,
  type NewSession,
} from "./sessions";
import { DISPLAY_NAME_MAX } from "../users/service";
import { PASSWORD_MAX } from "../identity/password";

const Session = t.Object(
  {
    id: t.String(),
    createdAt: t.String(),
    lastSeenAt: t.String(),
    expiresAt: t.String(),
    ip: t.Union([t.String(), t.Null()]),
    userAgent: t.Union([t.String(), t.Null()]),
    current: t.Boolean(),
  },
  { title: "Session" },
);

const FailedSignIns = t.Object(
  {
    count: t.Integer({ description: "Wrong passwords given for this account (sign-in, re-authentication, password change)" }),
    addresses: t.Array(t.String(), { description: "The client addresses they came from, newest first (at most 10)" }),
    lastAt: t.String({ format: "date-time" }),
  },
  { title: "FailedSignIns" },
);

const SignedIn = t.Composite(
  [
    Account,
    t.Object({
      failedSignInsSinceLast: t.Union([FailedSignIns, t.Null()], {
        description: "Wrong passwords since this account's previous sign-in; told once, then cleared",
      }),
    }),
  ],
  { title: "SignedIn" },
);

/**
 * Scripts that replay a cookie file (`curl -b jar`) break on a new session id unless they save
 * it too: said where clients look, on each endpoint that issues one.
 */
const NEW_COOKIE_REPLACES =
  "**Issues a new session cookie** (`Set-Cookie: cairn_session=…`) and the cookie sent with this " +
  "request stops working at once: the next call with it gets 401. A client that keeps cookies in a " +
  "file must save the new one (`curl -c jar -b jar`, not only `-b jar`).";

const LOGIN_DESCRIPTION = [
  "**Issues a new session cookie** (`Set-Cookie: cairn_session=…`) at every sign-in: save it (`curl -c jar`). A cookie " +
    "from an earlier sign-in is not reused, and it keeps working until it expires or is signed out.",
  "A wrong password and an unknown e-mail give the same 401.",
  "429 `rate_limited` (with `Retry-After`) when the client's address has had `loginRateLimitPerMinute` wrong " +
    "passwords this minute, or when the password is right but the account is locked for this address (or, after wrong " +
    "passwords from many addresses, for every address); the detail says which and for how long.",
].join(" ");

const SESSION_PASSWORD_RULES =
  "Wrong passwords count with sign-in failures for this account and address: 429 `rate_limited` while the account is locked or the " +
  "address is over its limit; the wrong password that locks the account ends this session (401, cookie cleared).";

const REAUTH_DESCRIPTION = `${NEW_COOKIE_REPLACES} ${SESSION_PASSWORD_RULES}`;
const PASSWORD_CHANGE_DESCRIPTION = `${NEW_COOKIE_REPLACES} Every other session of the account is signed out. ${SESSION_PASSWORD_RULES}`;

const cookieHeader = (more: string) => ({
  "Set-Cookie": t.String({ description: `The new session cookie (\`cairn_session\`, HttpOnly, SameSite=Lax): save it${more}` }),
});
const NewCookie = cookieHeader("");
const ReplacingCookie = cookieHeader("; the cookie sent with the request no longer works");

const sessionOnly = { tags: ["Auth"], security: [{ session: [] }] };

/** Every account request is a few fields; more is refused before it is read. */
const ACCOUNT_BODY = bodyLimit(16 * KB, "Account requests may be at most 16 KB.");

/** A 401 from an account endpoint means the session is over: the browser should forget it. */
async function forgetOn401<T>(secure: boolean, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof AppError) || err.status !== 401) throw err;
    throw new AppError(
      err.problemCode,
      { ...err.extras, headers: { ...err.extras.headers, "set-cookie": clearedSessionCookie(secure) } },
      err.title,
    );
  }
}

/** GET /api/auth/me: the route's handler, and a quick read (http/quick-reads.ts). */
function answerMe(core: Core, { request, set }: Pick<QuickContext, "request" | "set">): Response {
  // The pipeline has just read the account and its role: answer from them.
  const found = callerOf(request);
  // A session cookie that no longer opens a session: it ended (expired, signed out elsewhere,
  // revoked). Said apart from a first visit (no cookie), and the stale cookie is cleared.
  if (found.kind !== "user" && readCookie(request.headers.get("cookie"), SESSION_COOKIE)) {
    throw new AppError("unauthenticated", {
      detail: "Your session ended: sign in again.",
      extra: { sessionEnded: true },
      headers: { "set-cookie": clearedSessionCookie(isHttps(request, core.config.baseUrl)) },
    });
  }
  const caller = requireUser(found);
  // Ready JSON (the schema stays for the description): asked on every page load.
  return readyJson(accountJson(caller.user, caller.role), set);
}

export const authQuickReads = (core: Core): QuickRead[] => [{ path: "/api/auth/me", handler: (context) => answerMe(core, context) }];

export function authRoutes(core: Core) {
  const secure = (r: Request) => isHttps(r, core.config.baseUrl);
  // A session given a new id by re-authentication keeps its original end; its cookie ends with it.
  const cookieFor = (session: NewSession, r: Request) => sessionCookie(session.value, secure(r), cookieLifetimeSeconds(core, session.row));
  const me = (userId: string) => {
    const found = findUserWithRoleById(core, userId);
    if (!found) throw new AppError("unauthenticated");
    return toAccount(found.user, found.role);
  };

  return new Elysia({ prefix: "/api/auth" })
    .post(
      "/register",
      async ({ body, request, set }) => {
        const caller = callerOf(request);
        const { user, role } = await register(core, { ...body, ip: caller.ip });
        const session = createSession(core, user.id, {
          ip: caller.ip,
          userAgent: request.headers.get("user-agent"),
          reauthAt: core.clock.now(),
        });
        set.status = 201;
        set.headers["set-cookie"] = cookieFor(session, request);
        return toAccount(user, role);
      },
      {
        body: t.Object({
          email: t.String({ maxLength: 320 }),
          displayName: t.String({ maxLength: DISPLAY_NAME_MAX }),
          password: t.String({ maxLength: PASSWORD_MAX }),
          inviteToken: t.Optional(t.String({ maxLength: 200 })),
          setupCode: t.Optional(
            t.String({
              maxLength: 100,
              description:
                "The first account (the owner) on a server listening beyond loopback: the setup code the server printed " +
                "in its log at start (`cairn setup-code --data DIR` prints it again). Missing: 400 naming setupCode; " +
                "wrong: 403 naming setupCode. Ignored on loopback and once the owner exists",
            }),
          ),
        }),
        response: { 201: withHeaders(Account, NewCookie), ...problems(400, 403, 409, 415, 429) },
        detail: {
          tags: ["Auth"],
          summary: "Create an account (the first one becomes the Owner) and sign in",
          security: [],
          ...ACCOUNT_BODY,
        },
      },
    )
    .get("/invite", ({ query }) => describeInvite(core, query.token), {
      query: t.Object({
        token: t.String({ minLength: 1, maxLength: 200, description: "The token of an invite link (/register?invite=<token>)" }),
      }),
      response: { 200: InviteDetails, ...problems(400, 404, 429) },
      detail: {
        tags: ["Auth"],
        summary: "What a valid invite link gives (the address it is for, role, spaces), for the register form",
        description: "Answers only for a token of a pending invite; unknown, used and expired tokens are the same 404.",
        security: [],
      },
    })
    .post(
      "/login",
      async ({ body, request, set }) => {
        const caller = callerOf(request);
        const { user, role, session, failedSignInsSinceLast } = await login(core, {
          email: body.email,
          password: body.password,
          ip: caller.ip,
          userAgent: request.headers.get("user-agent"),
        });
        set.headers["set-cookie"] = cookieFor(session, request);
        return { ...toAccount(user, role), failedSignInsSinceLast };
      },
      {
        body: t.Object({ email: t.String({ maxLength: 320 }), password: t.String({ maxLength: 1024 }) }),
        response: { 200: withHeaders(SignedIn, NewCookie), ...problems(400, 401, 403, 415, 429) },
        detail: {
          tags: ["Auth"],
          summary: "Sign in with e-mail and password; sets a new session cookie",
          description: LOGIN_DESCRIPTION,
          security: [],
          ...ACCOUNT_BODY,
        },
      },
    )
    .post(
      "/logout",
      ({ request, set }) => {
        const caller = callerOf(request);
        if (caller.kind === "user") deleteSession(core, requireSession(caller));
        set.headers["set-cookie"] = clearedSessionCookie(secure(request));
        return noContent();
      },
      {
        response: { 204: NoContent, ...problems(403) },
        detail: { ...sessionOnly, summary: "Sign out this browser session", ...ACCOUNT_BODY },
      },
    )
    .get("/me", (context) => answerMe(core, context), {
      response: { 200: Account, ...problems(401) },
      detail: { tags: ["Auth"], summary: "The signed-in account (answers a token too)" },
    })
    .put(
      "/me",
      ({ body, request }) => {
        const caller = requireSession(callerOf(request));
        updateDisplayName(core, caller, body.displayName);
        return me(caller.user.id);
      },
      {
        body: t.Object({ displayName: t.String({ maxLength: DISPLAY_NAME_MAX }) }),
        response: { 200: Account, ...problems(400, 401, 403) },
        detail: { ...sessionOnly, summary: "Change your display name", ...ACCOUNT_BODY },
      },
    )
    .put(
      "/me/password",
      ({ body, request, set }) =>
        forgetOn401(secure(request), async () => {
          const caller = requireSession(callerOf(request));
          const session = await changePassword(core, caller, body.currentPassword, body.newPassword);
          set.headers["set-cookie"] = cookieFor(session, request);
          return noContent();
        }),
      {
        body: t.Object({ currentPassword: t.String({ maxLength: 1024 }), newPassword: t.String({ maxLength: PASSWORD_MAX }) }),
        response: { 204: withHeaders(NoContent, ReplacingCookie), ...problems(400, 401, 403, 429) },
        detail: {
          ...sessionOnly,
          summary: "Change your password; signs out your other sessions and gives this one a new cookie",
          description: PASSWORD_CHANGE_DESCRIPTION,
          ...ACCOUNT_BODY,
        },
      },
    )
    .get(
      "/me/sessions",
      ({ request }) => {
        const caller = requireSession(callerOf(request));
        return listSessions(core, caller.user.id, caller.session.id);
      },
      { response: { 200: t.Array(Session), ...problems(401, 403) }, detail: { ...sessionOnly, summary: "Your signed-in sessions" } },
    )
    .delete(
      "/me/sessions/others",
      ({ request }) => {
        const caller = requireSession(callerOf(request));
        revokeOtherSessions(core, caller);
        return noContent();
      },
      {
        response: { 204: NoContent, ...problems(401, 403) },
        detail: { ...sessionOnly, summary: "Sign out every session but this one", ...ACCOUNT_BODY },
      },
    )
    .delete(
      "/me/sessions/:id",
      ({ params, request }) => {
        const caller = requireSession(callerOf(request));
        revokeSessionByHandle(core, caller, params.id);
        return noContent();
      },
      {
        params: t.Object({ id: t.String({ maxLength: 100 }) }),
        response: { 204: NoContent, ...problems(401, 403, 404) },
        detail: { ...sessionOnly, summary: "Sign out one session", ...ACCOUNT_BODY },
      },
    )
    .post(
      "/recover/token",
      async ({ body, request }) => {
        await useResetLink(core, { token: body.token, newPassword: body.newPassword, ip: callerOf(request).ip });
        return noContent();
      },
      {
        body: t.Object({
          token: t.String({
            maxLength: 200,
            description: "The token of a reset link an administrator made (POST /api/admin/users/{userId}/reset-password)",
          }),
          newPassword: t.String({ maxLength: PASSWORD_MAX }),
        }),
        response: { 204: NoContent, ...problems(400, 415, 429) },
        detail: {
          tags: ["Auth"],
          summary: "Set a new password with a one-time reset link",
          description:
            "Ends every session of the account and lifts its sign-in locks; sign in afterwards. An unknown, used or " +
            "expired link is 400 on `token`; a password the rules refuse is 400 on `newPassword`.",
          security: [],
          ...ACCOUNT_BODY,
        },
      },
    )
    .post(
      "/reauth",
      ({ body, request, set }) =>
        forgetOn401(secure(request), async () => {
          const caller = requireSession(callerOf(request));
          const session = await reauthenticate(core, caller, body.password ?? "");
          set.headers["set-cookie"] = cookieFor(session, request);
          return noContent();
        }),
      {
        body: t.Object({ password: t.Optional(t.String({ maxLength: 1024 })), code: t.Optional(t.String({ maxLength: 20 })) }),
        response: { 204: withHeaders(NoContent, ReplacingCookie), ...problems(400, 401, 403, 429) },
        detail: {
          ...sessionOnly,
          summary: "Confirm your password; opens a five-minute window for destructive actions and gives the session a new cookie",
          description: REAUTH_DESCRIPTION,
          ...ACCOUNT_BODY,
        },
      },
    );
}
