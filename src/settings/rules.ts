/**
 * What each instance setting may be set to, and what it means: one table that both the
 * request schema (schemas.ts, with the OpenAPI descriptions) and the service's own check
 * (service.ts, for callers other than HTTP) are made from.
 */
import { invalid } from "../platform/errors";
import { singleLine } from "../platform/text";
import { SETTING_DEFAULTS, type SettingKey, type Settings } from "./defaults";

export type SettingRule =
  | { kind: "boolean"; description: string }
  | { kind: "integer"; minimum: number; maximum: number; description: string }
  | { kind: "text"; maxLength: number; description: string };

const DAY = 86_400;

export const SETTING_RULES: { [K in SettingKey]: SettingRule } = {
  instanceName: { kind: "text", maxLength: 100, description: "The wiki's name, shown by GET /api/instance: one line, 1 to 100 characters, surrounding spaces dropped" },
  allowPublicRegistration: { kind: "boolean", description: "Anyone may create an account without an invite" },
  allowPublicSpaces: {
    kind: "boolean",
    description: "Spaces marked public (PUT /api/admin/spaces/{key}/public) can be read by anyone, signed in or not. While off, a space marked public is read only through its grants",
  },
  anonymousRateLimitPerMinute: { kind: "integer", minimum: 1, maximum: 100_000, description: "Requests a minute from one client address with no session or token; more answer 429" },
  loginRateLimitPerMinute: {
    kind: "integer",
    minimum: 1,
    maximum: 1_000,
    description: "Wrong passwords a minute from one client address (sign-in, re-authentication and password changes together); more answer 429 before any password is checked",
  },
  tokenMintLimitPerHour: { kind: "integer", minimum: 1, maximum: 1_000, description: "API tokens one account may create an hour" },
  lockoutThreshold: {
    kind: "integer",
    minimum: 1,
    maximum: 100,
    description: "Wrong passwords from one client address that lock the account for that address (and how many more a lock still checks)",
  },
  lockoutBaseSeconds: { kind: "integer", minimum: 1, maximum: DAY, description: "How long the first lock lasts, in seconds; each further lock doubles it, up to lockoutMaxSeconds" },
  lockoutMaxSeconds: { kind: "integer", minimum: 1, maximum: 7 * DAY, description: "The longest a lock lasts, in seconds; at least lockoutBaseSeconds" },
  lockoutAccountFailures: {
    kind: "integer",
    minimum: 1,
    maximum: 100_000,
    description: "Wrong passwords within lockoutAccountWindowSeconds, from at least lockoutAccountAddresses addresses, that lock the account for every address",
  },
  lockoutAccountAddresses: {
    kind: "integer",
    minimum: 2,
    maximum: 1_000,
    description: "How many client addresses the wrong passwords must come from to lock the account for every address; at least 2, so one address only ever locks itself out",
  },
  lockoutAccountWindowSeconds: { kind: "integer", minimum: 60, maximum: 7 * DAY, description: "The window, in seconds, in which lockoutAccountFailures are counted" },
};

const describe = (rule: SettingRule, key: SettingKey) => `${rule.description} (default ${JSON.stringify(SETTING_DEFAULTS[key])})`;

/** The description of a setting, with its default, for the OpenAPI document. */
export const settingDescription = (key: SettingKey) => describe(SETTING_RULES[key], key);

/** One value checked against its rule: answers it as stored (a name trimmed), or a 400 naming it. */
function checkValue(key: SettingKey, value: unknown): unknown {
  const rule = SETTING_RULES[key];
  switch (rule.kind) {
    case "boolean":
      if (typeof value !== "boolean") throw invalid(key, "must be true or false");
      return value;
    case "integer":
      if (typeof value !== "number" || !Number.isInteger(value)) throw invalid(key, "must be a whole number");
      if (value < rule.minimum || value > rule.maximum) throw invalid(key, `must be from ${rule.minimum} to ${rule.maximum}`);
      return value;
    case "text": {
      if (typeof value !== "string") throw invalid(key, "must be a string");
      const text = singleLine(key, value).trim();
      if (!text) throw invalid(key, "must not be blank");
      if (text.length > rule.maxLength) throw invalid(key, `must be at most ${rule.maxLength} characters`);
      return text;
    }
  }
}

/** Whether a stored value still keeps its rule (a database edited by hand may hold anything). */
export function keepsRule(key: SettingKey, value: unknown): boolean {
  try {
    return checkValue(key, value) === value;
  } catch {
    return false;
  }
}

/**
 * A change of some settings, checked as a whole: each value against its rule, then the
 * settings that depend on each other as they would be afterwards. Answers the new settings.
 */
export function checkSettings(current: Settings, input: Record<string, unknown>): Settings {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(input)) {
    if (!Object.hasOwn(SETTING_RULES, key)) throw invalid(key, "is not a setting");
    next[key] = checkValue(key as SettingKey, value);
  }
  const s = next as Settings;
  if (s.lockoutMaxSeconds < s.lockoutBaseSeconds) {
    const field = "lockoutMaxSeconds" in input ? "lockoutMaxSeconds" : "lockoutBaseSeconds";
    throw invalid(field, `lockoutMaxSeconds (${s.lockoutMaxSeconds}) must be at least lockoutBaseSeconds (${s.lockoutBaseSeconds})`);
  }
  return s;
}
