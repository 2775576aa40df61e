/**
 * The store of media's own table, space_icons (an uploaded icon per space): its only writer.
 * Avatars live on the account (the users domain's store writes them).
 */
import { eq } from "drizzle-orm";
import type { Core } from "../core";
import { spaceIcons, type SpaceIconRow } from "./tables";

export function spaceIconOf(core: Pick<Core, "db">, spaceId: string): SpaceIconRow | undefined {
  return core.db.select().from(spaceIcons).where(eq(spaceIcons.spaceId, spaceId)).get();
}

/** Puts the space's icon in place; answers the blob of the one it replaced (null: none). */
export function putSpaceIcon(core: Pick<Core, "db">, icon: SpaceIconRow): string | null {
  const before =
    core.db.select({ sha256: spaceIcons.sha256 }).from(spaceIcons).where(eq(spaceIcons.spaceId, icon.spaceId)).get()?.sha256 ?? null;
  const { spaceId: _, ...set } = icon;
  core.db.insert(spaceIcons).values(icon).onConflictDoUpdate({ target: spaceIcons.spaceId, set }).run();
  return before;
}

/** Removes the space's icon; answers its blob (null: it had none). */
export function dropSpaceIcon(core: Pick<Core, "db">, spaceId: string): string | null {
  return core.db.delete(spaceIcons).where(eq(spaceIcons.spaceId, spaceId)).returning({ sha256: spaceIcons.sha256 }).get()?.sha256 ?? null;
}
