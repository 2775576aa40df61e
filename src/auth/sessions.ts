import { getTableName } from "drizzle-orm";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { newId, randomToken, sha256Hex } from "../platform/crypto";
import { keptUntilWrite } from "../platform/db/kept-answers";
import { notFound } from "../platform/errors";
import { roles, users } from "../users/tables";
import type { RoleRow, SessionRow, UserCaller, UserRow } from "../identity/caller";
import {
  deleteSessionByHandle,
  deleteSessionById,
  deleteSessionsOf,
  insertSession,
  keepSessionLifetime,
  liveSessionsOf,
  otherSessionHandles,
  sessionWithAccount,
  slideSession,
} from "./store/sessions";
import { sessions } from "./tables";

export const SESSION_COOKIE = "cairn_session";
const MINUTE = 60_000;
const DAY = 86_400_000;
export const SESSION_IDLE_MS = 14 * DAY;
export const SESSION_ABSOLUTE_MS = 90 * DAY;
export const REAUTH_WINDOW_MS = 5 * MINUTE;

export interface NewSession {
  /** The cookie value: shown to the browser once, stored only as its SHA-256. */
  value: string;
  row: SessionRow;
}

export function createSession(
  core: Core,
  userId: string,
  meta: { ip: string; userAgent: string | null; reauthAt?: number | null },
): NewSession {
  const value = randomToken(32);
  const now = core.clock.now();
  const row: SessionRow = {
    id: sha256Hex(value),
    handle: newId(),
    userId,
    createdAt: iso(now),
    lastSeenAt: iso(now),
    expiresAt: iso(now + SESSION_IDLE_MS),
    absoluteExpiresAt: iso(now + SESSION_ABSOLUTE_MS),
    reauthAt: meta.reauthAt != null ? iso(meta.reauthAt) : null,
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
  };
  core.tx(() => insertSession(core, row));
  return { value, row };
}

type FoundSession = { session: SessionRow; user: UserRow; role: RoleRow };

/**
 * Sessions by id (null: none), kept until a table they are read from changes (sessions,
 * accounts, roles), a write is rolled back or another process commits: a sign-out, a
 * revocation, a suspension or a role change is a write there, refused on the very next
 * request. Sliding (last seen, expiry) is bookkeeping: it is not counted as a change, and the
 * kept row is moved along with it. Expiry is checked against the clock on every request.
 */
const keptSessions = keptUntilWrite<FoundSession | null>("sessions", 10_000, undefined, {
  tables: [
    { table: getTableName(sessions), ignore: ["last_seen_at", "expires_at"] },
    { table: getTableName(users) },
    { table: getTableName(roles) },
  ],
});

/**
 * Finds the live session for a cookie value. Sliding expiry is written at most once a minute
 * per session, so reads do not turn every GET into a write.
 */
export function findSession(core: Core, value: string): FoundSession | null {
  const now = core.clock.now();
  const id = sha256Hex(value);
  const found = keptSessions(core.stamp, id, () => sessionWithAccount(core, id) ?? null);
  const at = iso(now);
  // ISO times compare as text, as they did in SQL.
  if (!found || found.session.expiresAt <= at || found.session.absoluteExpiresAt <= at) return null;
  if (now - Date.parse(found.session.lastSeenAt) > MINUTE) {
    const expiresAt = iso(Math.min(now + SESSION_IDLE_MS, Date.parse(found.session.absoluteExpiresAt)));
    core.bookkeeping(() => slideSession(core, found.session.id, at, expiresAt));
    // The kept answer moves along (a new object: callers may hold the old one).
    found.session = { ...found.session, lastSeenAt: at, expiresAt };
  }
  return { session: found.session, user: found.user, role: found.role };
}

