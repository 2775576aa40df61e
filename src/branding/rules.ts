/**
 * What branding holds, its defaults, and the rule for each field. The service checks a change
 * with checkBranding (every field sent, all or nothing, 400 naming the field); the schemas
 * describe the same enums for OpenAPI.
 */
import { AppError, invalid } from "../platform/errors";
import { singleLine } from "../platform/text";
import { checkAccent, normaliseHex, type Theme } from "./contrast";
import { ACCENT_NAME_MAX, BRAND_NAME_MAX } from "../common/limits";

/** How the brand shows in the top bar (and the sign-in card): the name, the logo, or both. */
export const DISPLAYS = ["name", "logo", "logo-and-name"] as const;
/** The sign-in and register screens: one centred card, or a brand panel beside the form. */
export const SIGN_IN_ARRANGEMENTS = ["centered", "split"] as const;
/** "user": the system's theme with each person's switch; "light"/"dark": everyone gets that one. */
export const THEME_POLICIES = ["user", "light", "dark"] as const;
/** "default": Cairn's own accent; "custom": accentLight and accentDark. */
export const ACCENT_POLICIES = ["default", "custom"] as const;

export type Display = (typeof DISPLAYS)[number];
export type SignInArrangement = (typeof SIGN_IN_ARRANGEMENTS)[number];
export type ThemePolicy = (typeof THEME_POLICIES)[number];
export type AccentPolicy = (typeof ACCENT_POLICIES)[number];

export { ACCENT_NAME_MAX, BRAND_NAME_MAX };

/** Cairn's own accent (src/web/ui/tokens.css --accent-light / --accent-dark). */
export const DEFAULT_ACCENT = { light: "#2f6f5e", dark: "#7fc8b0" } as const;

export interface BrandingValues {
  /** Null: the instance's name is the brand name. */
  brandName: string | null;
  display: Display;
  signInArrangement: SignInArrangement;
  themePolicy: ThemePolicy;
  accentPolicy: AccentPolicy;
  accentName: string | null;
  accentLight: string;
  accentDark: string;
}

export const BRANDING_DEFAULTS: BrandingValues = {
  brandName: null,
  display: "name",
  signInArrangement: "centered",
  themePolicy: "user",
  accentPolicy: "default",
  accentName: null,
  accentLight: DEFAULT_ACCENT.light,
  accentDark: DEFAULT_ACCENT.dark,
};

export const BRANDING_FIELDS = Object.keys(BRANDING_DEFAULTS) as Array<keyof BrandingValues>;

function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value))
    throw invalid(field, `must be one of ${allowed.map((a) => `"${a}"`).join(", ")}`);
  return value as T;
}

/** A short single-line text, trimmed; null or "" (after trimming) clears it. */
function optionalText(field: string, value: unknown, max: number): string | null {
  if (value === null) return null;
  if (typeof value !== "string") throw invalid(field, "must be a string or null");
  const text = singleLine(field, value).trim();
  if (text.length > max) throw invalid(field, `must be at most ${max} characters`);
  return text === "" ? null : text;
}

/** A colour as #rrggbb that reaches WCAG AA where the accent is used in that theme. */
export function checkColour(field: string, value: unknown, theme: Theme): string {
  const hex = typeof value === "string" ? normaliseHex(value) : null;
  if (!hex) throw invalid(field, 'must be a colour written "#rrggbb" (or "#rgb")');
  const verdict = checkAccent(hex, theme);
  if (!verdict.passesAA) {
    const worst = verdict.checks.reduce((a, b) => (b.ratio < a.ratio ? b : a));
    throw new AppError("validation_failed", {
      field,
      detail:
        `${field}: ${hex} has a contrast of ${worst.ratio.toFixed(2)}:1 against the ${theme} theme's ` +
        `${worst.against}; WCAG AA needs 4.5:1. The nearest colour that passes is ${verdict.suggestion}.`,
      errors: { [field]: [`contrast ${worst.ratio.toFixed(2)}:1 against the ${worst.against} is below 4.5:1`] },
      extra: { suggestion: verdict.suggestion },
    });
  }
  return hex;
}

/** The values as they would be after `input`; throws on the first field that breaks its rule. */
export function checkBranding(current: BrandingValues, input: Record<string, unknown>): BrandingValues {
  const unknown = Object.keys(input).find((k) => !(BRANDING_FIELDS as string[]).includes(k));
  if (unknown) throw invalid(unknown, `is not a branding field (${BRANDING_FIELDS.join(", ")})`);
  if (Object.keys(input).length === 0)
    throw new AppError("validation_failed", { detail: `Send at least one field: ${BRANDING_FIELDS.join(", ")}.` });
  const next = { ...current };
  const has = (k: keyof BrandingValues) => Object.hasOwn(input, k);
  if (has("brandName")) next.brandName = optionalText("brandName", input.brandName, BRAND_NAME_MAX);
  if (has("display")) next.display = oneOf("display", input.display, DISPLAYS);
  if (has("signInArrangement")) next.signInArrangement = oneOf("signInArrangement", input.signInArrangement, SIGN_IN_ARRANGEMENTS);
  if (has("themePolicy")) next.themePolicy = oneOf("themePolicy", input.themePolicy, THEME_POLICIES);
  if (has("accentPolicy")) next.accentPolicy = oneOf("accentPolicy", input.accentPolicy, ACCENT_POLICIES);
  if (has("accentName")) next.accentName = optionalText("accentName", input.accentName, ACCENT_NAME_MAX);
  if (has("accentLight")) next.accentLight = checkColour("accentLight", input.accentLight, "light");
  if (has("accentDark")) next.accentDark = checkColour("accentDark", input.accentDark, "dark");
  return next;
}

/** A stored row's values, each field that breaks its rule (edited by hand) back to its default. */
export function valuesOfRow(row: Record<string, unknown> | undefined): BrandingValues {
  if (!row) return { ...BRANDING_DEFAULTS };
  const values = { ...BRANDING_DEFAULTS };
  for (const field of BRANDING_FIELDS) {
    try {
      Object.assign(values, checkBranding(values, { [field]: row[field] }));
    } catch {
      // The default stands.
    }
  }
  return values;
}

/** The accent the UI uses: the custom pair, or Cairn's own. */
export function effectiveAccent(v: BrandingValues): { light: string; dark: string } {
  return v.accentPolicy === "custom" ? { light: v.accentLight, dark: v.accentDark } : { ...DEFAULT_ACCENT };
}
