/** The sessions table's store: the only module that writes `sessions`. */
import { and, desc, eq, gt, ne, sql } from "drizzle-orm";
import type { Core } from "../../core";
import type { SessionRow } from "../../identity/caller";
import { perInstance } from "../../platform/memo";
import { roles, users } from "../../users/tables";
import { sessions } from "../tables";

export function insertSession(core: Core, row: SessionRow): void {
  core.db.insert(sessions).values(row).run();
}

// Prepared once per instance: this runs on every browser request.
const sessionLookup = perInstance((core: Core) =>
  core.db
    .select({ session: sessions, user: users, role: roles })
    .from(sessions)
    .innerJoin(users, eq(sessions.userId, users.id))
    .innerJoin(roles, eq(users.roleId, roles.id))
    .where(eq(sessions.id, sql.placeholder("id")))
    .prepare(),
);

/** A session by id with its account and role. */
export function sessionWithAccount(core: Core, id: string) {
  return sessionLookup(core).get({ id });
}

/** Moves a session's idle expiry along (bookkeeping: the caller runs it outside the change stamp). */
export function slideSession(core: Core, id: string, lastSeenAt: string, expiresAt: string): void {
  core.db.update(sessions).set({ lastSeenAt, expiresAt }).where(eq(sessions.id, id)).run();
}

export function deleteSessionById(core: Core, id: string): void {
  core.db.delete(sessions).where(eq(sessions.id, id)).run();
}

/** Deletes the account's sessions but `keepId` (or all); answers how many went. */
export function deleteSessionsOf(core: Core, userId: string, keepId: string | null): number {
  const where = keepId ? and(eq(sessions.userId, userId), ne(sessions.id, keepId)) : eq(sessions.userId, userId);
  return core.db.delete(sessions).where(where).returning({ id: sessions.id }).all().length;
}

/** Deletes one of the account's sessions by its handle; answers whether there was one. */
export function deleteSessionByHandle(core: Core, userId: string, handle: string): boolean {
  return (
    core.db
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), eq(sessions.handle, handle)))
      .returning({ id: sessions.id })
      .all().length > 0
  );
}

/** The account's sessions still live at `now`, last used first. */
export function liveSessionsOf(core: Core, userId: string, now: string): SessionRow[] {
  return core.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now), gt(sessions.absoluteExpiresAt, now)))
    .orderBy(desc(sessions.lastSeenAt))
    .all();
}

export function otherSessionHandles(core: Core, userId: string, keepId: string): string[] {
  return core.db
    .select({ handle: sessions.handle })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepId)))
    .all()
    .map((s) => s.handle);
}

/** A session that got a new id keeps its original start and absolute end. */
export function keepSessionLifetime(core: Core, id: string, createdAt: string, absoluteExpiresAt: string): void {
  core.db.update(sessions).set({ createdAt, absoluteExpiresAt }).where(eq(sessions.id, id)).run();
}