/** Sign-out of the caller's own session (user.logout). */
export function deleteSession(core: Core, caller: UserCaller & { session: SessionRow }): void {
  core.tx(() => {
    deleteSessionById(core, caller.session.id);
    recordEvent(core, {
      type: "user.logout",
      targetType: "user",
      targetId: caller.user.id,
      spaceId: null,
      actorId: caller.user.id,
      ip: caller.ip,
      data: { sessionId: caller.session.handle },
    });
  });
}

/** Sign-out everywhere else: keeps only the session with id keepId (or none). */
export function deleteUserSessions(core: Core, userId: string, keepId: string | null): number {
  return core.tx(() => deleteSessionsOf(core, userId, keepId));
}

export function listSessions(core: Core, userId: string, currentId: string) {
  const now = iso(core.clock.now());
  return liveSessionsOf(core, userId, now).map((s) => ({
    id: s.handle,
    createdAt: s.createdAt,
    lastSeenAt: s.lastSeenAt,
    expiresAt: s.expiresAt,
    ip: s.ip,
    userAgent: s.userAgent,
    current: s.id === currentId,
  }));
}

/** DELETE /me/sessions/others: one session.revoked per session signed out. */
export function revokeOtherSessions(core: Core, caller: UserCaller & { session: SessionRow }): void {
  core.tx(() => {
    const others = otherSessionHandles(core, caller.user.id, caller.session.id);
    deleteUserSessions(core, caller.user.id, caller.session.id);
    for (const handle of others) revoked(core, caller, handle);
  });
}

export function revokeSessionByHandle(core: Core, caller: UserCaller, handle: string): void {
  core.tx(() => {
    if (!deleteSessionByHandle(core, caller.user.id, handle)) throw notFound();
    revoked(core, caller, handle);
  });
}

function revoked(core: Core, caller: UserCaller, handle: string): void {
  recordEvent(core, {
    type: "session.revoked",
    targetType: "session",
    targetId: handle,
    spaceId: null,
    actorId: caller.user.id,
    ip: caller.ip,
    data: { userId: caller.user.id },
  });
}

/**
 * Replaces a session with a fresh id (after re-authentication or a password change), so a
 * value stolen before the proof is worth nothing after it.
 */
export function rotateSession(core: Core, old: SessionRow, reauthAt: number | null): NewSession {
  return core.tx(() => {
    deleteSessionById(core, old.id);
    const next = createSession(core, old.userId, { ip: old.ip ?? "", userAgent: old.userAgent, reauthAt });
    // Keep the original absolute lifetime: re-authenticating does not extend it past 90 days.
    keepSessionLifetime(core, next.row.id, old.createdAt, old.absoluteExpiresAt);
    return { value: next.value, row: { ...next.row, createdAt: old.createdAt, absoluteExpiresAt: old.absoluteExpiresAt } };
  });
}

/**
 * How long the browser keeps the cookie (Max-Age): until the session's absolute expiry, the
 * longest the session can live if it is used. The 14-day idle expiry is the server's to
 * enforce: sliding does not send the cookie again (it is written on no ordinary response), so a
 * shorter Max-Age would drop sessions that are in use. A session that got a new id keeps its
 * original end, and so does its cookie.
 */
export function cookieLifetimeSeconds(core: Core, row: SessionRow): number {
  return Math.max(0, Math.floor((Date.parse(row.absoluteExpiresAt) - core.clock.now()) / 1000));
}

/** Cairn ends a session it no longer trusts (too many wrong passwords in it): session.revoked, by nobody. */
export function endSession(core: Core, caller: UserCaller & { session: SessionRow }, reason: string): void {
  core.tx(() => {
    deleteSessionById(core, caller.session.id);
    recordEvent(core, {
      type: "session.revoked",
      targetType: "session",
      targetId: caller.session.handle,
      spaceId: null,
      actorId: null,
      ip: caller.ip,
      data: { userId: caller.user.id, reason },
    });
  });
}

export function hasRecentReauth(core: Core, session: SessionRow): boolean {
  return session.reauthAt !== null && core.clock.now() - Date.parse(session.reauthAt) <= REAUTH_WINDOW_MS;
}
