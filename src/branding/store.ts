/** The branding's store: the only module that writes `branding` (one row, id 1) and `branding_files` (one per slot). */
import { eq } from "drizzle-orm";
import type { Core } from "../core";
import { branding, brandingFiles, type BrandingFileRow, type BrandingRow } from "./tables";

export function brandingRow(core: Core): BrandingRow | undefined {
  return core.db.select().from(branding).where(eq(branding.id, 1)).get();
}

export function brandingFileRows(core: Core): BrandingFileRow[] {
  return core.db.select().from(brandingFiles).all();
}

/** Writes the instance's branding (the one row). */
export function upsertBranding(core: Core, row: Omit<typeof branding.$inferInsert, "id">): void {
  core.db
    .insert(branding)
    .values({ id: 1, ...row })
    .onConflictDoUpdate({ target: branding.id, set: row })
    .run();
}

/** Deletes the branding row and every file's row: answers whether there was a row, and the files that went. */
export function deleteAllBranding(core: Core): { had: boolean; files: Array<{ slot: string; sha256: string }> } {
  const had = core.db.delete(branding).returning({ id: branding.id }).all().length > 0;
  const files = core.db.delete(brandingFiles).returning({ slot: brandingFiles.slot, sha256: brandingFiles.sha256 }).all();
  return { had, files };
}

/** Deletes a slot's file row and answers it, if there was one. */
export function deleteBrandingFile(core: Core, slot: string): BrandingFileRow | undefined {
  return core.db.delete(brandingFiles).where(eq(brandingFiles.slot, slot)).returning().get();
}

export function brandingFileBlob(core: Core, slot: string): string | undefined {
  return core.db.select({ sha256: brandingFiles.sha256 }).from(brandingFiles).where(eq(brandingFiles.slot, slot)).get()?.sha256;
}

export function upsertBrandingFile(core: Core, row: typeof brandingFiles.$inferInsert): void {
  const { slot: _, ...set } = row;
  core.db.insert(brandingFiles).values(row).onConflictDoUpdate({ target: brandingFiles.slot, set }).run();
}
