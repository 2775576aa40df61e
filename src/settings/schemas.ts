import { t, type TSchema } from "elysia";
import { Int } from "../http/schemas";
import { SETTING_DEFAULTS, type SettingKey } from "./defaults";
import { SETTING_RULES, settingDescription } from "./rules";

const KEYS = Object.keys(SETTING_DEFAULTS) as SettingKey[];

/**
 * One setting's schema from its rule. Booleans are JSON booleans only (Elysia's t.Boolean in a
 * body refuses "true"); whole numbers are JSON numbers only (Int). The service checks the same
 * rules again (and what only it can: trimming, control characters, settings that depend on
 * each other).
 */
function schemaOf(key: SettingKey): TSchema {
  const rule = SETTING_RULES[key];
  const description = settingDescription(key);
  if (rule.kind === "boolean") return t.Boolean({ description });
  if (rule.kind === "integer") return Int({ minimum: rule.minimum, maximum: rule.maximum, description });
  return t.String({ maxLength: rule.maxLength, description });
}

export const InstanceSettings = t.Object(Object.fromEntries(KEYS.map((k) => [k, schemaOf(k)])), { title: "InstanceSettings" });

/** The settings to change: any of them, at least one. */
export const SettingsChange = t.Object(Object.fromEntries(KEYS.map((k) => [k, t.Optional(schemaOf(k))])), { title: "SettingsChange" });
