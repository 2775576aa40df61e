/**
 * Browser tests of the web UI: the built binary (built once per test run) on a free port with a
 * fresh data directory, driven by Debian's Chromium through playwright-core. One browser per
 * test process (the suite runs several); each test file opens its own contexts. Every context
 * fails the test on any request to another host, and on any error the page throws.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { build } from "../../scripts/build";

export const ROOT = join(import.meta.dir, "..", "..");
export const SCREENSHOTS = join(ROOT, ".bench", "screenshots");
export const PASSWORD = "correct horse battery staple";
// --host-resolver-rules: no host but the loopback server resolves, so a request to any other
// host fails in the browser (visit() records it).
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
];

let binary: Promise<string> | null = null;
/**
 * The binary, built from this checkout once per run: by scripts/test.ts before the browser files
 * start (they run in several processes), which hands its path over in CAIRN_E2E_BINARY; or here,
 * when a browser file runs alone, into dist/e2e-<pid>/ (about two seconds), so runs side by side
 * never overwrite each other's build.
 */
export function builtBinary(): Promise<string> {
  const given = process.env.CAIRN_E2E_BINARY;
  if (!binary && given && existsSync(given)) binary = Promise.resolve(given);
  if (!binary) {
    removeStaleBuilds();
    const distDir = join(ROOT, "dist", `e2e-${process.pid}`);
    process.on("exit", () => rmSync(distDir, { recursive: true, force: true }));
    binary = build({ quiet: true, distDir }).then((r) => r.outfile);
  }
  return binary;
}

/** Builds of runs that have ended (bun does not always run exit handlers) are removed. */
function removeStaleBuilds(): void {
  const dist = join(ROOT, "dist");
  if (!existsSync(dist)) return;
  for (const name of readdirSync(dist)) {
    const pid = Number(/^e2e-(\d+)$/.exec(name)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      rmSync(join(dist, name), { recursive: true, force: true });
    }
  }
}

let browserPromise: Promise<Browser> | null = null;
export function sharedBrowser(): Promise<Browser> {
  browserPromise ??= chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  return browserPromise;
}

/**
 * A context on the process's browser. A test that times out has bun kill the browser (the next
 * test can start before playwright notices); then another is launched, so one slow test fails
 * alone instead of every browser test after it in the same process.
 */
async function newContext(options: Parameters<Browser["newContext"]>[0]): Promise<BrowserContext> {
  const browser = await sharedBrowser();
  try {
    return await browser.newContext(options);
  } catch (e) {
    if (!/has been closed/.test(String(e))) throw e;
    if (browserPromise && (await browserPromise) === browser) browserPromise = null;
    return (await sharedBrowser()).newContext(options);
  }
}

// A failed test must not leave a server behind (it would hold the runner's output open).
const running = new Set<Bun.Subprocess>();
process.on("exit", () => {
  for (const proc of running) proc.kill("SIGKILL");
});

export interface RunningCairn {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * The built binary serving a fresh data directory on a free port. `env` adds variables to its
 * environment (Bun.spawn does not see changes made to process.env while the tests run).
 */
export async function startCairn(args: string[] = [], env?: Record<string, string>): Promise<RunningCairn> {
  const bin = await builtBinary();
  const dataDir = mkdtempSync(join(tmpdir(), "cairn-e2e-"));
  const proc = Bun.spawn([bin, "serve", "--data", dataDir, "--port", "0", ...args], {
    stdout: "pipe",
    stderr: "ignore",
    env: env ? { ...process.env, ...env } : undefined,
  });
  running.add(proc);
  const reader = proc.stdout.getReader();
  let out = "";
  while (!/"msg":"listening"/.test(out)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`cairn exited before listening: ${out}`);
    out += new TextDecoder().decode(value);
  }
  // Keep draining its log so the process never blocks on a full pipe.
  void (async () => {
    for (;;) if ((await reader.read()).done) return;
  })();
  const url = JSON.parse(out.split("\n").find((l) => l.includes('"listening"'))!).url as string;
  return {
    url,
    dataDir,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      running.delete(proc);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ContextOptions {
  width?: 375 | 1280;
  theme?: "light" | "dark";
  storageState?: Awaited<ReturnType<BrowserContext["storageState"]>>;
}

export interface Visit {
  context: BrowserContext;
  page: Page;
  /** Requests that tried to leave the server (each was refused). */
  foreign: string[];
  /** Errors thrown in the page. */
  errors: string[];
  close(): Promise<void>;
}

/** A new browser context on Cairn: requests to any other host are refused and recorded. */
export async function visit(cairn: RunningCairn, opts: ContextOptions = {}): Promise<Visit> {
  const width = opts.width ?? 1280;
  const context = await newContext({
    viewport: { width, height: 900 },
    colorScheme: opts.theme ?? "light",
    reducedMotion: "reduce",
    baseURL: cairn.url,
    storageState: opts.storageState,
  });
  // A step that cannot happen fails in 10 s with its own message, well before the test's
  // timeout (which would kill the shared browser for every test after it).
  context.setDefaultTimeout(10_000);
  const origin = new URL(cairn.url).origin;
  const foreign: string[] = [];
  const errors: string[] = [];
  // Refused by the browser itself (CHROMIUM_ARGS' host rules: no other name resolves) and
  // recorded here. Not context.route: intercepting every request sends each through the test
  // process and back, a cost paid by every asset of every page load of the suite.
  context.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith("data:") && !url.startsWith("blob:")) foreign.push(url);
  });
  const page = await context.newPage();
  page.on("pageerror", (e) => errors.push(e.message));
  return { context, page, foreign, errors, close: () => context.close() };
}

