/**
 * What one cold page view waited for, as the page's own Performance API saw it: the document,
 * each file and API answer (start → end, bytes as sent), the paints and long tasks (main
 * thread busy for 50 ms or more), in time order from the navigation's start. For work on the
 * page view (web-alone.ts --timeline); the benchmark's figures come from web.ts.
 */
import { chromium } from "playwright-core";
import type { BenchContext } from "./scenarios";

const CHROMIUM = "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

export async function coldTimeline(ctx: BenchContext, path: string): Promise<string> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    // One view to warm the browser process itself (as web.ts's first view does for the rest).
    for (const keep of [false, true]) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addCookies([{ name: "cairn_session", value: ctx.cookie, url: ctx.baseUrl }]);
      const page = await context.newPage();
      await page.addInitScript(() => {
        const w = window as unknown as { __longTasks: Array<[number, number]>; __lcp: Array<[number, string]> };
        w.__longTasks = [];
        w.__lcp = [];
        new PerformanceObserver((l) => l.getEntries().forEach((e) => w.__longTasks.push([e.startTime, e.duration]))).observe({ type: "longtask", buffered: true });
        new PerformanceObserver((l) => l.getEntries().forEach((e) => w.__lcp.push([e.startTime, ((e as unknown as { element?: Element }).element?.tagName ?? "?") + " " + ((e as unknown as { size: number }).size ?? "")]))).observe({ type: "largest-contentful-paint", buffered: true });
      });
      await page.goto(ctx.baseUrl + path);
      await page.locator("main h1").first().waitFor({ timeout: 15_000 });
      await page.waitForTimeout(500);
      const lines = await page.evaluate(() => {
        const rows: Array<[number, string]> = [];
        const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
        rows.push([nav.requestStart, "document request"], [nav.responseEnd, `document received (${nav.encodedBodySize} B)`], [nav.domInteractive, "DOM interactive"], [nav.domContentLoadedEventEnd, "DOMContentLoaded done"], [nav.loadEventEnd, "load done"]);
        for (const r of performance.getEntriesByType("resource") as PerformanceResourceTiming[]) {
          const u = new URL(r.name);
          rows.push([r.startTime, `  start ${u.pathname}${u.search}`], [r.responseEnd, `  end   ${u.pathname}${u.search} (${r.encodedBodySize} B, ${Math.round(r.responseEnd - r.startTime)} ms)`]);
        }
        for (const p of performance.getEntriesByType("paint")) rows.push([p.startTime, `PAINT ${p.name}`]);
        const w = window as unknown as { __longTasks: Array<[number, number]>; __lcp: Array<[number, string]> };
        for (const [t, d] of w.__longTasks) rows.push([t, `LONG TASK ${Math.round(d)} ms (to ${Math.round(t + d)})`]);
        for (const [t, what] of w.__lcp) rows.push([t, `LCP candidate ${what}`]);
        return rows.sort((a, b) => a[0] - b[0]).map(([t, s]) => `${t.toFixed(1).padStart(7)} ms  ${s}`);
      });
      await context.close();
      if (keep) return lines.join("\n");
    }
    return "";
  } finally {
    await browser.close();
  }
}
