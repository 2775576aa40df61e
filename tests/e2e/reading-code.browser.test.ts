/**
 * Code blocks in the reading view keep the editor's syntax colours, and the highlighter comes
 * only with a page that has code: a page without code downloads no more JavaScript than before,
 * and a cold view of a page with code stays within the reading view's budget (the bench's
 * READING_JS_TARGET_KB, scripts/bench/web.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Locator, Page } from "playwright-core";
import { READING_JS_TARGET_KB } from "../../scripts/bench/web";
import { checkLooks, visit, type Visit } from "./harness";
import { api, docJson, newSpace, ownerWorld, para, type World } from "./fixtures";

let world: World;
let withCode: string;
let withoutCode: string;
const SCRIPT =
  '#!/bin/sh\n# Build and ship\nset -e\nif [ -n "$CI" ]; then\n  echo "building on CI"\nfi\nbun run build --target=bun-linux-arm64\nexit 0';
const TS = "export function greet(name: string): string {\n  return `Hello, ${name}`; // a comment\n}\nconst answer = 42;";

beforeAll(async () => {
  world = await ownerWorld();
  const space = await newSpace(world.owner.page, "CODE", "Code");
  const { page } = world.owner;
  withCode = (
    await api(page, "POST", "/api/pages", {
      spaceId: space.id,
      title: "Build script",
      contentJson: docJson(
        para("The release is built by this script:"),
        { type: "codeBlock", attrs: { language: "bash" }, content: [{ type: "text", text: SCRIPT }] },
        para("And greeted by this function:"),
        { type: "codeBlock", attrs: { language: "typescript" }, content: [{ type: "text", text: TS }] },
        { type: "codeBlock", attrs: { language: null }, content: [{ type: "text", text: "plain text, no colours" }] },
      ),
    })
  ).id;
  withoutCode = (
    await api(page, "POST", "/api/pages", { spaceId: space.id, title: "Prose only", contentJson: docJson(para("Only words here.")) })
  ).id;
}, 60_000);
afterAll(async () => world?.close());

/** The JavaScript files a cold view of a page downloaded (name and gzip bytes as sent). */
async function coldScripts(page: Page, path: string, title: string) {
  await page.goto(path);
  await page.locator("main h1", { hasText: title }).waitFor();
  await page.waitForLoadState("networkidle");
  // What every view loads after its first paint (menus and dialogs, the toaster, the page's
  // panel when the browser is idle) is in both lists, whichever view it came late in.
  await page.waitForFunction(() =>
    ["/overlays-radix-", "/Toaster-", "/PagePanel-"].every((n) => performance.getEntriesByType("resource").some((r) => r.name.includes(n))),
  );
  await page.waitForLoadState("networkidle");
  return page.evaluate(() =>
    (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
      .filter((r) => new URL(r.name).pathname.endsWith(".js"))
      .map((r) => ({ name: new URL(r.name).pathname, bytes: r.encodedBodySize })),
  );
}

describe("code in the reading view", () => {
  test("the highlighter loads with the first page that has code, within the reading budget", async () => {
    const plain = await visit(world.cairn, { storageState: world.storage });
    const coded = await visit(world.cairn, { storageState: world.storage });
    try {
      const without = await coldScripts(plain.page, `/s/CODE/p/${withoutCode}`, "Prose only");
      const withIt = await coldScripts(coded.page, `/s/CODE/p/${withCode}`, "Build script");
      await coded.page.locator("main pre .hljs-keyword").first().waitFor();
      const extra = withIt.filter((f) => !without.some((g) => g.name === f.name));
      // One chunk more: the highlighter; and neither view loaded the editor.
      // Only more: the highlighter (lowlight and its languages, ~24 KB gzip, with its stub chunk).
      expect(without.every((f) => withIt.some((g) => g.name === f.name))).toBe(true);
      const extraKb = extra.reduce((n, f) => n + f.bytes, 0) / 1024;
      expect(extraKb).toBeGreaterThan(10);
      expect(extraKb).toBeLessThan(40);
      for (const files of [without, withIt]) expect(files.some((f) => /EditSession/.test(f.name))).toBe(false);
      const kb = withIt.reduce((n, f) => n + f.bytes, 0) / 1024;
      expect(kb).toBeLessThanOrEqual(READING_JS_TARGET_KB);
      console.log(
        `reading view JS: ${(without.reduce((n, f) => n + f.bytes, 0) / 1024).toFixed(1)} KB without ` +
          `code, ${kb.toFixed(1)} KB with code (highlighter ${extraKb.toFixed(1)} KB)`,
      );
    } finally {
      await plain.close();
      await coded.close();
    }
  }, 60_000);
});

// The page with code is loaded once; each claim is a test of its own on it, so a failure names it,
// and the last takes the screen through the four looks.
describe("code colours in the reading view", () => {
  let v: Visit;
  let bash: Locator;
  beforeAll(async () => {
    v = await visit(world.cairn, { storageState: world.storage });
    await v.page.goto(`/s/CODE/p/${withCode}`);
    bash = v.page.locator("main pre[data-language=bash]");
    await bash.locator(".hljs-keyword").first().waitFor();
  }, 30_000);
  afterAll(async () => v?.close());

  test("a bash block shows the same text as stored, coloured", async () => {
    expect(await bash.locator("code").textContent()).toBe(SCRIPT);
  }, 30_000);

  test("a TypeScript block colours keywords, strings, comments and numbers", async () => {
    const ts = v.page.locator("main pre[data-language=typescript]");
    for (const cls of ["hljs-keyword", "hljs-string", "hljs-comment", "hljs-number"])
      expect(await ts.locator(`.${cls}`).count()).toBeGreaterThan(0);
  }, 30_000);

  test("a block without a language has no colours", async () => {
    expect(await v.page.locator("main pre:not([data-language]) span").count()).toBe(0);
  }, 30_000);

  test("in the four looks, keywords differ from the block's own colour (reading-code)", async () => {
    // In each look (the colours are the theme's), keywords differ from the block's own colour.
    const keywordsStandOut = async () => {
      const colours = await bash.evaluate((pre) => ({
        text: getComputedStyle(pre.querySelector("code")!).color,
        keyword: getComputedStyle(pre.querySelector(".hljs-keyword")!).color,
      }));
      expect(colours.keyword).not.toBe(colours.text);
      await bash.scrollIntoViewIfNeeded();
    };
    expect(await checkLooks(v.page, "reading-code", keywordsStandOut)).toEqual({});
    expect(v.errors).toEqual([]);
  }, 60_000);
});
