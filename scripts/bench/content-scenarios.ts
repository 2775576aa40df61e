/**
 * The content scenarios, on the pages seed-pages.ts wrote before the server started
 * (ctx.shared.preSeed): reading a page, writing new versions, the tree of a 1,000-page space
 * and searching 100,000 pages (10,000 with --quick) with one- and two-word queries.
 *
 * Latency at 32 connections is mostly queueing once the server is saturated (Little's law:
 * p50 ≈ 32 / rps), so each read scenario also measures its latency one request at a time
 * (`p95At1Ms` in the results): the time a request takes when it does not wait behind others.
 */
import { TARGETS } from "./targets";
import { sampleDocument, type SampleNode } from "../../src/content/sample";
import type { PreSeed } from "./seed-pages";
import type { BenchContext, LoadFigures, LoadRequest, Scenario } from "./scenarios";

export const PUT_PAGES = 64;
/** What a browser sends (Chromium's, Firefox's), for the answers the web UI asks for. */
const BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd";
const READ_PAGES = 256;
// One at a time: up to 200 requests, or as many as fit in 5 s (at least 5).
const SERIAL_SAMPLES = 200;
const SERIAL_MIN_SAMPLES = 5;
const SERIAL_BUDGET_MS = 5_000;
const SERIAL_TIMEOUT_MS = 10_000;
/** The load's last requests may still be queued in the server (the loader gave up on them). */
const SETTLE_TIMEOUT_MS = 120_000;

export const preSeedOf = (ctx: BenchContext) => {
  const pre = ctx.shared.preSeed as PreSeed | undefined;
  if (!pre) throw new Error("content scenarios need the pre-seeded pages (seed-pages.ts)");
  return pre;
};

/** `count` ids spread evenly over the list (not only the first pages written). */
function spread(ids: string[], count: number): string[] {
  const step = Math.max(1, Math.floor(ids.length / count));
  return Array.from({ length: Math.min(count, ids.length) }, (_, i) => ids[i * step]);
}

/** A PUT body: a fresh title and a fresh 500-word document, so every request is a real new version. */
/**
 * A whole-page update. "{{n}}" (in the title and a last paragraph) becomes a new number on every
 * request (loader.mjs), so each one is a real change: an update equal to the current version
 * writes nothing, and the load's connections cycle through the same list.
 */
export function putRequest(ctx: BenchContext, pageId: string, seed: number): LoadRequest {
  const doc = sampleDocument(seed, 500);
  doc.content.push({ type: "paragraph", content: [{ type: "text", text: "Edit {{n}}" }] });
  const title = `${doc.content[0]?.content?.[0]?.text ?? "Page"} v${seed} e{{n}}`;
  return {
    method: "PUT",
    path: `/api/pages/${pageId}`,
    headers: { ...ctx.auth(), "content-type": "application/json" },
    body: JSON.stringify({ title, contentJson: JSON.stringify(doc) }),
  };
}

function words(node: SampleNode, out: string[]): void {
  if (node.text) for (const m of node.text.toLowerCase().matchAll(/[a-z]+/g)) out.push(m[0]);
  for (const child of node.content ?? []) words(child, out);
}

/**
 * Query words that occur in the corpus, read from its own documents (seeds 0…399 are BIG's
 * first pages): common ones (in 40–90 % of pages, 4 letters or more: what people type, not
 * "the") and rare ones (in 1–4 % of pages).
 */
export function queryWords(): { common: string[]; rare: string[] } {
  const docs = 400;
  const df = new Map<string, number>();
  for (let seed = 0; seed < docs; seed++) {
    const list: string[] = [];
    words(sampleDocument(seed, 500), list);
    for (const w of new Set(list)) df.set(w, (df.get(w) ?? 0) + 1);
  }
  const pick = (lo: number, hi: number, minLength: number) => {
    const found = [...df]
      .filter(([w, n]) => n >= lo * docs && n <= hi * docs && w.length >= minLength)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    return spread(
      found.map(([w]) => w),
      8,
    );
  };
  return { common: pick(0.4, 0.9, 4), rare: pick(0.01, 0.04, 4) };
}

export function searchQueries(): { one: string[]; two: string[] } {
  const { common, rare } = queryWords();
  const one = common.flatMap((c, i) => [c, rare[i]]).filter(Boolean);
  const two = common.flatMap((c, i) => [
    `${c} ${rare[i]}`,
    `${c} ${common[(i + 3) % common.length]}`,
    `${rare[i]} ${rare[(i + 5) % rare.length]}`,
  ]);
  return { one, two };
}

/** One request, answered once the server has worked through what was queued before it. */
async function settle(ctx: BenchContext, r: LoadRequest): Promise<void> {
  const res = await fetch(ctx.baseUrl + r.path, {
    method: r.method ?? "GET",
    headers: r.headers,
    body: r.body,
    signal: AbortSignal.timeout(SETTLE_TIMEOUT_MS),
  });
  await res.arrayBuffer();
}

/**
 * p95 of requests sent one at a time (cycling over the mix), in ms; a request slower than
 * 10 s counts as 10 s. The first request is not counted: it waits for the server to finish
 * what the load left queued (requests the loader timed out on are still worked through).
 */
