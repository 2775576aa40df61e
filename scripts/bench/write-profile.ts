/**
 * What a page write costs, in figures that do not depend on a quiet machine:
 * `bun scripts/bench/write-profile.ts [puts=2000] [runs=3] [--dir=/dev/shm] [--no-archive] [--trace] [--from=SEEDED]`.
 *
 * Drives the real app in-process (tests/harness.ts, commits grouped as in the server, the WAL
 * archive kept as the server keeps it) with PUT /api/pages/{id} of a fresh title and a fresh
 * 500-word document each time (the bench's PUT), one at a time, and reports:
 *   - the process's CPU time per PUT (user + system of every thread: the checkpointing thread
 *     and the kernel's share of writing the log and the archive count), the median of `runs`;
 *   - SQL statements per PUT, counted at the driver (every run/get/all/values of a statement,
 *     and every exec), including the search catch-up and the checkpoints the PUTs cause;
 *   - with --trace, one PUT's statements by text, and the statements' own CPU time per PUT over
 *     the counted PUTs (where a PUT's time goes, statement by statement; the process's CPU clock
 *     moves in ticks of a few ms here, so only the sum over hundreds of PUTs means anything, and
 *     other threads' time, the checkpointer's, lands on whatever statement is running);
 *   - with --from, in a copy of a directory seeded by seed-dir.ts (SEEDED/data, SEEDED/pre.json:
 *     e.g. 100,000 pages), writing 64 of its BIG space's pages, to see what grows with its size.
 * CPU time on a shared machine is still noise (other processes take the caches and the cores):
 * compare runs made close together, alternating builds.
 */
import { Database } from "bun:sqlite";
import { sampleDocument } from "../../src/content/sample";
import { keptAnswerStats } from "../../src/platform/db/kept-answers";
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, cookieFrom, makeEnv, mintToken, signUp, type TestEnv } from "../../tests/harness";
import { OWNER } from "./seed";

const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const numbers = args.filter((a) => /^\d+$/.test(a)).map(Number);
const PUTS = numbers[0] ?? 2000;
const RUNS = numbers[1] ?? 3;
const archiveWal = !args.includes("--no-archive");
if (flag("dir")) process.env.TMPDIR = flag("dir");

// Statement counting at the driver: a counter bumped by every execution.
let counting = false;
let statements = 0;
let trace: Map<string, number> | null = null;
/** With --trace, each statement's own CPU time (µs, the process's) over the counted PUTs, by text. */
const timed = args.includes("--trace") ? new Map<string, number>() : null;
function counted<F extends (...a: any[]) => any>(fn: F, textOf: (self: any, a: any[]) => string): F {
  return function (this: any, ...a: any[]) {
    if (!counting) return fn.apply(this, a);
    statements++;
    const text = trace || timed ? textOf(this, a).replace(/\s+/g, " ").slice(0, 160) : "";
    if (trace) trace.set(text, (trace.get(text) ?? 0) + 1);
    if (!timed) return fn.apply(this, a);
    const t0 = process.cpuUsage();
    try {
      return fn.apply(this, a);
    } finally {
      const used = process.cpuUsage(t0);
      timed.set(text, (timed.get(text) ?? 0) + used.user + used.system);
    }
  } as F;
}
// bun:sqlite gives each statement its own run/get/all/values (set in its constructor), so
// they are wrapped as statements are made.
const wrapped = new WeakSet<object>();
for (const name of ["prepare", "query"] as const) {
  const original = (Database.prototype as any)[name];
  (Database.prototype as any)[name] = function (this: Database, text: string, ...rest: unknown[]) {
    const stmt = original.call(this, text, ...rest);
    if (stmt && typeof stmt === "object" && !wrapped.has(stmt)) {
      wrapped.add(stmt);
      for (const method of ["run", "get", "all", "values", "iterate", "raw"]) {
        if (typeof stmt[method] === "function") stmt[method] = counted(stmt[method].bind(stmt), () => text);
      }
    }
    return stmt;
  };
}
for (const name of ["run", "exec"] as const) {
  (Database.prototype as any)[name] = counted((Database.prototype as any)[name], (_self, a) => String(a[0]));
}

function putBody(seed: number, n: number): string {
  const doc = sampleDocument(seed, 500);
  doc.content.push({ type: "paragraph", content: [{ type: "text", text: `Edit ${n}` }] });
  const title = `${doc.content[0]?.content?.[0]?.text ?? "Page"} v${seed} e${n}`;
  return JSON.stringify({ title, contentJson: JSON.stringify(doc) });
}

