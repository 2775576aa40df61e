import { eq } from "drizzle-orm";
import type { Core } from "../core";
import { iso } from "../platform/clock";
import { settings } from "./tables";

/** Instance settings with their defaults (SPEC.md §8, DESIGN.md §5). */
export const SETTING_DEFAULTS = {
  instanceName: "Cairn",
  allowPublicRegistration: false,
  allowPublicSpaces: false,
  anonymousRateLimitPerMinute: 300,
  loginRateLimitPerMinute: 10,
  tokenMintLimitPerHour: 20,
  lockoutThreshold: 5,
  lockoutBaseSeconds: 60,
  lockoutMaxSeconds: 900,
};

export type Settings = typeof SETTING_DEFAULTS;
export type SettingKey = keyof Settings;

// Read on every anonymous request (rate limit), so kept in memory per database and
// refreshed on every write through setSetting.
const cache = new WeakMap<Core["sqlite"], Settings>();

export function getSettings(core: Core): Settings {
  let current = cache.get(core.sqlite);
  if (!current) {
    current = { ...SETTING_DEFAULTS };
    for (const row of core.db.select().from(settings).all()) {
      if (row.key in SETTING_DEFAULTS) (current as Record<string, unknown>)[row.key] = row.value;
    }
    cache.set(core.sqlite, current);
  }
  return current;
}

export function getSetting<K extends SettingKey>(core: Core, key: K): Settings[K] {
  return getSettings(core)[key];
}

export function setSetting<K extends SettingKey>(core: Core, key: K, value: Settings[K]): void {
  core.tx(() => {
    const now = iso(core.clock.now());
    core.db
      .insert(settings)
      .values({ key, value, updatedAt: now })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } })
      .run();
  });
  cache.delete(core.sqlite);
}

export function deleteSetting(core: Core, key: SettingKey): void {
  core.tx(() => core.db.delete(settings).where(eq(settings.key, key)).run());
  cache.delete(core.sqlite);
}