/** POST/PUT as the browser's session would (the CSRF header included). */
export async function apiCall(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    { method, path, body },
  );
}

/**
 * Waits until the app has replaced the frame the server painted (src/http/ui-frame.ts): a page
 * view arrives with its text, so text on screen does not mean the app's keyboard shortcuts are
 * listening yet.
 */
export async function appStarted(page: Page): Promise<void> {
  await page.locator("#root > .boot-frame").waitFor({ state: "detached" });
}

/** Registers the owner through the API (first account) and leaves the page signed in. */
export async function createOwner(page: Page, email = "owner@example.com", displayName = "Olive Owner"): Promise<void> {
  await page.goto("/api/health");
  const res = await apiCall(page, "POST", "/api/auth/register", { email, displayName, password: PASSWORD });
  if (res.status !== 201 && res.status !== 200) throw new Error(`register: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto("/api/health");
  const res = await apiCall(page, "POST", "/api/auth/login", { email, password });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${JSON.stringify(res.body)}`);
}

const AXE_SOURCE = readFileSync(join(ROOT, "node_modules", "axe-core", "axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/**
 * axe-core's WCAG 2.x A/AA rules on the page as it is now (overlays included). Evaluated
 * through the DevTools protocol, which the page's CSP does not govern. Answers the serious
 * and critical violations.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Once per document: axe-core is half a megabyte to evaluate.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (window as any).axe;
    const r = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] } });
    return r.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n: any) => n.target.join(" ")),
    }));
  });
  return (result as AxeViolation[]).filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** Saves a screenshot to .bench/screenshots/<name>-<theme>-<width>.png (git-ignored). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const dark = await page.evaluate(
    () =>
      document.documentElement.getAttribute("data-theme") === "dark" ||
      (!document.documentElement.getAttribute("data-theme") && matchMedia("(prefers-color-scheme: dark)").matches),
  );
  await page.screenshot({
    path: join(SCREENSHOTS, `${name}-${dark ? "dark" : "light"}-${width}.png`),
    animations: "disabled",
    fullPage: false,
  });
}

/**
 * The screen as it is now, in each of the four looks in turn, without loading it again: the
 * viewport and the colour scheme change in place (the layout is CSS, and the app follows the
 * system's colour scheme as it changes, web/lib/theme.ts), a screenshot of each look goes to
 * `<name>-<theme>-<width>.png`, and axe runs in each. Answers the looks that have serious
 * violations, by look (`{}` when none): `expect(await checkLooks(page, "x")).toEqual({})`.
 * `ready` runs after each change of look, before the screenshot (e.g. wait for a re-layout).
 * The page is left in the look it had.
 */
export async function checkLooks(page: Page, name: string, ready?: () => Promise<void>): Promise<Record<string, AxeViolation[]>> {
  const before = page.viewportSize() ?? { width: 1280, height: 900 };
  const beforeDark = await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches);
  const found: Record<string, AxeViolation[]> = {};
  let width = before.width;
  for (const look of LOOKS) {
    await page.setViewportSize({ width: look.width, height: before.height });
    await page.emulateMedia({ colorScheme: look.theme });
    // After a change of width, what re-places itself on a debounced resize has its turn first
    // (the editor's selection toolbar, TipTap's BubbleMenu, 60 ms after the last resize).
    if (look.width !== width) await Bun.sleep(RESIZE_SETTLES_MS);
    width = look.width;
    // Two frames: the resize's layout, then the paint in the new scheme.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    if (ready) await ready();
    await screenshot(page, name);
    const violations = await axeViolations(page);
    if (violations.length) found[`${look.theme} ${look.width}`] = violations;
  }
  await page.setViewportSize(before);
  await page.emulateMedia({ colorScheme: beforeDark ? "dark" : "light" });
  return found;
}

/** Longer than the longest resize debounce in the app (TipTap's BubbleMenu: 60 ms). */
const RESIZE_SETTLES_MS = 120;

/** The four looks every screen is checked in. */
export const LOOKS: Array<{ width: 375 | 1280; theme: "light" | "dark" }> = [
  { width: 1280, theme: "light" },
  { width: 1280, theme: "dark" },
  { width: 375, theme: "light" },
  { width: 375, theme: "dark" },
];
