/**
 * Writer stall while backing up a 1 GB database (docs/decisions.md, "Writers wait at most 50 ms on
 * backing up"), against the built binary: `bun scripts/bench/backup-stall.ts [--binary=PATH]
 * [--gb=N] [--trace] [--lock=FILE]` (FILE held with flock(1) after the seeding, for the
 * measurement), and part of `bun run bench`'s full run. About 2–3 minutes.
 *
 * 1. A data directory made by the binary itself (its migrations), with an owner, a space, the
 *    pages the writers update and 40 pages whose history is seeded straight into SQLite, in big
 *    transactions, with the server stopped: ~130,000 versions of ~8 KB ProseMirror JSON, 1 GB.
 * 2. The binary serves it; a writer process (this file, --writer) updates pages over HTTP in 4
 *    loops without pause and records each write's start and latency.
 * 3. Three windows: writers alone (the baseline); POST /api/admin/backups/run until its job ends
 *    (Cairn's page-exact copy); and `VACUUM INTO` of the same database from a second connection
 *    (in this process, another than the writers'), the alternative docs/decisions.md weighs ("A
 *    backup is a page-exact copy of `cairn.db`").
 *    VACUUM INTO cannot be a base for point-in-time restore (its page layout differs from the
 *    live file's, so archived WAL frames cannot be replayed onto it): measured for comparison.
 * 4. Per window: the writes' max and p99 latency (a write counts in a window it overlaps), and
 *    when the slowest ones began (which phase of the backup they fall in).
 */
import { Database } from "bun:sqlite";
import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "../build";
import { freePort, HOST, killAll, removeAtExit, spawnLogged, stop, takeLock, waitFor200 } from "./procs";
import type { FigureRow } from "./report";

const PASSWORD = "correct horse battery staple";
const STALL_TARGET_MS = 50;
const WRITER_LOOPS = 4;
const now = () => performance.timeOrigin + performance.now();

interface Sample {
  at: number;
  ms: number;
}
interface WriterPlan {
  url: string;
  cookie: string;
  pageIds: string[];
}

