/**
 * WCAG 2.x contrast for the accent colour. The accent is used as text (links, the brand mark)
 * on the page and on the grey surfaces, and as the background of primary buttons under their
 * label, so each theme's accent must reach AA (4.5:1, normal text) against all of those.
 *
 * The colours it meets are the web UI's tokens (src/web/ui/tokens.css: --bg, --surface,
 * --accent-text); the server cannot import the web, so they are repeated here and a test
 * (contrast.test.ts) reads tokens.css and fails when the two differ.
 */

export type Theme = "light" | "dark";

/** WCAG 2.1 success criterion 1.4.3 (AA) for normal-size text. */
export const AA_RATIO = 4.5;

/** What the accent meets in each theme, by what a person would call it. */
export const ACCENT_COMPANIONS: Record<Theme, ReadonlyArray<{ against: string; colour: string }>> = {
  light: [
    { against: "page background", colour: "#ffffff" },
    { against: "surface", colour: "#f7f7f8" },
    { against: "button label", colour: "#ffffff" },
  ],
  dark: [
    { against: "page background", colour: "#16181b" },
    { against: "surface", colour: "#1d2024" },
    { against: "button label", colour: "#0f1a16" },
  ],
};

/** "#abc" or "#aabbcc" (any case) as "#aabbcc"; null for anything else. */
export function normaliseHex(value: string): string | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!m) return null;
  const hex = m[1].toLowerCase();
  return hex.length === 3 ? `#${[...hex].map((c) => c + c).join("")}` : `#${hex}`;
}

type Rgb = [number, number, number];

function rgbOf(hex: string): Rgb {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const hexOf = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;

/** Relative luminance (WCAG 2.1 definition, sRGB). */
export function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Rounded down to two decimals, so a ratio shown as 4.50 really is at least 4.5. */
const floor2 = (n: number) => Math.floor(n * 100) / 100;

export interface ContrastCheck {
  against: string;
  colour: string;
  ratio: number;
  passesAA: boolean;
}

export interface AccentVerdict {
  colour: string;
  checks: ContrastCheck[];
  passesAA: boolean;
  /** The colour itself when it passes; else the nearest of the same hue that does. */
  suggestion: string;
}

export function checkAccent(colour: string, theme: Theme): AccentVerdict {
  const checks = ACCENT_COMPANIONS[theme].map(({ against, colour: other }) => {
    const ratio = contrastRatio(colour, other);
    return { against, colour: other, ratio: floor2(ratio), passesAA: ratio >= AA_RATIO };
  });
  const passesAA = checks.every((c) => c.passesAA);
  return { colour, checks, passesAA, suggestion: passesAA ? colour : suggestAccent(colour, theme) };
}

const passes = (colour: string, theme: Theme) =>
  ACCENT_COMPANIONS[theme].every(({ colour: other }) => contrastRatio(colour, other) >= AA_RATIO);

/**
 * The passing colour nearest to `colour`: the same hue and saturation (HSL), with the lightness
 * moved as little as it must be, darker for the light theme (its companions are light) and
 * lighter for the dark one. Every sRGB channel grows with HSL lightness, so contrast against
 * each companion changes monotonically along the way and a bisection finds the boundary.
 */
export function suggestAccent(colour: string, theme: Theme): string {
  if (passes(colour, theme)) return colour;
  const [h, s, l] = hslOf(rgbOf(colour));
  const target = theme === "light" ? 0 : 1;
  // The far end (black or white at this hue) passes for every companion set of ours.
  let bad = l;
  let good = target;
  for (let i = 0; i < 30; i++) {
    const mid = (bad + good) / 2;
    if (passes(hexOf(rgbFromHsl(h, s, mid)), theme)) good = mid;
    else bad = mid;
  }
  // Rounding to whole channels may land just short: step on until it passes.
  let candidate = hexOf(rgbFromHsl(h, s, good));
  for (let step = 1; !passes(candidate, theme) && step <= 50; step++)
    candidate = hexOf(rgbFromHsl(h, s, good + (target - good) * (step / 50)));
  return candidate;
}

function hslOf([r8, g8, b8]: Rgb): [number, number, number] {
  const [r, g, b] = [r8 / 255, g8 / 255, b8 / 255];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [h / 6, s, l];
}

function rgbFromHsl(h: number, s: number, l: number): Rgb {
  if (s === 0) return [l * 255, l * 255, l * 255];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    if (t < 0) t += 1;
    if (t > 1) t -= 1;
    if (t < 1 / 6) return p + (q - p) * 6 * t;
    if (t < 1 / 2) return q;
    if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
    return p;
  };
  return [channel(h + 1 / 3) * 255, channel(h) * 255, channel(h - 1 / 3) * 255];
}
