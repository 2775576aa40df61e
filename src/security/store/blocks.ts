/** The address blocks' store: the only module that writes `security_blocks`. */
import { asc, eq } from "drizzle-orm";
import type { Core } from "../../core";
import { perInstance } from "../../platform/memo";
import { users } from "../../users/tables";
import { securityBlocks, type SecurityBlockRow } from "../tables";

// Prepared once per database: read again after every write of the blocks.
const allBlocks = perInstance((core: Core) =>
  core.db.select({ cidr: securityBlocks.cidr, expiresAt: securityBlocks.expiresAt }).from(securityBlocks).prepare(),
);

/** Every block's range and end (the per-request check's list). */
export function blockRanges(core: Core): Array<{ cidr: string; expiresAt: string | null }> {
  return allBlocks(core).all();
}

/** Every block with its author's name, oldest first. */
export function blocksWithAuthor(core: Core) {
  return core.db
    .select({ row: securityBlocks, createdByName: users.displayName })
    .from(securityBlocks)
    .leftJoin(users, eq(users.id, securityBlocks.createdById))
    .orderBy(asc(securityBlocks.createdAt))
    .all();
}

export function insertBlock(core: Core, row: SecurityBlockRow): void {
  core.db.insert(securityBlocks).values(row).run();
}

export function blockById(core: Core, id: string): SecurityBlockRow | undefined {
  return core.db.select().from(securityBlocks).where(eq(securityBlocks.id, id)).get();
}

export function deleteBlock(core: Core, id: string): void {
  core.db.delete(securityBlocks).where(eq(securityBlocks.id, id)).run();
}
