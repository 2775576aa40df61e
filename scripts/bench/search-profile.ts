/**
 * Where a first-time search's time goes, in-process over a seeded data directory (search-100k.ts
 * seeds one): the bench's own first-time queries (never asked, so no kept answer), each through
 * search() as the route runs it, with every SQL statement timed at the driver and grouped by its
 * text (the values bound left out). Prints, per kind (one word, two words): statements per
 * query, the time of the query, and the statements that took the most of it.
 *
 *   bun scripts/bench/search-profile.ts --data=DIR [--samples=200] [--list] [--slowest[=wall]] [--dump=FILE] [--cache=KiB] [--mmap=MiB]
 *
 * --list prints the statements of the first two-word query in the order they ran; --slowest,
 * those of the slowest twentieth of each kind by CPU time (--slowest=wall: by wall time), each
 * statement's CPU then wall time (the difference: waiting, for the disk or for a core) and
 * what it had read from the disk; --dump=FILE writes every query's hits (page ids and
 * snippets) as JSON, to compare two versions' answers. Statements and queries are timed in this
 * thread's CPU time (wall time on a shared machine is mostly waiting): read them as shares, not
 * as figures (the bench gives those, over HTTP).
 */
import { Database } from "bun:sqlite";
import { dlopen, FFIType, ptr } from "bun:ffi";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { openInstance } from "../../src/instance";
import { loadConfig } from "../../src/platform/config";
import { silentLogger } from "../../src/platform/log";
import { search } from "../../src/search/service";
import { findUserWithRoleByEmail } from "../../src/users/service";
import { firstTimeQueries } from "./search-100k";
import { ownerCaller } from "./seed-pages";
import { OWNER } from "./seed";

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const dataDir = resolve(arg("data") ?? "");
const samples = Number(arg("samples") ?? 200);
const dump = arg("dump");
const answers: Record<string, Array<[string, string]>> = {};

type Timing = { calls: number; ms: number };
let timings: Map<string, Timing> | null = null;
let order: string[] | null = null;
/** The statements (shapes) of the query running, for --slowest. */
let current: Array<{ key: string; ms: number; wallMs: number; diskKb: number }> = [];
/** Disk bytes read, by statement shape (--slowest only: reading /proc per statement costs). */
const diskByShape = new Map<string, number>();

/** Statement text without what was bound (numbers, strings), so one statement is one key. */
const shape = (text: string) =>
  text
    .replace(/'(?:[^']|'')*'/g, "?")
    .replace(/\b\d+(\.\d+)?\b/g, "?")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 160);

/**
 * This thread's CPU time (ms): steadier than wall time on a shared machine. Read with
 * clock_gettime(CLOCK_THREAD_CPUTIME_ID) through FFI: getrusage (process.threadCpuUsage) and
 * /proc's schedstat are counted in ticks of 4 ms on this kernel, so a statement's time read
 * with them was 0 or 4 ms.
 */
const libc = dlopen("libc.so.6", { clock_gettime: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 } });
const timespec = new BigInt64Array(2);
const CLOCK_THREAD_CPUTIME_ID = 3;
function threadCpuMs(): number {
  libc.symbols.clock_gettime(CLOCK_THREAD_CPUTIME_ID, ptr(timespec));
  return Number(timespec[0]) * 1000 + Number(timespec[1]) / 1e6;
}

/** Bytes this process has had read from the storage device (the OS cache missed): /proc/self/io. */
function diskReadBytes(): number {
  return Number(/read_bytes: (\d+)/.exec(readFileSync("/proc/self/io", "latin1"))?.[1] ?? 0);
}

const perStatementDisk = process.argv.some((a) => a.startsWith("--slowest"));

function wrapStatements(): void {
  const probe = new Database(":memory:");
  const statement = probe.prepare("SELECT 1");
  const prototype = Object.getPrototypeOf(statement.native) as Record<string, (...args: unknown[]) => unknown>;
  statement.finalize();
  probe.close();
  for (const name of ["run", "get", "all", "values", "raw", "iterate"]) {
    const original = prototype[name];
    prototype[name] = function timed(this: unknown, ...args: unknown[]) {
      if (!timings) return original.apply(this, args);
      const d0 = perStatementDisk ? diskReadBytes() : 0;
      const t0 = threadCpuMs();
      const w0 = performance.now();
      const result = original.apply(this, args);
      const wallMs = performance.now() - w0;
      const ms = threadCpuMs() - t0;
      const diskKb = perStatementDisk ? (diskReadBytes() - d0) / 1024 : 0;
      const key = shape(String(this));
      const t = timings.get(key) ?? { calls: 0, ms: 0 };
      t.calls++;
      t.ms += ms;
      timings.set(key, t);
      current.push({ key, ms, wallMs, diskKb });
      if (diskKb) diskByShape.set(key, (diskByShape.get(key) ?? 0) + diskKb);
      order?.push(
        String(this)
          .replace(/\s+/g, " ")
          .slice(0, process.argv.includes("--full") ? 100_000 : 300),
      );
      return result;
    };
  }
}

