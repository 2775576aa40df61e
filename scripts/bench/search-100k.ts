/**
 * First-time search latency (docs/decisions.md, "Bounded ranking"): one- and two-word queries that
 * were never asked before, sent one at a time from this process to the built binary, each distinct,
 * so that no kept answer (platform/db/kept-answers.ts) can answer any of them. p50/p95/p99 per
 * kind.
 *
 * Part of the full `bun run bench` (measureFirstTimeSearch on its 100,000-page server), and on
 * its own, reusing a data directory seeded once:
 *   bun scripts/bench/search-100k.ts [--data=/tmp/cairn-search-100k] [--pages=100000]
 *     [--binary=dist/cairn] [--samples=300] [--churn=PUTS] [--cold]
 * --cold evicts the database's file from the OS cache before the server starts (posix_fadvise,
 * this file only: other processes' caches stay), so the queries read it from the disk.
 * --churn first rewrites pages as the full bench's write scenarios do before it measures
 * (search-churn.ts): the directory keeps those writes, so give it a copy.
 * It seeds the directory (seed-pages.ts, the bench's own seeding) only when it holds no
 * database yet, and never removes it. Without --binary it builds one into a directory of its own.
 */
import { existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { sampleDocument, seededRandom, type SampleNode } from "../../src/content/sample";
import type { FigureRow } from "./report";

/**
 * The target for what a person types, asked for the first time (docs/decisions.md, "Bounded
 * ranking").
 */
export const FIRST_TIME_TARGET_MS = 15;
const SAMPLES = 300;
const TIMEOUT_MS = 10_000;

export interface Percentiles {
  count: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface FirstTimeSearch {
  one: Percentiles;
  two: Percentiles;
  /** The server's CPU per query (all its threads, µs, mean), when its pid was given. */
  cpuUs?: { one: number; two: number };
}

function wordsOf(node: SampleNode, out: Set<string>): void {
  if (node.text) for (const m of node.text.toLowerCase().matchAll(/[a-z]+/g)) out.add(m[0]);
  for (const child of node.content ?? []) wordsOf(child, out);
}

/**
 * Words of the corpus (read from its own first 400 documents), of 4 letters or more (what
 * people type, not "the"), split into common ones (in 10 % of pages or more: up to nearly
 * every page) and the rest (the invented long tail, each in about 3 % of pages). Queries mix
 * them half and half; no query is asked twice, and no one-word query's word comes back.
 */
export function firstTimeQueries(count: number, seed = 13): { one: string[]; two: string[]; warmUp: string[] } {
  const docs = 400;
  const df = new Map<string, number>();
  for (let s = 0; s < docs; s++) {
    const seen = new Set<string>();
    wordsOf(sampleDocument(s, 500), seen);
    for (const w of seen) df.set(w, (df.get(w) ?? 0) + 1);
  }
  const rnd = seededRandom(seed);
  const shuffle = <T>(list: T[]) => {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [list[i], list[j]] = [list[j], list[i]];
    }
    return list;
  };
  const eligible = [...df].filter(([w]) => w.length >= 4).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const common = shuffle(eligible.filter(([, n]) => n >= 0.1 * docs).map(([w]) => w));
  const rare = shuffle(eligible.filter(([, n]) => n < 0.1 * docs).map(([w]) => w));
  // A few words of each kind are kept back for warming the server up, never measured.
  const warmUp = [...common.splice(0, 3), ...rare.splice(0, 3)];
  const one: string[] = [];
  for (let i = 0; one.length < count && (i < common.length || i < rare.length); i++) {
    if (i < common.length) one.push(common[i]);
    if (i < rare.length && one.length < count) one.push(rare[i]);
  }
  const pick = (list: string[]) => list[Math.floor(rnd() * list.length)];
  const asked = new Set(one);
  const two: string[] = [];
  for (let i = 0; two.length < count && i < count * 20; i++) {
    const kind = i % 3;
    const q =
      kind === 0 ? `${pick(common)} ${pick(common)}` : kind === 1 ? `${pick(common)} ${pick(rare)}` : `${pick(rare)} ${pick(common)}`;
    const [a, b] = q.split(" ");
    if (a === b || asked.has(q) || asked.has(`${b} ${a}`)) continue;
    asked.add(q);
    two.push(q);
  }
  return { one, two, warmUp };
}

function percentiles(times: number[]): Percentiles {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] * 100) / 100;
  return { count: sorted.length, p50Ms: at(0.5), p95Ms: at(0.95), p99Ms: at(0.99), maxMs: at(1) };
}

