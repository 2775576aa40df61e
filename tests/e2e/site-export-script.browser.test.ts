/**
 * The static site export put where it is meant to go: a plain static host (Bun.serve handing
 * out the unpacked files, the type from the extension, no headers of ours), opened in Chromium.
 * Uploaded SVG, HTML, XML, JavaScript and HTML under a .csv name each try to run script that
 * sets window.PWNED and calls /pwned/… on the host: opened inside a page or on their own, none
 * runs, while the site's own tree and search still work under its Content-Security-Policy and
 * the page reports no violation. A control file served live shows the watch would see it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { makeEnv, type TestEnv } from "../harness";
import { DEEP_WORD, HOSTILE, hostileFiles, siteExport, siteFixture } from "../../src/exports/site-testing";

let env: TestEnv;
let browser: Browser;
let dir: string;
let host: ReturnType<typeof Bun.serve>;
/** Requests that reached /pwned/…: script of an attachment ran. */
const pwned: string[] = [];
const violations: string[] = [];
const errors: string[] = [];

beforeAll(async () => {
  env = makeEnv();
  const f = await siteFixture(env);
  await hostileFiles(env, f);
  const site = await siteExport(env, f.owner, "DOCS");
  if (site.res.status !== 200) throw new Error(`export: ${site.res.status}`);
  dir = mkdtempSync(join(tmpdir(), "cairn-site-host-"));
  for (const [path, bytes] of site.files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), bytes);
  }
  // The control: what the export used to write, an uploaded HTML file served live.
  writeFileSync(join(dir, "control.html"), HOSTILE.html);
  host = Bun.serve({
    port: 0,
    async fetch(req) {
      const path = decodeURIComponent(new URL(req.url).pathname);
      if (path.startsWith("/pwned/")) {
        pwned.push(path);
        return new Response(null, { status: 204 });
      }
      const file = Bun.file(join(dir, normalize(path.endsWith("/") ? `${path}index.html` : path)));
      // As a static host does: the body with the type its extension maps to, nothing else.
      return (await file.exists())
        ? new Response(file, { headers: { "content-type": file.type } })
        : new Response("not found", { status: 404 });
    },
  });
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
  host?.stop(true);
  env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const at = (path: string) => `http://127.0.0.1:${host.port}/${path.split("/").map(encodeURIComponent).join("/")}`;

async function open(path: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    // A 404 is told by the response below, with its address.
    else if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) errors.push(m.text());
  });
  page.on("response", (r) => {
    // The browser asks every host for a favicon; the control's own broken image is its bait.
    const path = new URL(r.url()).pathname;
    if (r.status() >= 400 && path !== "/favicon.ico" && path !== "/x") errors.push(`${r.status()} ${path}`);
  });
  const res = await page.goto(at(path));
  if (res?.status() !== 200) throw new Error(`${path}: ${res?.status()}`);
  return { context, page };
}

/** window.PWNED in the document shown, once anything it loads has had time to run. */
async function settled(page: Page): Promise<unknown> {
  await page.waitForLoadState("load");
  await page.waitForTimeout(300);
  return page.evaluate(() => (window as unknown as { PWNED?: unknown }).PWNED ?? null);
}

describe("the static site on a static host", () => {
  test("the control: an HTML file served live runs its script, and the watch sees it", async () => {
    const { context, page } = await open("control.html");
    expect(await settled(page)).toBe("html");
    await context.close();
    expect(pwned).toContain("/pwned/html");
    pwned.length = 0;
  });

  test("the page with the files: the SVG shows as an image, nothing runs, the links download by name", async () => {
    const { context, page } = await open("getting-started/files/index.html");
    const image = page.locator("main img");
    await image.waitFor();
    await page.waitForFunction(() => document.querySelector<HTMLImageElement>("main img")?.complete);
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(40);
    expect(await settled(page)).toBeNull();
    const report = page.getByRole("link", { name: "report.html", exact: true });
    expect(await report.getAttribute("download")).toBe("report.html");
    const [download] = await Promise.all([page.waitForEvent("download"), report.click()]);
    expect(download.suggestedFilename()).toBe("report.html");
    expect(await Bun.file((await download.path())!).text()).toBe(HOSTILE.html);
    await context.close();
  });

  test("each file opened on its own, by the page's links: the SVG is the sanitised image, the rest plain text; none runs", async () => {
    const { context, page } = await open("getting-started/files/index.html");
    const links = await page
      .locator('main [data-type="attachment"] a')
      .evaluateAll((as) => as.map((a) => [a.textContent!, (a as HTMLAnchorElement).href]));
    expect(links.map(([name]) => name).sort()).toEqual(["broken.svg", "feed.xml", "logo.svg", "report.html", "table.csv", "tool.js"]);
    for (const [name, href] of links) {
      const res = await page.goto(href!);
      expect([name, res?.status()]).toEqual([name, 200]);
      expect([name, await settled(page)]).toEqual([name, null]);
      expect([name, await page.evaluate(() => document.contentType)]).toEqual([name, name === "logo.svg" ? "image/svg+xml" : "text/plain"]);
      // The sanitised SVG still draws its shape.
      if (name === "logo.svg") expect(await page.locator("rect").count()).toBe(1);
    }
    await context.close();
  });

  test("the site's own tree and search work under its CSP", async () => {
    const { context, page } = await open("index.html");
    const tree = page.getByRole("navigation", { name: "Pages" });
    await tree.getByRole("button", { name: "Expand Getting started" }).click();
    await tree.getByRole("link", { name: "Files" }).click();
    await page.getByRole("heading", { level: 1, name: "Files" }).waitFor();
    await page.getByRole("searchbox", { name: "Search this space" }).fill(DEEP_WORD.slice(0, 7));
    const hit = page.locator(".site-search-results").getByRole("link", { name: /Linux setup/ });
    await hit.click();
    await page.getByRole("heading", { level: 1, name: "Linux setup" }).waitFor();
    await context.close();
  });

  test("no attachment's script reached the host, no CSP violation, no page threw", () => {
    expect(pwned).toEqual([]);
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
  });
});