async function setUp(): Promise<{ env: TestEnv; token: string; pageIds: string[] }> {
  const from = flag("from");
  if (from) {
    const dir = mkdtempSync(join(flag("dir") ?? tmpdir(), "cairn-write-profile-"));
    cpSync(join(from, "data"), dir, { recursive: true });
    const big: string[] = JSON.parse(readFileSync(join(from, "pre.json"), "utf8")).big.pageIds;
    const env = makeEnv({ dir, archiveWal });
    const login = await call(env, "POST", "/api/auth/login", { body: { email: OWNER.email, password: OWNER.password } });
    const token = await mintToken(env, { cookie: cookieFrom(login) });
    const step = Math.floor(big.length / 64);
    return { env, token, pageIds: Array.from({ length: 64 }, (_, i) => big[i * step]) };
  }
  const env = makeEnv({ archiveWal });
  const owner = await signUp(env, "owner@example.com");
  const token = await mintToken(env, owner);
  const space = await call(env, "POST", "/api/spaces", { as: owner, body: { key: "BENCH", name: "Bench" } });
  if (space.status !== 201) throw new Error(`space: ${space.status} ${space.text}`);
  const pageIds: string[] = [];
  for (let i = 0; i < 64; i++) {
    const res = await call(env, "POST", "/api/pages", { as: { token }, body: { spaceId: space.body.id, title: `Page ${i}` } });
    if (res.status !== 201) throw new Error(`page: ${res.status} ${res.text}`);
    pageIds.push(res.body.id);
  }
  return { env, token, pageIds };
}

let n = 0;
/** Bodies made before the clock starts: building 500-word documents is the client's work. */
function bodies(count: number, pageIds: string[]): Array<[string, string]> {
  return Array.from({ length: count }, (_, i) => [pageIds[i % pageIds.length], putBody(7_000_000 + (i % 64), ++n)]);
}

async function puts(env: TestEnv, token: string, list: Array<[string, string]>): Promise<void> {
  for (const [id, body] of list) {
    const res = await env.handle(
      new Request(`http://cairn.test/api/pages/${id}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body,
      }),
    );
    if (res.status !== 200) throw new Error(`PUT: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  }
}

/** Lets the search catch-up (50 ms after a write) and background closes run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 120));

const { env, token, pageIds } = await setUp();
await puts(env, token, bodies(300, pageIds));
await settle();

const cpu: number[] = [];
for (let r = 0; r < RUNS; r++) {
  const list = bodies(PUTS, pageIds);
  Bun.gc(true);
  const before = process.cpuUsage();
  await puts(env, token, list);
  await settle();
  const used = process.cpuUsage(before);
  cpu.push((used.user + used.system) / PUTS);
}

const list = bodies(500, pageIds);
const keptBefore = keptAnswerStats();
counting = true;
await puts(env, token, list);
await settle();
counting = false;
const perPut = statements / list.length;
// Kept answers worked out again per PUT (a miss: its statements ran again), by cache.
const keptMisses = Object.fromEntries(
  Object.entries(keptAnswerStats())
    .map(([name, s]) => [name, Number(((s.misses - (keptBefore[name]?.misses ?? 0)) / list.length).toFixed(2))] as const)
    .filter(([, v]) => v > 0),
);

let traced: Array<[string, number]> = [];
if (args.includes("--trace")) {
  trace = new Map();
  counting = true;
  await puts(env, token, bodies(1, pageIds));
  await settle();
  counting = false;
  traced = [...trace].sort((a, b) => b[1] - a[1]);
}
env.close();

const sorted = [...cpu].sort((a, b) => a - b);
console.log(
  JSON.stringify(
    {
      archiveWal,
      puts: PUTS,
      runs: RUNS,
      cpuMicrosPerPut: sorted.map(Math.round),
      medianCpuMicrosPerPut: Math.round(sorted[Math.floor(sorted.length / 2)]),
      statementsPerPut: Number(perPut.toFixed(2)),
      keptMissesPerPut: keptMisses,
    },
    null,
    2,
  ),
);
for (const [text, count] of traced) console.log(String(count).padStart(3), text);
if (timed) {
  console.log("CPU µs per PUT, by statement (the counted PUTs, each statement's own):");
  for (const [text, us] of [...timed].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(String(Math.round(us / list.length)).padStart(6), text);
}
