/**
 * WCAG contrast: the ratios themselves, the companions each theme's accent meets (kept equal to
 * the web UI's tokens), and the suggestion: passing, same hue, and as near as it can be.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ACCENT_COMPANIONS, checkAccent, contrastRatio, normaliseHex, suggestAccent } from "./contrast";
import { DEFAULT_ACCENT } from "./rules";

describe("contrast ratio (WCAG 2.1)", () => {
  test.each([
    ["#000000", "#ffffff", 21],
    ["#ffffff", "#ffffff", 1],
    ["#777777", "#ffffff", 4.48],
    ["#767676", "#ffffff", 4.54],
    ["#0000ff", "#ffffff", 8.59],
  ])("%s on %s is %d:1", (a, b, ratio) => {
    expect(contrastRatio(a, b)).toBeCloseTo(ratio, 2);
    expect(contrastRatio(b, a)).toBeCloseTo(ratio, 2);
  });

  test.each([
    ["#ABC", "#aabbcc"],
    [" #2F6F5E ", "#2f6f5e"],
    ["2f6f5e", null],
    ["#2f6f5", null],
    ["#ggg", null],
    ["red", null],
    ["rgb(0,0,0)", null],
  ] as Array<[string, string | null]>)("normaliseHex(%p) is %p", (input, out) => {
    expect(normaliseHex(input)).toBe(out);
  });
});

test(
  "the companions are the web UI's tokens (src/web/ui/tokens.css and the reading " +
    "ones in src/content/reading-theme.css), theme by theme",
  () => {
    const css = ["../content/reading-theme.css", "../web/ui/tokens.css"]
      .map((f) => readFileSync(join(import.meta.dir, f), "utf8"))
      .join("\n");
    // Every block of the theme's selector, in both files.
    const block = (selector: string) =>
      css
        .split(selector)
        .slice(1)
        .map((rest) => rest.slice(0, rest.indexOf("}")))
        .join("\n");
    const token = (text: string, name: string) => new RegExp(`--${name}:\\s*(#[0-9a-f]{6})`, "i").exec(text)?.[1]?.toLowerCase();
    for (const [theme, selector] of [
      ["light", ':root, :root[data-theme="light"]'],
      ["dark", ':root[data-theme="dark"]'],
    ] as const) {
      const b = block(selector);
      expect(ACCENT_COMPANIONS[theme].map((c): string | undefined => c.colour)).toEqual([
        token(b, "bg"),
        token(b, "surface"),
        token(b, "accent-text"),
      ]);
    }
    expect(token(css, "accent-light")).toBe(DEFAULT_ACCENT.light);
    expect(token(css, "accent-dark")).toBe(DEFAULT_ACCENT.dark);
  },
);

describe("checkAccent", () => {
  test("Cairn's own accents pass AA in their themes", () => {
    expect(checkAccent(DEFAULT_ACCENT.light, "light").passesAA).toBe(true);
    expect(checkAccent(DEFAULT_ACCENT.dark, "dark").passesAA).toBe(true);
  });

  test("each check names what the colour meets, its ratio (rounded down) and the verdict", () => {
    const v = checkAccent("#767676", "light");
    expect(v.checks).toEqual([
      { against: "page background", colour: "#ffffff", ratio: 4.54, passesAA: true },
      { against: "surface", colour: "#f7f7f8", ratio: 4.24, passesAA: false },
      { against: "button label", colour: "#ffffff", ratio: 4.54, passesAA: true },
    ]);
    expect(v.passesAA).toBe(false);
    expect(v.suggestion).not.toBe("#767676");
  });

  test("a passing colour is its own suggestion", () => {
    expect(checkAccent("#1d4ed8", "light").suggestion).toBe("#1d4ed8");
  });
});

describe("suggestAccent", () => {
  const hue = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255);
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    const d = max - min;
    const h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
    return (h * 60) % 360;
  };

  test.each([
    ["a bright yellow", "#ffcc00", "light"],
    ["a light teal", "#7fc8b0", "light"],
    ["a pale pink", "#f9a8d4", "light"],
    ["a navy", "#1a237e", "dark"],
    ["Cairn's light teal in the dark theme", "#2f6f5e", "dark"],
    ["a dark red", "#7f1d1d", "dark"],
  ] as const)("%s (%s) in %s: passes, keeps its hue, and is as near as can be", (_name, colour, theme) => {
    const s = suggestAccent(colour, theme);
    expect(checkAccent(s, theme).passesAA).toBe(true);
    expect(Math.abs(hue(s) - hue(colour))).toBeLessThan(4);
    // One step nearer the original would fail: the worst ratio sits just above 4.5.
    const worst = Math.min(...ACCENT_COMPANIONS[theme].map((c) => contrastRatio(s, c.colour)));
    expect(worst).toBeGreaterThanOrEqual(4.5);
    expect(worst).toBeLessThan(4.8);
  });

  test("greys stay grey; white in light becomes a grey that passes, black in dark too", () => {
    const light = suggestAccent("#ffffff", "light");
    expect(light.slice(1, 3)).toBe(light.slice(3, 5));
    expect(checkAccent(light, "light").passesAA).toBe(true);
    expect(checkAccent(suggestAccent("#000000", "dark"), "dark").passesAA).toBe(true);
  });
});