async function api(url: string, cookie: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(url + path, {
    method,
    headers: { cookie: `cairn_session=${cookie}`, "x-requested-with": "Cairn", ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Starts a backup; answers the running one's id instead when the server is taking one already. */
async function startBackup(env: { url: string; cookie: string }): Promise<{ job: any; busyWith: string | null }> {
  const res = await fetch(`${env.url}/api/admin/backups/run`, {
    method: "POST",
    headers: { cookie: `cairn_session=${env.cookie}`, "x-requested-with": "Cairn" },
  });
  const body = (await res.json()) as any;
  if (res.status === 409 && body?.code === "backup_running" && body.job?.id) return { job: null, busyWith: body.job.id as string };
  if (res.status >= 300) throw new Error(`POST /api/admin/backups/run: ${res.status} ${JSON.stringify(body)}`);
  return { job: body.job, busyWith: null };
}

async function waitForJob(env: { url: string; cookie: string }, id: string): Promise<void> {
  for (;;) {
    const job = await api(env.url, env.cookie, "GET", `/api/admin/backups/jobs/${id}`);
    if (job.state !== "running" && job.state !== "queued") return;
    await Bun.sleep(200);
  }
}

/** A ProseMirror document of about `bytes`, different for each `n` (so nothing is shared). */
function docJson(n: number, bytes: number): string {
  const words = [
    "backup",
    "restore",
    "cairn",
    "wiki",
    "page",
    "version",
    "history",
    "garden",
    "server",
    "snapshot",
    "frame",
    "commit",
    "writer",
    "reader",
  ];
  const content: unknown[] = [];
  let size = 0;
  for (let p = 0; size < bytes; p++) {
    let text = `${n}.${p} `;
    for (let w = 0; w < 40; w++) text += `${words[(n * 7 + p * 13 + w * 3) % words.length]} `;
    content.push({ type: "paragraph", content: [{ type: "text", text }] });
    size += text.length + 60;
  }
  return JSON.stringify({ type: "doc", content });
}

/** 1: the binary migrates a fresh directory; pages made over HTTP; history seeded into SQLite. */
async function prepare(binary: string, logPath: string, gb: number, log: (line: string) => void) {
  const dataDir = mkdtempSync(join(tmpdir(), "cairn-bench-backup-"));
  removeAtExit(dataDir);
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  let child = spawnLogged([binary, "serve", "--data", dataDir, "--host", HOST, "--port", String(port)], logPath, tmpdir());
  await waitFor200(`${url}/api/health`, child, 10_000);
  const reg = await fetch(`${url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
    body: JSON.stringify({ email: "bench@example.com", displayName: "Bench", password: PASSWORD }),
  });
  const cookie = /cairn_session=([^;]*)/.exec(reg.headers.get("set-cookie") ?? "")?.[1];
  if (!cookie) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const owner = (await reg.json()).id as string;
  const space = await api(url, cookie, "POST", "/api/spaces", { key: "BAK", name: "Backups bench" });
  const page = (title: string) =>
    api(url, cookie, "POST", "/api/pages", { spaceId: space.id, title, contentMarkdown: `# ${title}\n\nThe first version.` });
  const writerPages: string[] = [];
  for (let i = 0; i < 8; i++) writerPages.push((await page(`Written ${i}`)).id);
  const historyPages: string[] = [];
  for (let i = 0; i < 40; i++) historyPages.push((await page(`History ${i}`)).id);
  if ((await stop(child)) !== 0) throw new Error(`cairn exited badly after seeding pages (see ${logPath})`);

  const started = performance.now();
  const dbPath = join(dataDir, "cairn.db");
  const db = new Database(dbPath);
  db.exec("PRAGMA synchronous = OFF");
  const insert = db.prepare(
    "INSERT INTO page_versions (page_id, version_number, title, content_json, " +
      "change_comment, author_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const target = gb * 1024 ** 3;
  const rowBytes = 8_000;
  const rows = Math.ceil(target / (rowBytes + 150));
  const perPage = Math.ceil(rows / historyPages.length);
  const day = Date.parse("2025-01-01T00:00:00Z");
  for (const [pi, pageId] of historyPages.entries()) {
    db.transaction(() => {
      for (let v = 2; v < perPage + 2; v++)
        insert.run(
          pageId,
          v,
          `History ${pi}`,
          docJson(pi * perPage + v, rowBytes),
          v % 5 ? null : "edited",
          owner,
          new Date(day + v * 60_000).toISOString(),
        );
    })();
    db.query("UPDATE pages SET current_version = ? WHERE id = ?").run(perPage + 1, pageId);
  }
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
  // On disk before the server starts: 1 GB left dirty in the page cache would be written back
  // during the measurement (the first fsync anybody makes waits for it), which is the seeding's
  // cost, not the backup's.
  const fd = openSync(dbPath, "r+");
  fsyncSync(fd);
  closeSync(fd);
  const bytes = statSync(dbPath).size;
  log(`seeded ${rows} versions, ${(bytes / 1024 ** 3).toFixed(2)} GB, in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  child = spawnLogged([binary, "serve", "--data", dataDir, "--host", HOST, "--port", String(port)], logPath, tmpdir());
  await waitFor200(`${url}/api/health`, child, 60_000);
  const login = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
    body: JSON.stringify({ email: "bench@example.com", password: PASSWORD }),
  });
  const session = /cairn_session=([^;]*)/.exec(login.headers.get("set-cookie") ?? "")?.[1];
  if (!session) throw new Error(`login: ${login.status} ${await login.text()}`);
  return { dataDir, dbPath, bytes, url, child, cookie: session, writerPages };
}

/** The writer process: loops of page updates until SIGTERM, then prints its samples. */
async function runWriter(plan: WriterPlan): Promise<void> {
  const samples: Sample[] = [];
  let stopping = false;
  process.on("SIGTERM", () => (stopping = true));
  let n = 0;
  const loop = async (pageId: string) => {
    while (!stopping) {
      const at = now();
      await api(plan.url, plan.cookie, "PUT", `/api/pages/${pageId}`, { contentMarkdown: `# Written\n\nEdit ${++n} at ${at}.` });
      samples.push({ at, ms: now() - at });
    }
  };
  await Promise.all(plan.pageIds.slice(0, WRITER_LOOPS).map(loop));
  await Bun.write(Bun.stdout, JSON.stringify(samples));
}

const tenth = (n: number) => Math.round(n * 10) / 10;

/** The writes overlapping [from, to): how many, max, p99, and when the five slowest began (s after `from`). */
function window(samples: Sample[], from: number, to: number) {
  const overlapping = samples.filter((s) => s.at < to && s.at + s.ms > from);
  const inside = overlapping.map((s) => s.ms).sort((a, b) => a - b);
  const p99 = inside.length ? inside[Math.min(inside.length - 1, Math.floor(inside.length * 0.99))] : 0;
  const slowest = [...overlapping]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5)
    .map((s) => ({ atS: tenth((s.at - from) / 1000), ms: tenth(s.ms) }));
  return { writes: inside.length, maxMs: tenth(inside.at(-1) ?? 0), p99Ms: tenth(p99), slowest };
}

/** `lock`: a flock(1) file taken after the seeding, for the measurement only. */
export async function measureBackupStall(
  binary: string,
  logPath: string,
  opts: { gb?: number; baselineSec?: number; trace?: boolean; lock?: string; log?: (line: string) => void } = {},
) {
  const log = opts.log ?? console.log;
  const gb = opts.gb ?? 1;
  const env = await prepare(binary, logPath, gb, log);
  const unlock = opts.lock ? await takeLock(opts.lock, log) : () => {};
  const writer = Bun.spawn(["bun", import.meta.path, "--writer"], {
    stdin: new Blob([JSON.stringify({ url: env.url, cookie: env.cookie, pageIds: env.writerPages } satisfies WriterPlan)]),
    stdout: "pipe",
    stderr: "inherit",
  });
  try {
    // Warm-up: the first seconds after a start on 1 GB are slower (a cold page cache), not the backup's doing.
    await Bun.sleep(8_000);
    let baseFrom = now();
    await Bun.sleep((opts.baselineSec ?? 10) * 1000);
    let baseTo = now();

    // 1 GB of writes past the last backup makes the server take an automatic base of its own
    // (backups/archive-bound.ts) soon after the start: the bench waits for it, then measures
    // a quiet baseline again, so neither window holds a backup it did not ask for.
    let run = await startBackup(env);
    let automatic = false;
    if (run.busyWith) {
      log(`an automatic backup (job ${run.busyWith}) is running: waiting for it, then a new baseline`);
      await waitForJob(env, run.busyWith);
      baseFrom = now();
      await Bun.sleep((opts.baselineSec ?? 10) * 1000);
      baseTo = now();
      run = await startBackup(env);
      if (run.busyWith) {
        // Under the writer's load at 1 GB the server takes its automatic bases back to back
        // (each PUT archives ~68 KB of log, so a quarter of the archive's 2 GB limit fills in
        // ~15 s): the one running is a backup of the same database under the same writers, so
        // it is the one measured, from the moment it is seen (its first moments fall outside
        // the window, and the baseline before it may hold the end of the one before).
        log(`another automatic backup (job ${run.busyWith}) is running: measured instead of one of our own`);
        automatic = true;
        run = { job: await api(env.url, env.cookie, "GET", `/api/admin/backups/jobs/${run.busyWith}`), busyWith: null };
      }
    }
    const backupFrom = now();
    let job = run.job;
    while (job.state === "running" || job.state === "queued") {
      await Bun.sleep(100);
      job = await api(env.url, env.cookie, "GET", `/api/admin/backups/jobs/${job.id}`);
    }
    const backupTo = now();
    if (job.state !== "succeeded") throw new Error(`backup job ${job.state}: ${JSON.stringify(job.error)}`);
    // The server's own account of the backup's phases (copyMs, describeMs, completeMs).
    const taken = readFileSync(logPath, "utf8")
      .split("\n")
      .filter((l) => l.includes('"backup taken"'))
      .at(-1);
    const phases = taken ? (JSON.parse(taken) as Record<string, unknown>) : null;
    log(
      `${automatic ? "automatic " : ""}backup ${job.result.backup.label}: ${((backupTo - backupFrom) / 1000).toFixed(1)} s ` +
        `${phases ? JSON.stringify({ copyMs: phases.copyMs, describeMs: phases.describeMs, completeMs: phases.completeMs }) : ""}`,
    );
    await Bun.sleep(2_000);

    // VACUUM INTO from a second connection (this process; the writers are in theirs).
    const vacuumPath = join(env.dataDir, "vacuum-into.db");
    const second = new Database(env.dbPath);
    second.exec("PRAGMA busy_timeout = 5000");
    const vacuumFrom = now();
    second.query("VACUUM INTO ?").run(vacuumPath);
    const vacuumTo = now();
    second.close();
    const vacuumBytes = statSync(vacuumPath).size;
    rmSync(vacuumPath, { force: true });
    log(`VACUUM INTO: ${((vacuumTo - vacuumFrom) / 1000).toFixed(1)} s`);
    await Bun.sleep(1_000);

    writer.kill("SIGTERM");
    const samples = JSON.parse(await new Response(writer.stdout).text()) as Sample[];
    // --trace: when the slow writes happened, relative to the backup's start (where does it stall?).
    if (opts.trace)
      for (const sm of samples.filter((x) => x.ms > STALL_TARGET_MS))
        log(`slow write at +${((sm.at - backupFrom) / 1000).toFixed(2)} s: ${sm.ms.toFixed(0)} ms`);
    const base = window(samples, baseFrom, baseTo);
    const during = window(samples, backupFrom, backupTo);
    const vacuum = window(samples, vacuumFrom, vacuumTo);
    const backupSec = (backupTo - backupFrom) / 1000;
    const gbText = `${(env.bytes / 1024 ** 3).toFixed(2)} GB`;
    // On a shared machine the writers' own latency moves with the load: reported beside the figures.
    const load = loadavg()[0].toFixed(1);
    const figures: FigureRow[] = [
      {
        figure:
          `writer stall while backing up a ${gbText} database (page-exact ` +
          `copy${automatic ? ", an automatic base the server took" : ""}; ${WRITER_LOOPS} writers updating pages over HTTP)`,
        value:
          `max ${during.maxMs} ms, p99 ${during.p99Ms} ms over ${during.writes} writes ` +
          `(without a backup: max ${base.maxMs} ms, p99 ${base.p99Ms} ms)`,
        target: `max ≤ ${STALL_TARGET_MS} ms`,
        met: during.maxMs <= STALL_TARGET_MS,
      },
      {
        figure: `backup of ${gbText}: duration and size`,
        value: `${backupSec.toFixed(1)} s, ${(job.result.backup.bytes / 1024 ** 3).toFixed(2)} GB (machine load ${load})`,
        target: "",
        met: null,
      },
      {
        figure: "for comparison: VACUUM INTO of the same database from a second connection (not a point-in-time base)",
        value:
          `writers max ${vacuum.maxMs} ms, p99 ${vacuum.p99Ms} ms over ${vacuum.writes} writes; ` +
          `${((vacuumTo - vacuumFrom) / 1000).toFixed(1)} s, ${(vacuumBytes / 1024 ** 3).toFixed(2)} GB`,
        target: "",
        met: null,
      },
    ];
    const extras = {
      backupStall: {
        databaseBytes: env.bytes,
        load: Number(load),
        baseline: base,
        backup: { ...during, seconds: backupSec, bytes: job.result.backup.bytes, phases },
        vacuumInto: { ...vacuum, seconds: (vacuumTo - vacuumFrom) / 1000, bytes: vacuumBytes },
      },
    };
    return { figures, extras };
  } finally {
    writer.kill("SIGKILL");
    unlock();
    await stop(env.child);
    rmSync(env.dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main && process.argv.includes("--writer")) {
  await runWriter(JSON.parse(await new Response(Bun.stdin.stream()).text()) as WriterPlan);
  process.exit(0);
} else if (import.meta.main) {
  const root = join(import.meta.dir, "..", "..");
  const out = join(root, ".bench");
  mkdirSync(out, { recursive: true });
  const givenArg = process.argv.find((a) => a.startsWith("--binary="))?.slice("--binary=".length);
  const given = givenArg ? resolve(givenArg) : undefined; // the binary runs from another cwd
  const gb = Number(process.argv.find((a) => a.startsWith("--gb="))?.slice("--gb=".length) ?? 1);
  const logPath = join(out, "backup-stall.log");
  writeFileSync(logPath, "");
  try {
    const binary = given ?? (await build({ quiet: true, distDir: join(out, "backup-dist") })).outfile;
    const lock = process.argv.find((a) => a.startsWith("--lock="))?.slice("--lock=".length);
    const result = await measureBackupStall(binary, logPath, { gb, trace: process.argv.includes("--trace"), lock });
    for (const f of result.figures)
      console.log(
        `${f.met === null ? "      " : f.met ? "MET   " : "MISSED"} ${f.figure}: ${f.value}${f.target ? ` (target ${f.target})` : ""}`,
      );
    console.log(JSON.stringify(result.extras));
    process.exit(result.figures.every((f) => f.met !== false) ? 0 : 1);
  } catch (err) {
    console.error(err);
    killAll();
    process.exit(1);
  }
}
