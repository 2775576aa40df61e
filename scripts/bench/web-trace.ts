/**
 * Where one cold page view's main thread spends its time, in CPU time rather than wall time
 * (a Chromium trace's thread clock, so a busy machine stretches it far less than a timeline):
 * `bun scripts/bench/web-trace.ts [--binary=dist/cairn] [--views=3]`. Prints, per view, the
 * renderer main thread's top-level tasks until the largest paint (what each did: compile,
 * evaluate, a React render, style, layout, paint) with their wall and CPU milliseconds, and the
 * sums by kind; the figure to compare between builds is the CPU before the largest paint.
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { sampleDocument } from "../../src/content/sample";
import { killAll } from "./procs";
import { seedContext } from "./seed";
import { startCairn } from "./server";
import { signedInCookies } from "./web";

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const binary = resolve(option("binary") ?? join(import.meta.dir, "../../dist/cairn"));
const views = Number(option("views") ?? 3);
const out = join(import.meta.dir, "../../.bench");
mkdirSync(out, { recursive: true });
process.on("exit", killAll);

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: Record<string, any>;
}

/** What a top-level task mostly did: the longest kind of work directly inside it. */
const KINDS: Array<[RegExp, string]> = [
  [/^(v8\.compile|v8\.compileModule|V8\.CompileCode|v8\.parseOnBackground|CompileScript|v8\.produceModuleCache)/, "compile"],
  [/^(EvaluateScript|v8\.evaluateModule|v8\.run)$/, "evaluate"],
  [/^(FunctionCall|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|V8\.Execute)$/, "script"],
  [/^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet)$/, "style"],
  [/^(Layout|LayoutShift|UpdateLayerTree|PrePaint)$/, "layout"],
  [/^(Paint|PaintImage|Commit|Layerize)$/, "paint"],
  [/^(MajorGC|MinorGC|V8\.GC.*|BlinkGC.*)$/, "gc"],
  [/^(ParseHTML)$/, "html"],
];
const kindOf = (name: string) => KINDS.find(([re]) => re.test(name))?.[1] ?? null;

