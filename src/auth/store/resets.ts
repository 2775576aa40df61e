/** The reset links' store: the only module that writes `password_resets`. */
import { and, eq, isNull } from "drizzle-orm";
import type { Core } from "../../core";
import { passwordResets } from "../tables";

export type ResetLinkRow = typeof passwordResets.$inferSelect;

/** Deletes the account's unused links; answers how many went. */
export function deleteUnusedResetLinks(core: Core, userId: string): number {
  return core.db
    .delete(passwordResets)
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)))
    .returning({ id: passwordResets.id })
    .all().length;
}

export function insertResetLink(core: Core, row: ResetLinkRow): void {
  core.db.insert(passwordResets).values(row).run();
}

export function resetLinkByTokenHash(core: Core, tokenHash: string): ResetLinkRow | undefined {
  return core.db.select().from(passwordResets).where(eq(passwordResets.tokenHash, tokenHash)).get();
}

export function markResetLinkUsed(core: Core, id: string, usedAt: string): void {
  core.db.update(passwordResets).set({ usedAt }).where(eq(passwordResets.id, id)).run();
}
