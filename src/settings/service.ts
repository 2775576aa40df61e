import { eq } from "drizzle-orm";
import { requireRight } from "../identity/rights";
import { requireUser, type Caller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { AppError } from "../platform/errors";
import { keptUntilWrite } from "../platform/db/kept-answers";
import { SETTING_DEFAULTS, type SettingKey, type Settings } from "./defaults";
import { checkSettings, keepsRule } from "./rules";
import { settings } from "./tables";

export { SETTING_DEFAULTS, type SettingKey, type Settings } from "./defaults";

// Read on every anonymous request (rate limit), so kept until the next write: one made here,
// a rolled-back one, or one by another process (cairn commands beside a running server).
const kept = keptUntilWrite<Settings>("settings", 1);

export function getSettings(core: Core): Settings {
  return kept(core.stamp, "settings", () => {
    const current: Settings = { ...SETTING_DEFAULTS };
    for (const row of core.db.select().from(settings).all()) {
      // A value that breaks its rule (edited by hand) is not used: the default stands.
      if (Object.hasOwn(SETTING_DEFAULTS, row.key) && keepsRule(row.key as SettingKey, row.value)) (current as Record<string, unknown>)[row.key] = row.value;
    }
    return current;
  });
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
}

/** Back to the default. */
export function deleteSetting(core: Core, key: SettingKey, by: SettingActor = SYSTEM): void {
  core.tx(() => {
    const from = getSetting(core, key);
    if (core.db.delete(settings).where(eq(settings.key, key)).returning({ key: settings.key }).get()) settingChanged(core, by, key, from, SETTING_DEFAULTS[key]);
  });
}

/** GET /api/admin/settings: every setting as it is now, defaults included (right settings.manage). */
export function readSettings(core: Core, caller: Caller): Settings {
  requireRight(requireUser(caller), "settings.manage");
  return getSettings(core);
}

/**
 * PUT /api/admin/settings (right settings.manage):
 * 1. at least one setting, each checked against its rule and the whole as it would be (rules.ts);
 *    one refused value changes nothing;
 * 2. in ONE transaction, each value that differs is stored with its settings.updated entry
 *    (who, from, to); a value sent as it already is records nothing.
 */
export function updateSettings(core: Core, caller: Caller, input: Record<string, unknown>): Settings {
  const user = requireUser(caller);
  requireRight(user, "settings.manage");
  // 1.
  if (Object.keys(input).length === 0) throw new AppError("validation_failed", { detail: `Send at least one setting: ${Object.keys(SETTING_DEFAULTS).join(", ")}.` });
  const current = getSettings(core);
  const next = checkSettings(current, input);
  // 2.
  core.tx(() => {
    // In the settings' own order, whatever the body's: the audit log reads the same each time.
    for (const key of Object.keys(SETTING_DEFAULTS) as SettingKey[]) {
      if (Object.hasOwn(input, key) && next[key] !== current[key]) setSetting(core, key, next[key], { actorId: user.user.id, ip: user.ip });
    }
  });
  return getSettings(core);
}
