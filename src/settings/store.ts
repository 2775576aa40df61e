/** The settings' store: the only module that writes `settings` (one row per key set away from its default). */
import { eq } from "drizzle-orm";
import type { Core } from "../core";
import { perInstance } from "../platform/memo";
import { settings } from "./tables";

// Prepared once per database: read again after every write of the settings.
const allSettings = perInstance((core: Core) => core.db.select().from(settings).prepare());

/** Every stored setting. */
export function storedSettings(core: Core): Array<typeof settings.$inferSelect> {
  return allSettings(core).all();
}

export function upsertSetting(core: Core, key: string, value: unknown, updatedAt: string): void {
  core.db.insert(settings).values({ key, value, updatedAt }).onConflictDoUpdate({ target: settings.key, set: { value, updatedAt } }).run();
}

/** Deletes a stored setting; answers whether one was stored. */
export function deleteStoredSetting(core: Core, key: string): boolean {
  return !!core.db.delete(settings).where(eq(settings.key, key)).returning({ key: settings.key }).get();
}

/** Whether the setting is stored (set away from its default through the settings screen or API). */
export function isSettingStored(core: Core, key: string): boolean {
  return !!core.db.select({ key: settings.key }).from(settings).where(eq(settings.key, key)).get();
}
