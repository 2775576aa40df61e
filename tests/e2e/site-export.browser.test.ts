/**
 * The static site export opened the way people open it: the zip unpacked into a folder and its
 * index.html loaded from file:// in Chromium, no server anywhere. The sidebar tree leads to a
 * deep page, links inside the content work, the search finds a word only a deep page has and
 * opens it, light and dark follow the system, and no request leaves file://. The export comes
 * from a real app on a real database in this process (tests/harness.ts); the browser is our own
 * small instance, since nothing here needs the built server.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { makeEnv, type TestEnv } from "../harness";
import { DEEP_WORD, siteExport, siteFixture } from "../../src/exports/site-testing";
import { axeViolations, checkLooks } from "./harness";

let env: TestEnv;
let browser: Browser;
let dir: string;
const offFile: string[] = [];
const errors: string[] = [];
// axe-core reads the stylesheets with XMLHttpRequest, which file:// refuses: its complaints are not the site's.
let auditing = false;

beforeAll(async () => {
  env = makeEnv();
  const f = await siteFixture(env);
  const site = await siteExport(env, f.owner, "DOCS");
  if (site.res.status !== 200) throw new Error(`export: ${site.res.status}`);
  dir = mkdtempSync(join(tmpdir(), "cairn-site-"));
  for (const [path, bytes] of site.files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), bytes);
  }
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
});
afterAll(async () => {
  await browser?.close();
  env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const url = (path: string) => pathToFileURL(join(dir, path)).href;

async function open(
  path: string,
  opts: { width?: number; theme?: "light" | "dark" } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: 800 }, colorScheme: opts.theme ?? "light" });
  const page = await context.newPage();
  page.on("request", (r) => {
    if (!r.url().startsWith("file://")) offFile.push(r.url());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error" && !auditing) errors.push(m.text());
  });
  await page.goto(url(path));
  return { context, page };
}

const bodyColour = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

describe("the static site, opened from disk", () => {
  test("the sidebar tree leads to a deep page, which it marks as the current one", async () => {
    const { context, page } = await open("index.html");
    const tree = page.getByRole("navigation", { name: "Pages" });
    await tree.getByRole("link", { name: "Getting started" }).waitFor();
    await tree.getByRole("button", { name: "Expand Getting started" }).click();
    await tree.getByRole("button", { name: "Expand Install" }).click();
    await tree.getByRole("link", { name: "Linux setup" }).click();
    await page.getByRole("heading", { level: 1, name: "Linux setup" }).waitFor();
    expect(page.url()).toBe(url("getting-started/install/linux-setup/index.html"));
    // The tree is drawn on this page too, open down to it, the page marked.
    const current = page.getByRole("navigation", { name: "Pages" }).locator('[aria-current="page"]');
    expect(await current.textContent()).toBe("Linux setup");
    // The tree is drawn by the page's script: wait for its second "Notes" before counting.
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Notes" }).nth(1).waitFor();
    expect(await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Notes" }).count()).toBe(2);
    // A folder named in other letters than ASCII opens as well.
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Résumé 管理" }).click();
    await page.getByRole("heading", { level: 1, name: "Résumé 管理" }).waitFor();
    expect(decodeURIComponent(page.url())).toBe(decodeURIComponent(url("getting-started/install/linux-setup/resume-管理/index.html")));
    await page.goBack();
    await page.getByRole("heading", { level: 1, name: "Linux setup" }).waitFor();
    auditing = true;
    expect(await axeViolations(page)).toEqual([]);
    auditing = false;
    await context.close();
  });

  test("links inside the content and the breadcrumbs work; the image and the file are there", async () => {
    const { context, page } = await open("getting-started/install/index.html");
    const image = page.locator("main img");
    await image.waitFor();
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    const file = page.getByRole("link", { name: "data: sheet.csv" });
    expect(await file.getAttribute("href")).toMatch(/^\.\.\/\.\.\/_files\/[0-9a-f]{64}\/data_%20sheet\.csv$/);
    await page.getByRole("link", { name: "the Linux steps" }).click();
    await page.getByRole("heading", { level: 1, name: "Linux setup" }).waitFor();
    expect(page.url()).toBe(`${url("getting-started/install/linux-setup/index.html")}#steps`);
    await page.getByRole("navigation", { name: "Breadcrumbs" }).getByRole("link", { name: "Team Docs" }).click();
    await page.getByRole("heading", { level: 1, name: "Team Docs" }).waitFor();
    await context.close();
  });

  test("the search finds a word only a deep page has, and its result opens it", async () => {
    const { context, page } = await open("getting-started/notes-2/index.html");
    const box = page.getByRole("searchbox", { name: "Search this space" });
    await box.fill(DEEP_WORD.slice(0, 7));
    const hit = page.locator(".site-search-results").getByRole("link", { name: /Linux setup/ });
    await hit.waitFor();
    expect(await hit.textContent()).toContain("Getting started / Install");
    expect(await page.locator(".site-search-results a").count()).toBe(1);
    await hit.click();
    await page.getByRole("heading", { level: 1, name: "Linux setup" }).waitFor();
    // Enter opens the first result; words of titles are found too.
    const again = page.getByRole("searchbox", { name: "Search this space" });
    await again.fill("welcome");
    await page
      .locator(".site-search-results")
      .getByRole("link", { name: /Getting started/ })
      .waitFor();
    await again.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Getting started" }).waitFor();
    await context.close();
  });

  test("light and dark follow the system, at 375 and 1280 wide; on a phone the pages are a drawer", async () => {
    const { context, page } = await open("getting-started/install/index.html");
    await page.getByRole("heading", { level: 1, name: "Install" }).waitFor();
    // Each look set in place: the site's colours are CSS that follows the system as it changes.
    const asTheLookSays = async () => {
      const dark = await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches);
      expect(await bodyColour(page)).toBe(dark ? "rgb(22, 24, 27)" : "rgb(255, 255, 255)");
      expect(await page.locator(".sidebar").isVisible()).toBe(page.viewportSize()!.width === 1280);
    };
    auditing = true;
    expect(await checkLooks(page, "site-export-page", asTheLookSays)).toEqual({});
    auditing = false;
    await page.setViewportSize({ width: 375, height: 800 });
    await page.locator(".drawer-button").click();
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Linux setup" }).click();
    await page.getByRole("heading", { level: 1, name: "Linux setup" }).waitFor();
    await context.close();
  }, 30_000);

  test("no request left file://, and no page threw", () => {
    expect(offFile).toEqual([]);
    expect(errors).toEqual([]);
  });
});