async function timed(baseUrl: string, headers: Record<string, string>, q: string, spaceId?: string): Promise<number> {
  const path = `/api/search?q=${encodeURIComponent(q)}${spaceId ? `&spaceId=${encodeURIComponent(spaceId)}` : ""}`;
  const t0 = performance.now();
  const res = await fetch(baseUrl + path, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
  const body = await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${new TextDecoder().decode(body).slice(0, 300)}`);
  return ms;
}

/**
 * One request at a time, one- then two-word queries interleaved (so neither kind runs on a
 * cache the other warmed less), wall time from the request sent to the body read. Given the
 * server's pid, also its CPU time per query of each kind (read outside the timed span, from
 * each thread's schedstat: steadier than wall time on a shared machine).
 */
export async function measureFirstTimeSearch(
  baseUrl: string,
  headers: Record<string, string>,
  samples = SAMPLES,
  serverPid?: number,
): Promise<FirstTimeSearch> {
  const queries = firstTimeQueries(samples);
  for (const q of queries.warmUp) await timed(baseUrl, headers, q);
  const { threadsCpuNanos } = await import("./procs");
  const cpu = { one: 0, two: 0 };
  const one: number[] = [];
  const two: number[] = [];
  const ask = async (kind: "one" | "two", q: string, into: number[]) => {
    const c0 = serverPid ? threadsCpuNanos(serverPid) : 0;
    into.push(await timed(baseUrl, headers, q));
    if (serverPid) cpu[kind] += threadsCpuNanos(serverPid) - c0;
  };
  for (let i = 0; i < Math.max(queries.one.length, queries.two.length); i++) {
    if (i < queries.one.length) await ask("one", queries.one[i], one);
    if (i < queries.two.length) await ask("two", queries.two[i], two);
  }
  const r: FirstTimeSearch = { one: percentiles(one), two: percentiles(two) };
  if (serverPid) r.cpuUs = { one: Math.round(cpu.one / 1000 / one.length), two: Math.round(cpu.two / 1000 / two.length) };
  return r;
}

/** The two rows for the printed table, the target beside each. */
export function firstTimeFigures(r: FirstTimeSearch, pages: number): FigureRow[] {
  const row = (kind: string, p: Percentiles): FigureRow => ({
    figure: `first-time ${kind} search, ${pages.toLocaleString("en")} pages, one at a time (${p.count} distinct queries)`,
    value: `p50 ${p.p50Ms} ms, p95 ${p.p95Ms} ms, p99 ${p.p99Ms} ms`,
    target: `p95 < ${FIRST_TIME_TARGET_MS} ms`,
    met: p.p95Ms < FIRST_TIME_TARGET_MS,
  });
  return [row("one-word", r.one), row("two-word", r.two)];
}

/**
 * Waits until the server has indexed every noted page: a directory seeded by an older version
 * is migrated at start, and indexes added since are filled in the background (search_backfill;
 * about 5 s for 100,000 pages), during which search answers without them. Read from this
 * process through a read-only connection (WAL lets it read beside the server).
 */
async function indexSettled(dbPath: string, timeoutMs = 300_000): Promise<void> {
  const { Database } = await import("bun:sqlite");
  const db = new Database(dbPath, { readonly: true });
  try {
    const left = db.query<{ n: number }, []>("SELECT (SELECT count(*) FROM search_dirty) + (SELECT count(*) FROM search_backfill) AS n");
    for (const until = Date.now() + timeoutMs; left.get()!.n > 0; await Bun.sleep(250)) {
      if (Date.now() > until) throw new Error(`the search index was still catching up after ${timeoutMs / 1000} s`);
    }
  } finally {
    db.close();
  }
}

/** The ids of the corpus space's pages, oldest first (read beside the server, as indexSettled). */
function bigPageIds(dbPath: string): string[] {
  const { Database } = require("bun:sqlite") as typeof import("bun:sqlite");
  const db = new Database(dbPath, { readonly: true });
  try {
    return db
      .query<{ id: string }, []>("SELECT p.id FROM pages p JOIN spaces s ON s.id = p.space_id WHERE s.key = 'BIG' ORDER BY p.doc_id")
      .all()
      .map((r) => r.id);
  } finally {
    db.close();
  }
}

/** Drops a file's pages from the OS cache (POSIX_FADV_DONTNEED), whoever read them. */
function evictFromOsCache(path: string): void {
  const { dlopen, FFIType } = require("bun:ffi") as typeof import("bun:ffi");
  const { openSync, closeSync } = require("node:fs") as typeof import("node:fs");
  const libc = dlopen("libc.so.6", { posix_fadvise: { args: [FFIType.i32, FFIType.i64, FFIType.i64, FFIType.i32], returns: FFIType.i32 } });
  const fd = openSync(path, "r");
  try {
    const POSIX_FADV_DONTNEED = 4;
    const rc = libc.symbols.posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    if (rc !== 0) throw new Error(`posix_fadvise(${path}): ${rc}`);
  } finally {
    closeSync(fd);
    libc.close();
  }
}

async function main() {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const dataDir = resolve(arg("data") ?? join(tmpdir(), "cairn-search-100k"));
  const pages = Number(arg("pages") ?? 100_000);
  const samples = Number(arg("samples") ?? SAMPLES);
  const { preSeed } = await import("./seed-pages");
  const { HOST, freePort, spawnLogged, stop, waitFor200 } = await import("./procs");
  const { seedContext } = await import("./seed");
  if (!existsSync(join(dataDir, "cairn.db"))) {
    mkdirSync(dataDir, { recursive: true });
    console.log(`seeding ${pages.toLocaleString("en")} pages into ${dataDir} (kept for the next run)…`);
    await preSeed(dataDir, pages, console.log);
  }
  let binary = arg("binary") ? resolve(arg("binary")!) : null;
  if (!binary) {
    const { build } = await import("../build");
    binary = (await build({ quiet: true, distDir: join(tmpdir(), "cairn-search-100k-dist") })).outfile;
  }
  if (process.argv.includes("--cold")) evictFromOsCache(join(dataDir, "cairn.db"));
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const log = join(tmpdir(), "cairn-search-100k.log");
  const child = spawnLogged([binary, "serve", "--data", dataDir, "--host", HOST, "--port", String(port)], log, tmpdir());
  try {
    await waitFor200(`${url}/api/health`, child, 30_000);
    await indexSettled(join(dataDir, "cairn.db"));
    const ctx = await seedContext(url, false, true);
    if (arg("churn")) {
      const { churn } = await import("./search-churn");
      await churn(ctx, bigPageIds(join(dataDir, "cairn.db")), Number(arg("churn")), console.log);
      await indexSettled(join(dataDir, "cairn.db"));
    }
    const r = await measureFirstTimeSearch(url, ctx.auth(), samples, child.pid);
    const max = [r.one.maxMs, r.two.maxMs];
    const cpu = [r.cpuUs?.one, r.cpuUs?.two];
    firstTimeFigures(r, pages).forEach((f, i) =>
      console.log(
        `${f.figure}: ${f.value} (max ${max[i]} ms; server CPU ${cpu[i]} µs/query); target ${f.target}: ${f.met ? "met" : "MISSED"}`,
      ),
    );
    console.log(JSON.stringify(r));
  } finally {
    const code = await stop(child);
    if (code !== 0) console.error(`cairn exited with ${code} (see ${log})`);
  }
}

if (import.meta.main) await main();
