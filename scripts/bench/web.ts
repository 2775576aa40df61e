/**
 * The web UI as a person meets it, measured in Debian's Chromium against the benchmarked
 * binary: what the reading view of a page downloads (JavaScript and CSS, gzip, as sent), the
 * first and largest contentful paints of a page opened cold (a new browser context each time:
 * no cache; from the navigation's start, in the page's own Performance API),
 * and how long opening a page from the sidebar tree takes (each page opened for the first time,
 * so its answer is not cached in the browser). Without /usr/bin/chromium it reports "skipped".
 */
import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext } from "playwright-core";
import { sampleDocument } from "../../src/content/sample";
import type { FigureRow } from "./report";
import type { BenchContext } from "./scenarios";

export const READING_JS_TARGET_KB = 250;
export const CSS_TARGET_KB = 40;
export const FCP_TARGET_MS = 400;
export const LCP_TARGET_MS = 600;
export const OPEN_FROM_TREE_TARGET_MS = 150;
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
const PAGES = 40;
const FCP_RUNS = 7;
const TREE_OPENS = 12;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];
const round = (n: number) => Math.round(n * 10) / 10;

async function seed(ctx: BenchContext): Promise<Array<{ id: string; title: string }>> {
  const space = await ctx.api("POST", "/api/spaces", { key: "WEBUI", name: "Web UI bench" });
  const pages: Array<{ id: string; title: string }> = [];
  for (let i = 0; i < PAGES; i++) {
    const title = `Runbook ${String(i).padStart(2, "0")}`;
    const page = await ctx.api("POST", "/api/pages", { spaceId: space.id, title, contentJson: JSON.stringify(sampleDocument(i + 1, 900)) });
    pages.push({ id: page.id, title });
  }
  return pages;
}

async function signedInContext(browser: Browser, ctx: BenchContext): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // A browser signed in through the app also holds the theme the app last painted (lib/theme.ts),
  // which the server reads to paint a page view's frame before the script (http/ui-frame.ts).
  await context.addCookies(signedInCookies(ctx));
  return context;
}

/** The cookies of a browser that signed in through the app: the session and the theme it painted. */
export const signedInCookies = (ctx: BenchContext) => [
  { name: "cairn_session", value: ctx.cookie, url: ctx.baseUrl },
  { name: "cairn_theme", value: "light", url: ctx.baseUrl },
];

/** One cold page view: FCP and what it downloaded, from the page's own Performance API. */
async function coldView(browser: Browser, ctx: BenchContext, path: string, title: string) {
  const context = await signedInContext(browser, ctx);
  try {
    const page = await context.newPage();
    await page.goto(ctx.baseUrl + path);
    await page.locator("main h1", { hasText: title }).waitFor({ timeout: 15_000 });
    // The page's body drawn too (the title can come a frame before it), and the tree beside it.
    await page.locator("main .prose p").first().waitFor({ timeout: 15_000 });
    await page.locator("aside .tree-row").first().waitFor({ timeout: 15_000 });
    // The page's own text on screen (the largest paint so far), not only the first pixels: the
    // last candidate once two more frames have been drawn.
    const lcp = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let last = NaN;
          new PerformanceObserver((list) => (last = list.getEntries().at(-1)?.startTime ?? last)).observe({
            type: "largest-contentful-paint",
            buffered: true,
          });
          requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => resolve(last), 50)));
        }),
    );
    // Layout shifts the reader did not cause, summed (the page written by the server, then replaced
    // by the app's first render: 0 when nothing moved).
    const cls = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let sum = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>)
              if (!e.hadRecentInput) sum += e.value;
          }).observe({ type: "layout-shift", buffered: true });
          setTimeout(() => resolve(sum), 0);
        }),
    );
    return await page.evaluate(
      ([lcp, cls]) => {
        const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN;
        const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
        const sum = (ext: string) =>
          resources.filter((r) => new URL(r.name).pathname.endsWith(ext)).reduce((n, r) => n + r.encodedBodySize, 0);
        return { fcp, lcp, cls, jsBytes: sum(".js"), cssBytes: sum(".css"), files: resources.map((r) => new URL(r.name).pathname) };
      },
      [lcp, cls] as const,
    );
  } finally {
    await context.close();
  }
}