export async function serialP95(ctx: BenchContext, requests: LoadRequest[]): Promise<number> {
  await settle(ctx, requests[0]);
  const times: number[] = [];
  const start = performance.now();
  for (let i = 0; i < SERIAL_SAMPLES; i++) {
    if (i >= SERIAL_MIN_SAMPLES && performance.now() - start > SERIAL_BUDGET_MS) break;
    const r = requests[i % requests.length];
    const t0 = performance.now();
    try {
      const res = await fetch(ctx.baseUrl + r.path, {
        method: r.method ?? "GET",
        headers: r.headers,
        body: r.body,
        signal: AbortSignal.timeout(SERIAL_TIMEOUT_MS),
      });
      await res.arrayBuffer();
      if (res.status < 200 || res.status > 299) throw new Error(`${r.method ?? "GET"} ${r.path}: ${res.status}`);
      times.push(performance.now() - t0);
    } catch (err) {
      if ((err as Error).name !== "TimeoutError") throw err;
      times.push(SERIAL_TIMEOUT_MS); // a lower bound
    }
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length * 0.95)] * 1000) / 1000;
}

type Met = (r: LoadFigures & { ratioToBaseline: number }) => boolean;

/** A read scenario that also measures its one-at-a-time latency after the load. */
function read(name: string, target: string, met: Met, requests: (ctx: BenchContext) => LoadRequest[]): Scenario {
  return {
    name,
    target,
    met,
    requests,
    timeoutsAreMisses: true,
    after: async (ctx) => ({ p95At1Ms: await serialP95(ctx, requests(ctx)) }),
  };
}

const getPages = (ctx: BenchContext): LoadRequest[] =>
  spread(preSeedOf(ctx).big.pageIds, READ_PAGES).map((id) => ({ method: "GET", path: `/api/pages/${id}`, headers: ctx.auth() }));

const searches =
  (kind: "one" | "two") =>
  (ctx: BenchContext): LoadRequest[] => {
    const queries = (ctx.shared.searchQueries ??= searchQueries()) as { one: string[]; two: string[] };
    return queries[kind].map((q) => ({ method: "GET", path: `/api/search?q=${encodeURIComponent(q)}`, headers: ctx.auth() }));
  };

/**
 * The same queries as never asked before: the server keeps answers until the next write, keyed
 * by the query as sent, so each request here carries its words with a different number of
 * trailing spaces (which search ignores) and is worked out afresh. Reported beside the load's
 * figures, which after the first round are mostly kept answers.
 */
const firstTimeSearches =
  (kind: "one" | "two") =>
  (ctx: BenchContext): LoadRequest[] => {
    const base = searches(kind)(ctx);
    return Array.from({ length: SERIAL_SAMPLES }, (_, i) => ({
      ...base[i % base.length],
      path: `${base[i % base.length].path}${"%20".repeat(i + 1)}`,
    }));
  };

/** A search scenario: its one-at-a-time latency after the load, both as loaded and first-time. */
function search(name: string, kind: "one" | "two"): Scenario {
  const scenario = read(name, "p95 < 20 ms", (r) => r.p95Ms < 20, searches(kind));
  return {
    ...scenario,
    after: async (ctx, r) => ({
      ...(await scenario.after!(ctx, r)),
      p95FirstTimeAt1Ms: await serialP95(ctx, firstTimeSearches(kind)(ctx)),
    }),
  };
}

export const CONTENT_SCENARIOS: Scenario[] = [
  read(
    "GET /api/pages/{id} (token)",
    `≥ ${TARGETS.pageGetShare * 100} % of baseline rps, p99 < ${TARGETS.pageGetP99Ms} ms`,
    (r) => r.ratioToBaseline >= TARGETS.pageGetShare && r.p99Ms < TARGETS.pageGetP99Ms,
    getPages,
  ),
  {
    name: "PUT /api/pages/{id} (new version each time)",
    target: `≥ ${TARGETS.putRps.toLocaleString("en")} rps`,
    met: (r) => r.rps >= TARGETS.putRps,
    // The side-effects scenario compares itself with this figure.
    after: async (ctx, r) => ((ctx.shared.plainPutRps = r.rps), {}),
    requests: (ctx) => spread(preSeedOf(ctx).big.pageIds, PUT_PAGES).map((id, k) => putRequest(ctx, id, 7_000_000 + k)),
  },
  // Asked as the web UI asks for it, whose browser takes gzip: at 120 KB the answer's bytes, not
  // the server's work, set the pace (docs/decisions.md, "A large kept answer gzipped").
  read(
    "GET /api/pages/tree (1,000 pages)",
    `p95 < ${TARGETS.treeP95Ms} ms`,
    (r) => r.p95Ms < TARGETS.treeP95Ms,
    (ctx) => [
      {
        method: "GET",
        path: `/api/pages/tree?spaceId=${preSeedOf(ctx).tree.id}`,
        headers: { ...ctx.auth(), "accept-encoding": BROWSER_ACCEPT_ENCODING },
      },
    ],
  ),
  search("GET /api/search (all pages), one word", "one"),
  search("GET /api/search (all pages), two words", "two"),
];
