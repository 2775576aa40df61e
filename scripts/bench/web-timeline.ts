/**
 * What one cold page view waited for, as the page's own Performance API saw it: the document,
 * each file and API answer (start → end, bytes as sent), the paints and long tasks (main
 * thread busy for 50 ms or more), in time order from the navigation's start. For work on the
 * page view (web-alone.ts --timeline); the benchmark's figures come from web.ts. With
 * --profile, CAIRN_PROFILE_OUT=<file> also writes the raw CPU profile (a build made with
 * CAIRN_UI_MINIFY=0 names the functions in it).
 */
import { chromium } from "playwright-core";
import type { BenchContext } from "./scenarios";
import { signedInCookies } from "./web";

const CHROMIUM = "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** `profile`: also the top functions by self time in the view's main thread (a CPU profile). */
export async function coldTimeline(ctx: BenchContext, path: string, profile = false): Promise<string> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    // One view to warm the browser process itself (as web.ts's first view does for the rest).
    for (const keep of [false, true]) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addCookies(signedInCookies(ctx));
      const page = await context.newPage();
      await page.addInitScript(() => {
        const w = window as unknown as { __longTasks: Array<[number, number]>; __lcp: Array<[number, string]> };
        w.__longTasks = [];
        w.__lcp = [];
        // When the app's parts first enter the DOM: the shell, the page's title, its text.
        const seen = new Set<string>();
        const marks: Array<[string, string]> = [
          ["spinner", ".spinner-page"],
          ["server frame", ".boot-frame"],
          ["topbar", ".topbar"],
          ["tree row", ".tree-row"],
          ["page title", "h1.page-title"],
          ["page text", ".prose p"],
        ];
        new MutationObserver(() => {
          for (const [name, sel] of marks)
            if (!seen.has(name) && document.querySelector(sel)) seen.add(name), performance.mark(`dom: ${name}`);
        }).observe(document, { childList: true, subtree: true });
        new PerformanceObserver((l) => l.getEntries().forEach((e) => w.__longTasks.push([e.startTime, e.duration]))).observe({
          type: "longtask",
          buffered: true,
        });
        new PerformanceObserver((l) =>
          l
            .getEntries()
            .forEach((e) =>
              w.__lcp.push([
                e.startTime,
                ((e as unknown as { element?: Element }).element?.tagName ?? "?") + " " + ((e as unknown as { size: number }).size ?? ""),
              ]),
            ),
        ).observe({ type: "largest-contentful-paint", buffered: true });
      });
      const cdp = profile && keep ? await context.newCDPSession(page) : null;
      if (cdp)
        await cdp
          .send("Profiler.enable")
          .then(() => cdp.send("Profiler.setSamplingInterval", { interval: 200 }))
          .then(() => cdp.send("Profiler.start"));
      await page.goto(ctx.baseUrl + path);
      await page.locator("main h1").first().waitFor({ timeout: 15_000 });
      await page.waitForTimeout(500);
      const prof = cdp ? ((await cdp.send("Profiler.stop")).profile as unknown as CpuProfile) : null;
      if (prof && process.env.CAIRN_PROFILE_OUT) await Bun.write(process.env.CAIRN_PROFILE_OUT, JSON.stringify(prof));
      const top = prof ? topSelfTime(prof) : "";
      const lines = await page.evaluate(() => {
        const rows: Array<[number, string]> = [];
        const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
        rows.push(
          [nav.requestStart, "document request"],
          [nav.responseEnd, `document received (${nav.encodedBodySize} B)`],
          [nav.domInteractive, "DOM interactive"],
          [nav.domContentLoadedEventEnd, "DOMContentLoaded done"],
          [nav.loadEventEnd, "load done"],
        );
        for (const r of performance.getEntriesByType("resource") as PerformanceResourceTiming[]) {
          const u = new URL(r.name);
          rows.push(
            [r.startTime, `  start ${u.pathname}${u.search}`],
            [r.responseEnd, `  end   ${u.pathname}${u.search} (${r.encodedBodySize} B, ${Math.round(r.responseEnd - r.startTime)} ms)`],
          );
        }
        for (const p of performance.getEntriesByType("paint")) rows.push([p.startTime, `PAINT ${p.name}`]);
        for (const m of performance.getEntriesByType("mark")) rows.push([m.startTime, m.name]);
        const w = window as unknown as { __longTasks: Array<[number, number]>; __lcp: Array<[number, string]> };
        for (const [t, d] of w.__longTasks) rows.push([t, `LONG TASK ${Math.round(d)} ms (to ${Math.round(t + d)})`]);
        for (const [t, what] of w.__lcp) rows.push([t, `LCP candidate ${what}`]);
        return rows.sort((a, b) => a[0] - b[0]).map(([t, s]) => `${t.toFixed(1).padStart(7)} ms  ${s}`);
      });
      await context.close();
      if (keep) return lines.join("\n") + top;
    }
    return "";
  } finally {
    await browser.close();
  }
}

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

/** The 30 functions with the most self time, and the time per script file. */
function topSelfTime(p: CpuProfile): string {
  const byNode = new Map<number, number>();
  p.samples.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const byFn = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const n of p.nodes) {
    const us = byNode.get(n.id) ?? 0;
    const file = n.callFrame.url.replace(/^.*\//, "") || "(native)";
    const key = `${n.callFrame.functionName || "(anonymous)"} ${file}:${n.callFrame.lineNumber + 1}`;
    byFn.set(key, (byFn.get(key) ?? 0) + us);
    byFile.set(file, (byFile.get(file) ?? 0) + us);
  }
  const list = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`)
      .join("\n");
  return `\n\nself time by file:\n${list(byFile, 12)}\n\nself time by function:\n${list(byFn, 25)}`;
}
