/**
 * The API reference in a real browser: the real server on a free port, Debian's Chromium through
 * playwright-core (tests/needs-chromium makes CI install it). It must render from our own origin
 * alone, under our CSP.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { loadConfig } from "../src/platform/config";
import { startServer, type RunningServer } from "../src/server";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

let dir: string;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cairn-docs-"));
  server = startServer(loadConfig(["--data", dir, "--host", "127.0.0.1", "--port", "0"], {}));
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("GET /api/docs renders the reference from this server alone", async () => {
  const page = await browser.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  // A CSP violation (blocked script, style, font or fetch) is reported as a console error.
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));

  await page.goto(`${server.url}/api/docs`);
  // The introduction shows a worked curl example, not an empty "Client Libraries" card.
  await page.getByText("A first call.").first().waitFor({ state: "visible", timeout: 10_000 });
  await expect(page.locator("pre", { hasText: "$WIKI/api/auth/me" }).first().isVisible()).resolves.toBe(true);
  expect(
    await page
      .locator(".scalar-reference-intro-clients")
      .evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).length),
  ).toBe(0);
  // Scalar opens the first tag only; open Auth from the sidebar as a reader would.
  await page.getByText("Auth", { exact: true }).first().click({ timeout: 10_000 });
  await page.getByText("Sign in with e-mail and password").first().waitFor({ state: "visible", timeout: 5_000 });

  const origin = new URL(server.url).origin;
  expect(requests).toContain(`${origin}/api/openapi.json`);
  expect(requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith("data:"))).toEqual([]);
  expect(errors).toEqual([]);
  await page.close();
}, 20_000);
