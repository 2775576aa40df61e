import { eq } from "drizzle-orm";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
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
  // The account-wide lock (every address): at least this many wrong passwords from at least
  // this many addresses within the window. One address only ever locks itself out.
  lockoutAccountFailures: 20,
  lockoutAccountAddresses: 3,
  lockoutAccountWindowSeconds: 3600,
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

/** Who changes a setting, for the audit log: an account and its address, or nobody (the CLI, tests). */
export interface SettingActor {
  actorId: string | null;
  ip: string | null;
}

const SYSTEM: SettingActor = { actorId: null, ip: null };

/**
 * Every change records settings.updated with the key, the old and the new value. A setting that
 * is a secret (none yet; SMTP passwords later) must record only that it changed.
 */
function settingChanged(core: Core, by: SettingActor, key: SettingKey, from: unknown, to: unknown): void {
  recordEvent(core, { type: "settings.updated", targetType: "setting", targetId: key, spaceId: null, actorId: by.actorId, ip: by.ip, data: { key, from, to } });
}

export function setSetting<K extends SettingKey>(core: Core, key: K, value: Settings[K], by: SettingActor = SYSTEM): void {
  core.tx(() => {
    const now = iso(core.clock.now());
    const from = getSetting(core, key);
    core.db
      .insert(settings)
      .values({ key, value, updatedAt: now })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now } })
      .run();
    settingChanged(core, by, key, from, value);
  });
  cache.delete(core.sqlite);
}

/** Back to the default. */
export function deleteSetting(core: Core, key: SettingKey, by: SettingActor = SYSTEM): void {
  core.tx(() => {
    const from = getSetting(core, key);
    if (core.db.delete(settings).where(eq(settings.key, key)).returning({ key: settings.key }).get()) settingChanged(core, by, key, from, SETTING_DEFAULTS[key]);
  });
  cache.delete(core.sqlite);
}
