/**
 * The accounts table's store: the only module that writes `users` (account-lists.ts beside it
 * holds the administrators' reads, which load when first used). Sign-up, invitations, setup, the
 * administrators' changes, profile and avatar changes and password resets all call it.
 */
import { and, asc, count, eq, gte, inArray, sql } from "drizzle-orm";
import type { Core } from "../../core";
import { perInstance } from "../../platform/memo";
import { roles, users } from "../tables";

export const USER_STATUS = { Active: 0, Suspended: 1 } as const;

export type NewAccount = typeof users.$inferInsert;
/** The columns of an account a change may set (updatedAt is always set with them). */
export type AccountChange = Partial<
  Pick<
    NewAccount,
    "displayName" | "passwordHash" | "roleId" | "status" | "totpEnabled" | "avatarSha256" | "avatarVariant" | "failedLogins" | "lockedUntil"
  >
>;

const userLookups = perInstance((core: Core) => {
  const base = () => core.db.select({ user: users, role: roles }).from(users).innerJoin(roles, eq(users.roleId, roles.id));
  return {
    byId: base()
      .where(eq(users.id, sql.placeholder("id")))
      .prepare(),
    byEmail: base()
      .where(eq(users.email, sql.placeholder("email")))
      .prepare(),
  };
});

/** An account with its role, by id (prepared: runs on every sign-in and account read). */
export function findUserWithRoleById(core: Core, id: string) {
  return userLookups(core).byId.get({ id });
}

/** By e-mail as typed: trimmed and lower-cased, as stored. */
export function findUserWithRoleByEmail(core: Core, email: string) {
  return userLookups(core).byEmail.get({ email: email.trim().toLowerCase() });
}

export function countAccounts(core: Core): number {
  return core.db.select({ n: count() }).from(users).get()!.n;
}

export function accountIdByEmail(core: Core, email: string): string | undefined {
  return core.db.select({ id: users.id }).from(users).where(eq(users.email, email)).get()?.id;
}

export function anyAccount(core: Core): boolean {
  return !!core.db.select({ id: users.id }).from(users).limit(1).get();
}

/** The columns of one account that a caller names (undefined: no such account). */
export function accountColumns<K extends keyof typeof users.$inferSelect>(
  core: Core,
  id: string,
  keys: K[],
): Pick<typeof users.$inferSelect, K> | undefined {
  const pick = Object.fromEntries(keys.map((k) => [k, users[k]])) as Record<string, (typeof users)[K]>;
  return core.db.select(pick).from(users).where(eq(users.id, id)).get() as Pick<typeof users.$inferSelect, K> | undefined;
}

export function insertAccount(core: Core, row: NewAccount): void {
  core.db.insert(users).values(row).run();
}

/** Sets columns of one account, with its updatedAt. */
export function updateAccount(core: Core, id: string, change: AccountChange, updatedAt: string): void {
  core.db
    .update(users)
    .set({ ...change, updatedAt })
    .where(eq(users.id, id))
    .run();
}

/** The directory of active accounts, by name. */
export function activeDirectory(core: Core) {
  return core.db
    .select({
      id: users.id,
      displayName: users.displayName,
      email: users.email,
      avatarSha256: users.avatarSha256,
      avatarVariant: users.avatarVariant,
    })
    .from(users)
    .where(and(eq(users.status, USER_STATUS.Active)))
    .orderBy(asc(users.displayName), asc(users.email))
    .all();
}

export function accountById(core: Core, id: string): typeof users.$inferSelect | undefined {
  return core.db.select().from(users).where(eq(users.id, id)).get();
}

/**
 * The sign-in lock's counters on an account (auth/lockout.ts). Not a change of the account
 * itself, so its updatedAt stays.
 */
export function updateLockCounters(
  core: Core,
  id: string,
  change: Partial<Pick<NewAccount, "failedLogins" | "lockouts" | "lockedUntil">>,
): void {
  core.db.update(users).set(change).where(eq(users.id, id)).run();
}

/** Active accounts whose role is of `minTier` or above, by name (the built-in groups' members). */
export function activeAccountsFromTier(core: Core, minTier: number) {
  return core.db
    .select({
      id: users.id,
      displayName: users.displayName,
      email: users.email,
      avatarSha256: users.avatarSha256,
      avatarVariant: users.avatarVariant,
    })
    .from(users)
    .innerJoin(roles, eq(users.roleId, roles.id))
    .where(and(eq(users.status, USER_STATUS.Active), gte(roles.tier, minTier)))
    .orderBy(asc(users.displayName))
    .all();
}

/** Display names of accounts by id, 500 ids a statement (who handled alerts, who is mentioned in an export). */
export function displayNamesOf(core: Core, ids: string[]): Map<string, string> {
  const names = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const u of core.db
      .select({ id: users.id, name: users.displayName })
      .from(users)
      .where(inArray(users.id, ids.slice(i, i + 500)))
      .all())
      names.set(u.id, u.name);
  }
  return names;
}

/** Account ids by e-mail (already lower case), 500 addresses a statement (an import crediting its authors). */
export function accountIdsByEmail(core: Core, emails: string[]): Map<string, string> {
  const byEmail = new Map<string, string>();
  for (let i = 0; i < emails.length; i += 500) {
    for (const u of core.db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(inArray(users.email, emails.slice(i, i + 500)))
      .all())
      byEmail.set(u.email, u.id);
  }
  return byEmail;
}

/** E-mail addresses of accounts, by id (one statement). */
export function emailsOf(core: Core, ids: string[]): Map<string, string> {
  return new Map(
    ids.length
      ? core.db
          .select({ id: users.id, email: users.email })
          .from(users)
          .where(inArray(users.id, ids))
          .all()
          .map((u) => [u.id, u.email])
      : [],
  );
}
