/**
 * The settings screen is made from the catalogue (src/common/settings): every setting sits on
 * exactly one card, and each field carries its rule's range, length and right, not numbers of
 * its own.
 */
import { expect, test } from "bun:test";
import { SETTING_CARDS, settingField } from "../common/settings/form";
import { SETTING_KEYS, SETTING_RULES } from "../common/settings/rules";

test("every setting is on exactly one card of the screen", () => {
  const placed = SETTING_CARDS.flatMap((c) => c.keys);
  expect([...placed].sort()).toEqual([...SETTING_KEYS].sort());
  expect(new Set(placed).size).toBe(placed.length);
});

test("each field takes its range, length, choices and right from its rule", () => {
  for (const key of SETTING_KEYS) {
    const rule = SETTING_RULES[key];
    const field = settingField(key);
    expect(field.right).toBe(rule.right);
    expect(field.help).not.toMatch(/\{(range|items)\}/);
    if (rule.kind === "integer") expect([field.kind, field.min, field.max]).toEqual(["number", rule.minimum, rule.maximum]);
    if (rule.kind === "text" || rule.kind === "secret") expect(field.maxLength).toBe(rule.maxLength);
    if (rule.kind === "choice") expect(field.choices!.map(([v]) => v)).toEqual([...rule.values]);
  }
  expect(settingField("lockoutMaxSeconds").help).toBe("At least the first lock. 1 to 604,800 (a week).");
  expect(settingField("instanceName").help).toBe("Shown in the header and on the sign-in screen. 1 to 100 characters.");
  expect(settingField("baseUrl").kind).toBe("url");
  expect(settingField("trustedProxies").help).toContain("at most 50:");
});