const core = openInstance(loadConfig(["--data", dataDir], {}), { log: silentLogger });
try {
  const owner = findUserWithRoleByEmail(core, OWNER.email)?.user;
  if (!owner) throw new Error(`no owner ${OWNER.email} in ${dataDir}`);
  const caller = ownerCaller(core, owner.id);
  // --cache=KiB: the connection's page cache (SQLite's default is 2,000 KiB), to see what a larger one saves.
  if (arg("cache")) core.sqlite.exec(`PRAGMA cache_size = -${Number(arg("cache"))}`);
  // --mmap=MiB: the database read through a memory map of that size (SQLite's default is none).
  if (arg("mmap")) core.sqlite.exec(`PRAGMA mmap_size = ${Number(arg("mmap")) * 1024 * 1024}`);
  wrapStatements();
  const queries = firstTimeQueries(samples);
  for (const q of queries.warmUp) search(core, caller, { q });
  for (const [kind, list] of [
    ["one word", queries.one],
    ["two words", queries.two],
  ] as const) {
    timings = new Map();
    const times: number[] = [];
    const slow: Array<{ q: string; ms: number; cpuMs: number; diskKb: number; statements: typeof current }> = [];
    let hits = 0;
    for (const q of list) {
      if (process.argv.includes("--list") && kind === "two words" && !order) order = [];
      current = [];
      const d0 = diskReadBytes();
      const c0 = threadCpuMs();
      const t0 = performance.now();
      const found = search(core, caller, { q });
      hits += found.length;
      times.push(performance.now() - t0);
      const cpuMs = threadCpuMs() - c0;
      if (dump) answers[q] = found.map((h) => [h.pageId, h.snippet]);
      slow.push({ q, ms: times[times.length - 1], cpuMs, diskKb: (diskReadBytes() - d0) / 1024, statements: current });
      if (order) {
        console.log(`statements of "${q}":`);
        order.forEach((s, i) => console.log(`  ${i + 1}. ${s}`));
        order = null;
        process.argv.splice(process.argv.indexOf("--list"), 1);
      }
    }
    const sorted = [...times].sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(2);
    const calls = [...timings.values()].reduce((a, t) => a + t.calls, 0);
    const sqlMs = [...timings.values()].reduce((a, t) => a + t.ms, 0);
    const cpuTotal = slow.reduce((a, x) => a + x.cpuMs, 0);
    console.log(
      `\n${kind}: ${list.length} queries, p50 ${at(0.5)} p95 ${at(0.95)} p99 ${at(0.99)} ms; ` +
        `${(calls / list.length).toFixed(1)} statements and ${(hits / list.length).toFixed(1)} hits per ` +
        `query; SQL ${((sqlMs / cpuTotal) * 100).toFixed(0)} % of the CPU time`,
    );
    const cpuSorted = slow.map((x) => x.cpuMs).sort((a, b) => a - b);
    const cpuAt = (p: number) => cpuSorted[Math.min(cpuSorted.length - 1, Math.floor(p * cpuSorted.length))].toFixed(2);
    const fromDisk = slow.filter((x) => x.diskKb > 0);
    console.log(
      `  read from the disk (the OS cache missed): ${fromDisk.length} of ${slow.length} queries, ` +
        `${(fromDisk.reduce((a, x) => a + x.diskKb, 0) / slow.length).toFixed(0)} KB a query on average`,
    );
    console.log(
      `  CPU per query: p50 ${cpuAt(0.5)} p95 ${cpuAt(0.95)} p99 ${cpuAt(0.99)} mean ` +
        `${(cpuSorted.reduce((a, b) => a + b, 0) / cpuSorted.length).toFixed(2)} ms`,
    );
    if (process.argv.some((a) => a.startsWith("--slowest"))) {
      const byWall = process.argv.includes("--slowest=wall");
      for (const x of slow.sort((a, b) => (byWall ? b.ms - a.ms : b.cpuMs - a.cpuMs)).slice(0, Math.ceil(slow.length / 20))) {
        const inSql = x.statements.reduce((a, st) => a + st.ms, 0);
        console.log(
          `  "${x.q}": ${x.ms.toFixed(2)} ms, CPU ${x.cpuMs.toFixed(2)} ms, ${x.diskKb.toFixed(0)} KB from ` +
            `the disk (SQL ${inSql.toFixed(2)}, the rest ${(x.cpuMs - inSql).toFixed(2)})`,
        );
        for (const st of x.statements)
          console.log(
            `      ${st.ms.toFixed(2).padStart(6)} ${st.wallMs.toFixed(2).padStart(6)} ` +
              `${st.diskKb.toFixed(0).padStart(4)} KB  ${st.key.slice(0, 110)}`,
          );
      }
    }
    for (const [text, kb] of [...diskByShape].sort((a, b) => b[1] - a[1]).slice(0, 5))
      console.log(`  ${(kb / list.length).toFixed(1).padStart(6)} KB a query from the disk  ${text.slice(0, 110)}`);
    diskByShape.clear();
    for (const [text, t] of [...timings].sort((a, b) => b[1].ms - a[1].ms).slice(0, 14)) {
      console.log(
        `  ${(t.ms / list.length).toFixed(3).padStart(7)} ms CPU/query ${(t.calls / list.length).toFixed(2).padStart(5)}×  ${text}`,
      );
    }
  }
  timings = null;
  if (dump) await Bun.write(dump, JSON.stringify(answers));
} finally {
  core.close();
}
process.exit(0);