const cairn = await startCairn(binary, join(out, "web-trace.log"));
const browser = await chromium.launch({
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
try {
  const ctx = await seedContext(cairn.url, true);
  const space = await ctx.api("POST", "/api/spaces", { key: "WEBUI", name: "Web UI bench" });
  const pages: Array<{ id: string; title: string }> = [];
  for (let i = 0; i < 40; i++) {
    const title = `Runbook ${String(i).padStart(2, "0")}`;
    pages.push({
      id: (await ctx.api("POST", "/api/pages", { spaceId: space.id, title, contentJson: JSON.stringify(sampleDocument(i + 1, 900)) })).id,
      title,
    });
  }
  const totals: number[] = [];
  // The first view warms the browser process (as web.ts's first does for the rest); not counted.
  for (let v = 0; v <= views; v++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies(signedInCookies(ctx));
    const page = await context.newPage();
    await browser.startTracing(page, {
      categories: [
        "devtools.timeline",
        "disabled-by-default-devtools.timeline",
        "v8",
        "v8.execute",
        "loading",
        "blink.user_timing",
        "toplevel",
        "disabled-by-default-v8.compile",
      ],
    });
    await page.goto(`${cairn.url}/s/WEBUI/p/${pages[v].id}`);
    await page.locator("main .prose p").first().waitFor({ timeout: 15_000 });
    await page.locator("aside .tree-row").first().waitFor({ timeout: 15_000 });
    await page.waitForTimeout(300);
    const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
    await context.close();
    if (v === 0) continue;
    const ev = trace.traceEvents;
    const main = ev.find(
      (e) =>
        e.name === "thread_name" &&
        e.args?.name === "CrRendererMain" &&
        ev.some((x) => x.pid === e.pid && x.name === "largestContentfulPaint::Candidate"),
    );
    if (!main) throw new Error("no renderer main thread with an LCP in the trace");
    const candidates = ev.filter((e) => e.pid === main.pid && e.name === "largestContentfulPaint::Candidate");
    const lcp = candidates.at(-1)!;
    // The navigation may have started in another renderer (a process swap): its last start before the paint.
    const nav = ev.filter((e) => e.name === "navigationStart" && e.ts <= lcp.ts).at(-1);
    if (!nav) {
      console.log(`\nview ${v}: no navigation start in the trace, skipped`);
      continue;
    }
    const fcp = ev.find((e) => e.pid === main.pid && e.name === "firstContentfulPaint");
    const on = ev
      .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === "X" && e.ts >= nav.ts && e.ts <= lcp.ts)
      .sort((a, b) => a.ts - b.ts);
    // Top-level tasks only (a RunTask may hold another).
    const all = on.filter((e) => e.name === "ThreadControllerImpl::RunTask" || e.name === "RunTask");
    const tasks = all.filter(
      (t) =>
        !all.some(
          (o) =>
            o !== t &&
            o.ts <= t.ts &&
            o.ts + (o.dur ?? 0) >= t.ts + (t.dur ?? 0) &&
            (o.ts < t.ts || (o.dur ?? 0) > (t.dur ?? 0) || all.indexOf(o) < all.indexOf(t)),
        ),
    );
    const byKind = new Map<string, number>();
    const lines: string[] = [];
    let cpu = 0;
    for (const t of tasks) {
      const inside = on.filter((e) => e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + (t.dur ?? 0));
      const kinds = new Map<string, number>();
      for (const e of inside) {
        const k = kindOf(e.name);
        // Count only the outermost event of each kind (no double counting of nested ones).
        if (
          !k ||
          inside.some(
            (o) =>
              o !== e && kindOf(o.name) === k && o.ts <= e.ts && o.ts + (o.dur ?? 0) >= e.ts + (e.dur ?? 0) && (o.dur ?? 0) > (e.dur ?? 0),
          )
        )
          continue;
        kinds.set(k, (kinds.get(k) ?? 0) + (e.tdur ?? e.dur ?? 0));
      }
      const tcpu = t.tdur ?? t.dur ?? 0;
      cpu += tcpu;
      for (const [k, us] of kinds) byKind.set(k, (byKind.get(k) ?? 0) + us);
      if (tcpu >= 3000) {
        const what = [...kinds]
          .sort((a, b) => b[1] - a[1])
          .map(([k, us]) => `${k} ${(us / 1000).toFixed(1)}`)
          .join(", ");
        const url = inside.find((e) => e.args?.data?.url)?.args?.data?.url?.replace(/^.*\//, "") ?? "";
        lines.push(
          `  ${((t.ts - nav.ts) / 1000).toFixed(0).padStart(6)} ms  wall ` +
            `${((t.dur ?? 0) / 1000).toFixed(1).padStart(6)}  cpu ${(tcpu / 1000).toFixed(1).padStart(6)}  ${what} ${url}`,
        );
      }
    }
    totals.push(cpu / 1000);
    const kinds = [...byKind]
      .sort((a, b) => b[1] - a[1])
      .map(([k, us]) => `${k} ${(us / 1000).toFixed(1)}`)
      .join(", ");
    console.log(
      `\nview ${v}: FCP ${fcp ? ((fcp.ts - nav.ts) / 1000).toFixed(0) : "?"} ms, LCP ${((lcp.ts - nav.ts) / 1000).toFixed(0)} ms, ` +
        `main-thread CPU before LCP ${(cpu / 1000).toFixed(1)} ms (${kinds})`,
    );
    console.log(lines.join("\n"));
    console.log(
      `  LCP candidates: ${candidates
        .map((c) => `${((c.ts - nav.ts) / 1000).toFixed(0)} ms ${c.args?.data?.type ?? ""} ${c.args?.data?.size ?? ""}`)
        .join("; ")}`,
    );
  }
  const sorted = [...totals].sort((a, b) => a - b);
  console.log(
    `\nmain-thread CPU before the largest paint, median of ${views}: ` +
      `${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms (${totals.map((x) => x.toFixed(0)).join(", ")})`,
  );
} finally {
  await browser.close();
  await cairn.stop();
}
process.exit(0);
