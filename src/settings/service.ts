import { getTableName } from "drizzle-orm";
import { hasRight, requireRight } from "../identity/rights";
import { requireUser, type Caller, type UserCaller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { AppError, invalid } from "../platform/errors";
import { parseCidr, type Cidr } from "../platform/ip-ranges";
import { keptUntilWrite } from "../platform/db/kept-answers";
import { SETTING_DEFAULTS, type SettingKey, type Settings } from "../common/settings/rules";
import { checkSettings, isSecret, keepsRule, SETTING_KEYS, SETTING_RULES, wideningKeys } from "./rules";
import { deleteStoredSetting, storedSettings, upsertSetting } from "./store";
import { settings } from "./tables";

export { SETTING_DEFAULTS, type SettingKey, type Settings } from "../common/settings/rules";

// Read on every request (trusted proxies, the anonymous rate limit), so kept until the settings
// change: a write here, a rolled-back one, or one by another process (cairn commands beside a
// running server). Page edits leave it as it is.
const kept = keptUntilWrite<Settings>("settings", 1, undefined, { tables: [{ table: getTableName(settings) }] });

export function getSettings(core: Core): Settings {
  return kept(core.stamp, "settings", () => {
    const current: Settings = { ...SETTING_DEFAULTS };
    for (const row of storedSettings(core)) {
      // A value that breaks its rule (edited by hand) is not used: the default stands.
      if (Object.hasOwn(SETTING_DEFAULTS, row.key) && keepsRule(row.key as SettingKey, row.value))
        (current as Record<string, unknown>)[row.key] = row.value;
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
 * Every change records settings.updated with the key, the old and the new value; a secret
 * records only that it changed (`{key, secret: true, set}`), never a value.
 */
function settingChanged(core: Core, by: SettingActor, key: SettingKey, from: unknown, to: unknown): void {
  const data = isSecret(key) ? { key, change: to === "" ? "cleared" : "set" } : { key, from, to };
  recordEvent(core, {
    type: "settings.updated",
    targetType: "setting",
    targetId: key,
    spaceId: null,
    actorId: by.actorId,
    ip: by.ip,
    data,
  });
}

export function setSetting<K extends SettingKey>(core: Core, key: K, value: Settings[K], by: SettingActor = SYSTEM): void {
  core.tx(() => {
    const now = iso(core.clock.now());
    const from = getSetting(core, key);
    upsertSetting(core, key, value, now);
    settingChanged(core, by, key, from, value);
  });
}

/** Back to the default. */
export function deleteSetting(core: Core, key: SettingKey, by: SettingActor = SYSTEM): void {
  core.tx(() => {
    const from = getSetting(core, key);
    if (deleteStoredSetting(core, key)) settingChanged(core, by, key, from, SETTING_DEFAULTS[key]);
  });
}

/** The settings as answered: every one but the secrets, and for each secret whether one is stored (`smtpPasswordSet`). */
export function settingsView(current: Settings) {
  const view: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    if (isSecret(key)) view[`${key}Set`] = current[key] !== "";
    else view[key] = current[key];
  }
  return view as Omit<Settings, SecretKey> & { [K in SecretKey as `${K}Set`]: boolean };
}

export type SettingsView = ReturnType<typeof settingsView>;
type SecretKey = "smtpPassword" | "microsoftClientSecret" | "googleClientSecret";

/**
 * GET /api/admin/settings (right settings.manage): every setting as it is now, defaults
 * included, secrets as …Set. The limits security.manage changes are read here too by holders
 * of settings.manage; a holder of security.manage alone reads them at /api/admin/security/limits.
 */
export function readSettings(core: Core, caller: Caller): SettingsView {
  requireRight(requireUser(caller), "settings.manage");
  return settingsView(getSettings(core));
}

/** The right a setting needs, and whether the caller holds it: refused whole, naming the first setting they may not change. */
function requireSettingRights(user: UserCaller, keys: SettingKey[]): void {
  for (const key of keys) {
    const right = SETTING_RULES[key].right;
    if (!hasRight(user, right)) {
      throw new AppError("permission_required", {
        field: key,
        extra: { permission: right, setting: key },
        detail: `Changing ${key} needs the right "${right}"; nothing was changed.`,
      });
    }
  }
}

/**
 * PUT /api/admin/settings (each setting its own right, SETTING_RULES):
 * 1. at least one setting, all known; the caller holds the right of every one sent, or nothing
 *    changes (403 naming the first they may not change);
 * 2. each checked against its rule and the whole as it would be (rules.ts); one refused value
 *    changes nothing;
 * 3. a change that widens access (wideningKeys) needs a recent re-authentication: `reauth` is
 *    the auth layer's check, handed down by the route (settings sits below auth);
 * 4. in ONE transaction, each value that differs is stored with its settings.updated entry
 *    (who, from, to; for a secret only that it changed); a value sent as it already is records nothing.
 */
export function updateSettings(
  core: Core,
  caller: Caller,
  input: Record<string, unknown>,
  reauth: (user: UserCaller) => void,
): SettingsView {
  const user = requireUser(caller);
  // 1.
  if (!hasRight(user, "settings.manage") && !hasRight(user, "security.manage")) requireRight(user, "settings.manage");
  if (Object.keys(input).length === 0)
    throw new AppError("validation_failed", { detail: `Send at least one setting: ${SETTING_KEYS.join(", ")}.` });
  const unknown = Object.keys(input).find((k) => !Object.hasOwn(SETTING_RULES, k));
  if (unknown) throw invalid(unknown, "is not a setting");
  requireSettingRights(user, Object.keys(input) as SettingKey[]);
  // 2.
  const current = getSettings(core);
  const next = checkSettings(current, input);
  // 3.
  if (wideningKeys(current, next, input).length) reauth(user);
  // 4.
  core.tx(() => {
    // In the settings' own order, whatever the body's: the audit log reads the same each time.
    for (const key of SETTING_KEYS) {
      if (Object.hasOwn(input, key) && JSON.stringify(next[key]) !== JSON.stringify(current[key]))
        setSetting(core, key, next[key], { actorId: user.user.id, ip: user.ip });
    }
  });
  return settingsView(getSettings(core));
}

/**
 * The proxies whose forwarded headers are believed: those given at start (--trusted-proxies)
 * and the trustedProxies setting. Asked on every request, so parsed once per settings value.
 */
const parsedProxies = new WeakMap<Settings, Cidr[]>();
export function trustedProxiesOf(core: Core): readonly Cidr[] {
  const current = getSettings(core);
  let nets = parsedProxies.get(current);
  if (!nets) {
    nets = [...core.config.trustedProxies, ...current.trustedProxies.flatMap((e) => parseCidr(e) ?? [])];
    parsedProxies.set(current, nets);
  }
  return nets;
}
