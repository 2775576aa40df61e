/**
 * The spaces store: the only module that holds the driver for the spaces table and its only
 * writer (docs/architecture.md). A space's grants are the permissions store's; "create a space"
 * with its first grants is permissions/new-space.ts, which calls both.
 */
import { and, asc, eq, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { Core } from "../core";
import { perInstance } from "../platform/memo";
import { spaces, type SpaceRow } from "./tables";

// Every page request reads its space: these two lookups are prepared once per database
// (drizzle builds the SQL of an unprepared query on every call, ~5x slower).
const spaceLookups = perInstance((core: Core) => ({
  byId: core.db
    .select()
    .from(spaces)
    .where(eq(spaces.id, sql.placeholder("id")))
    .prepare(),
  byKey: core.db
    .select()
    .from(spaces)
    .where(eq(spaces.key, sql.placeholder("key")))
    .prepare(),
}));

export const spaceRowById = (core: Core, id: string): SpaceRow | undefined => spaceLookups(core).byId.get({ id });
/** `key` upper-case, as stored. */
export const spaceRowByKey = (core: Core, key: string): SpaceRow | undefined => spaceLookups(core).byKey.get({ key });

/** Spaces matching `where` (the caller's filter and the archived switch), by name then key. */
export function spaceRowsWhere(core: Core, where: SQL | undefined): SpaceRow[] {
  return core.db.select().from(spaces).where(where).orderBy(asc(spaces.name), asc(spaces.key)).all();
}

export type NewSpaceRow = typeof spaces.$inferInsert;

/** A new space's row (inside the caller's transaction). */
export function insertSpace(core: Core, row: NewSpaceRow): void {
  core.db.insert(spaces).values(row).run();
}

/** Changes a space's own fields (inside the caller's transaction). */
export function updateSpaceRow(core: Core, spaceId: string, changes: Partial<SpaceRow>): void {
  core.db.update(spaces).set(changes).where(eq(spaces.id, spaceId)).run();
}

/** The space's front shows its recent pages again (its home page went to the trash). */
export function clearHomepage(core: Core, spaceId: string): void {
  updateSpaceRow(core, spaceId, { homepageId: null });
}

/** Removes a space's row; what hangs off it with ON DELETE CASCADE goes with it. */
export function deleteSpaceRow(core: Core, spaceId: string): void {
  core.db.delete(spaces).where(eq(spaces.id, spaceId)).run();
}

/** Whether the space is still staged (an import is writing it, or left it behind). */
export function isStaged(core: Core, spaceId: string): boolean {
  return (
    core.db
      .select({ id: spaces.id })
      .from(spaces)
      .where(and(eq(spaces.id, spaceId), isNotNull(spaces.stagedAt)))
      .get() !== undefined
  );
}

/** Every staged space. */
export function stagedSpaces(core: Core): { id: string; key: string }[] {
  return core.db.select({ id: spaces.id, key: spaces.key }).from(spaces).where(isNotNull(spaces.stagedAt)).all();
}

/** Every space but those an import is still writing, by name then key (the administrators' list). */
export function unstagedSpacesByName(core: Core): SpaceRow[] {
  return core.db.select().from(spaces).where(isNull(spaces.stagedAt)).orderBy(asc(spaces.name), asc(spaces.key)).all();
}