/** Clicks each page in the sidebar tree in turn; the time until its title is the main heading. */
async function opensFromTree(browser: Browser, ctx: BenchContext, pages: Array<{ id: string; title: string }>): Promise<number[]> {
  const context = await signedInContext(browser, ctx);
  try {
    const page = await context.newPage();
    await page.goto(`${ctx.baseUrl}/s/WEBUI/p/${pages[0].id}`);
    await page.locator("main h1", { hasText: pages[0].title }).waitFor({ timeout: 15_000 });
    const times: number[] = [];
    for (const target of pages.slice(1, 1 + TREE_OPENS)) {
      const row = page.locator("aside").getByText(target.title, { exact: true }).first();
      await row.scrollIntoViewIfNeeded();
      const ms = await row.evaluate(
        (el, title) =>
          new Promise<number>((resolve) => {
            const start = performance.now();
            ((el.closest("a,[role=treeitem]") as HTMLElement | null) ?? (el as HTMLElement)).click();
            const check = () => {
              const h1 = document.querySelector("main h1");
              if (h1?.textContent?.includes(title)) resolve(performance.now() - start);
              else requestAnimationFrame(check);
            };
            check();
          }),
        target.title,
      );
      times.push(ms);
    }
    return times;
  } finally {
    await context.close();
  }
}

export async function measureWeb(
  ctx: BenchContext,
  o: { runs?: number } = {},
): Promise<{ figures: FigureRow[]; extras: Record<string, unknown> }> {
  if (!existsSync(CHROMIUM)) {
    return {
      figures: [{ figure: "web UI in Chromium", value: `skipped (no ${CHROMIUM}; apt-get install chromium)`, target: "", met: null }],
      extras: { webSkipped: true },
    };
  }
  const pages = await seed(ctx);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const views = [];
    const runs = o.runs ?? FCP_RUNS;
    for (let i = 0; i < runs; i++) views.push(await coldView(browser, ctx, `/s/WEBUI/p/${pages[i].id}`, pages[i].title));
    const fcp = views.map((v) => v.fcp);
    const lcp = views.map((v) => v.lcp).filter((x) => Number.isFinite(x));
    const cls = views.map((v) => v.cls);
    const first = views[0];
    const editorLoaded = first.files.some((f) => /RichEditor|editor/i.test(f));
    const opens = await opensFromTree(browser, ctx, pages);
    const jsKb = first.jsBytes / 1024;
    const cssKb = first.cssBytes / 1024;
    const figures: FigureRow[] = [
      {
        figure: "reading view: JavaScript downloaded (gzip)",
        value:
          `${round(jsKb)} KB in ${first.files.filter((f) => f.endsWith(".js")).length} files` +
          `${editorLoaded ? " (editor chunk loaded!)" : ", editor not loaded"}`,
        target: `< ${READING_JS_TARGET_KB} KB`,
        met: jsKb < READING_JS_TARGET_KB && !editorLoaded,
      },
      {
        figure: "reading view: CSS downloaded (gzip)",
        value: `${round(cssKb)} KB`,
        target: `< ${CSS_TARGET_KB} KB`,
        met: cssKb < CSS_TARGET_KB,
      },
      {
        figure: `first contentful paint, cold page view (median of ${runs})`,
        value: `${round(median(fcp))} ms (${fcp.map((x) => Math.round(x)).join(", ")})`,
        target: `< ${FCP_TARGET_MS} ms`,
        met: median(fcp) < FCP_TARGET_MS,
      },
      {
        figure: "largest contentful paint, same views (median)",
        value: lcp.length ? `${round(median(lcp))} ms (${lcp.map((x) => Math.round(x)).join(", ")})` : "not reported",
        target: `< ${LCP_TARGET_MS} ms`,
        met: lcp.length ? median(lcp) < LCP_TARGET_MS : false,
      },
      {
        figure: "cumulative layout shift, same views (median; by the tree's answer too)",
        value: `${median(cls).toFixed(3)} (${cls.map((x) => x.toFixed(3)).join(", ")})`,
        target: "",
        met: null,
      },
      {
        figure: `open a page from the tree (first time, ${opens.length} pages)`,
        value: `median ${round(median(opens))} ms, p95 ${round(p95(opens))} ms`,
        target: `p95 < ${OPEN_FROM_TREE_TARGET_MS} ms`,
        met: p95(opens) < OPEN_FROM_TREE_TARGET_MS,
      },
    ];
    const extras = {
      webReadingJsKb: round(jsKb),
      webCssKb: round(cssKb),
      webFcpMs: round(median(fcp)),
      webFcpRunsMs: fcp.map(round),
      webLcpMs: lcp.length ? round(median(lcp)) : null,
      webCls: Math.round(median(cls) * 1000) / 1000,
      webOpenFromTreeMedianMs: round(median(opens)),
      webOpenFromTreeP95Ms: round(p95(opens)),
      webEditorInReadingView: editorLoaded,
      webPagePath: `/s/WEBUI/p/${pages[0].id}`,
    };
    return { figures, extras };
  } finally {
    await browser.close();
  }
}
