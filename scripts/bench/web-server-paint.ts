/**
 * What the server's page paints before any script (http/ui-frame.ts) against what the app then
 * draws, in the four looks (light and dark, 375 and 1280 px):
 * `bun scripts/bench/web-server-paint.ts [--binary=dist/cairn]`. For each look the page view is
 * opened once with scripts off (the server's paint alone) and once with them (once all is
 * drawn); prints where the title and the page's first blocks sit in each (they must not move)
 * and the layout shifts of the scripted view, and saves both screenshots to
 * .bench/screenshots/server-paint-{server,app}-<theme>-<width>.png to look at.
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium, type Page } from "playwright-core";
import { sampleDocument } from "../../src/content/sample";
import { killAll } from "./procs";
import { seedContext } from "./seed";
import { startCairn } from "./server";

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const root = join(import.meta.dir, "../..");
const binary = resolve(option("binary") ?? join(root, "dist/cairn"));
const shots = join(root, ".bench/screenshots");
mkdirSync(shots, { recursive: true });
process.on("exit", killAll);

const LOOKS = [
  { theme: "light", width: 1280 },
  { theme: "dark", width: 1280 },
  { theme: "light", width: 375 },
  { theme: "dark", width: 375 },
] as const;

/** The title's and the first blocks' boxes, rounded to the pixel. */
const boxes = (tab: Page) =>
  tab.evaluate(() =>
    Array.from(document.querySelectorAll("main h1, main .prose > *"))
      .slice(0, 12)
      .map((el) => {
        const r = el.getBoundingClientRect();
        return `${el.tagName.toLowerCase()} ${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`;
      }),
  );

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
});
const cairn = await startCairn(binary, join(root, ".bench", "web-server-paint.log"));
let moved = 0;
try {
  const ctx = await seedContext(cairn.url, true);
  const space = await ctx.api("POST", "/api/spaces", { key: "LOOKS", name: "Looks" });
  const page = await ctx.api("POST", "/api/pages", {
    spaceId: space.id,
    title: "Runbook",
    contentJson: JSON.stringify(sampleDocument(3, 400)),
  });
  for (const look of LOOKS) {
    const drawn: Record<string, string[]> = {};
    let shifts = 0;
    for (const scripts of [false, true]) {
      const context = await browser.newContext({
        viewport: { width: look.width, height: 900 },
        colorScheme: look.theme,
        reducedMotion: "reduce",
        javaScriptEnabled: scripts,
      });
      await context.addCookies([
        { name: "cairn_session", value: ctx.cookie, url: cairn.url },
        { name: "cairn_theme", value: look.theme, url: cairn.url },
      ]);
      const tab = await context.newPage();
      await tab.goto(`${cairn.url}/s/LOOKS/p/${page.id}`);
      if (scripts) {
        await tab.locator("main .prose p").first().waitFor();
        await tab.waitForLoadState("networkidle");
        await tab.waitForTimeout(300);
        shifts = await tab.evaluate(
          () =>
            new Promise<number>((done) => {
              let sum = 0;
              new PerformanceObserver((l) =>
                l.getEntries().forEach((e) => (sum += (e as PerformanceEntry & { value: number }).value)),
              ).observe({ type: "layout-shift", buffered: true });
              setTimeout(() => done(sum), 0);
            }),
        );
      }
      const name = scripts ? "app" : "server";
      drawn[name] = await boxes(tab);
      await tab.screenshot({ path: join(shots, `server-paint-${name}-${look.theme}-${look.width}.png`), animations: "disabled" });
      await context.close();
    }
    const same = drawn.server.length > 0 && drawn.server.every((b, i) => b === drawn.app[i]);
    if (!same) moved++;
    console.log(`${look.theme} ${look.width} px: ${same ? "title and first blocks in place" : "MOVED"}; layout shift ${shifts.toFixed(4)}`);
    if (!same)
      for (let i = 0; i < Math.max(drawn.server.length, drawn.app.length); i++)
        console.log(`  server ${drawn.server[i] ?? "-"} | app ${drawn.app[i] ?? "-"}`);
  }
} finally {
  await cairn.stop();
  await browser.close();
}
process.exit(moved ? 1 : 0);
