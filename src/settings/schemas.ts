import { t, type TSchema } from "elysia";
import { Int } from "../http/schemas";
import type { SettingKey } from "../common/settings/rules";
import { SETTING_KEYS, SETTING_RULES, settingDescription } from "./rules";

/**
 * One setting's schema from its rule. Booleans are JSON booleans only (Elysia's t.Boolean in a
 * body refuses "true"); whole numbers are JSON numbers only (Int); lists are JSON arrays. The
 * service checks the same rules again (and what only it can: trimming, formats, control
 * characters, settings that depend on each other). String limits are loose here (spaces are
 * trimmed before the rule's length is counted); the service's message names the real one.
 */
function schemaOf(key: SettingKey): TSchema {
  const rule = SETTING_RULES[key];
  const description = settingDescription(key);
  switch (rule.kind) {
    case "boolean":
      return t.Boolean({ description });
    case "integer":
      return Int({ minimum: rule.minimum, maximum: rule.maximum, description });
    case "choice":
      return t.Union(
        rule.values.map((v) => t.Literal(v)),
        { description },
      );
    case "list":
      return t.Array(t.String({ maxLength: 300 }), { maxItems: rule.maxItems, description });
    case "secret":
      return t.Nullable(t.String({ maxLength: rule.maxLength }), { description });
    case "text":
      return t.String({ maxLength: rule.maxLength + 100, description });
  }
}

/** How GET answers a setting: a secret as `<key>Set`. */
function answerOf(key: SettingKey): [string, TSchema] {
  if (SETTING_RULES[key].kind === "secret")
    return [`${key}Set`, t.Boolean({ description: `Whether ${key} is stored (its value is never answered)` })];
  return [key, schemaOf(key)];
}

export const InstanceSettings = t.Object(Object.fromEntries(SETTING_KEYS.map(answerOf)), { title: "InstanceSettings" });

/** The settings to change: any of them, at least one. */
export const SettingsChange = t.Object(Object.fromEntries(SETTING_KEYS.map((k) => [k, t.Optional(schemaOf(k))])), {
  title: "SettingsChange",
});
