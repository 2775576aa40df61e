/**
 * `bun run bench -- --store-spike [--n=4000] [--pages=5000]`: what it would cost to make the
 * stores' functions `async` now (a second, PostgreSQL set of stores needs them so), measured on
 * the pages store in-process, against a real instance in a temporary directory.
 *
 * The model: the SQLite stores stay synchronous underneath, only their signatures become async,
 * so every store call a service makes becomes an `await` of a promise that is already settled;
 * write transactions are serialised by one async write lock (a transaction that awaits must not
 * let another writer's statements into it). The spike counts the statements each operation runs
 * at the driver and awaits once per statement (the finest a store call can be, so an upper bound
 * of the awaits an async port adds), around the real synchronous operation. Three figures,
 * synchronous against async, in CPU µs per operation (this process's utime+stime, steadier than
 * wall time on a shared machine):
 * - a page read (findPage, the store read every page request starts with);
 * - a PUT (updatePage, a new version each time: access, version row, event, audit, search
 *   backlog, notifications);
 * - seeding (createPages, 500 pages per transaction).
 * And whether group commit survives: 64 PUTs started in one turn of the event loop through the
 * async lock, counting the COMMITs they cost (one means they still share one fsync).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openInstance } from "../../src/instance";
import { loadConfig } from "../../src/platform/config";
import { silentLogger } from "../../src/platform/log";
import { hashPasswordsCheaplyForTests } from "../../src/identity/password";
import { startCountingStatements } from "../../src/platform/db/statement-count";
import { createPages, updatePage } from "../../src/pages/service";
import { findPage } from "../../src/pages/store";
import { createSpace } from "../../src/commands/create-space";
import { register } from "../../src/users/service";
import { batchInputs, ownerCaller } from "./seed-pages";

export interface StoreSpikeFigures {
  read: { syncUs: number; asyncUs: number; statements: number };
  put: { syncUs: number; asyncUs: number; statements: number };
  seed: { syncUsPerPage: number; asyncUsPerPage: number; statementsPerPage: number };
  groupCommit: { puts: number; commits: number };
}

/** One writer at a time across awaits; a waiter runs as soon as the holder settles. */
class WriteLock {
  private tail: Promise<void> = Promise.resolve();
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const before = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((r) => (release = r));
    await before;
    try {
      return await fn();
    } finally {
      release();
    }
  }
}

async function awaits(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await Promise.resolve(i);
}

function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

export async function runStoreSpike(argv: string[]): Promise<StoreSpikeFigures> {
  const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const n = Number(option("n") ?? 4000);
  const seedPages = Number(option("pages") ?? 5000);
  hashPasswordsCheaplyForTests();
  const dir = mkdtempSync(join(tmpdir(), "cairn-store-spike-"));
  const core = openInstance(loadConfig(["--data", dir], {}), { groupCommits: true, log: silentLogger, archiveWal: true });
  try {
    const { user } = await register(core, {
      email: "owner@example.com",
      password: "correct horse battery staple",
      displayName: "Owner",
      ip: "127.0.0.1",
    });
    const owner = ownerCaller(core, user.id);
    const space = createSpace(core, owner, { key: "SPIKE", name: "Spike" });
    const shape = { roots: 10, fanout: 5, seedBase: 7 };
    const ids: string[] = [];
    for (const p of createPages(core, owner, space.id, batchInputs(0, 200, shape, ids))) ids.push(p.id);
    await core.commits.durable();
    const lock = new WriteLock();

    let version = 0;
    const doc = (i: number) =>
      JSON.stringify({
        type: "doc",
        content: [{ type: "paragraph", content: [{ type: "text", text: `Edit ${i} of a page about rivers and stones.` }] }],
      });
    const put = (i: number) => updatePage(core, owner, ids[10 + (i % 100)], { contentJson: doc(version++) });
    // Warm first (statements prepared, kept answers built), then count statements per operation
    // at the driver, once each.
    for (let i = 0; i < 300; i++) {
      findPage(core, ids[i % ids.length]);
      put(i);
    }
    await core.commits.durable();
    const counter = startCountingStatements();
    findPage(core, ids[3]);
    const readStatements = counter.count;
    counter.reset();
    put(0);
    const putStatements = counter.count;
    counter.reset();
    createPages(core, owner, space.id, batchInputs(200, 300, shape, []));
    const seedStatementsPerPage = Math.ceil(counter.count / 100);
    counter.stop();
    await core.commits.durable();

    // Synchronous and async alternate in rounds, so both see the same JIT, heap and database size;
    // the figure is the median of the rounds.
    const ROUNDS = 5;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const measure = async (label: string, times: number, sync: (i: number) => unknown, asyncOp: (i: number) => Promise<unknown>) => {
      const a: number[] = [];
      const b: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        for (const [op, into] of [
          [sync, a],
          [asyncOp, b],
        ] as const) {
          Bun.gc(true);
          const t0 = cpuUs();
          for (let i = 0; i < times; i++) await op(i);
          await core.commits.durable();
          into.push((cpuUs() - t0) / times);
        }
      }
      console.log(
        `${label}\n  ${"synchronous".padEnd(36)} ${median(a).toFixed(1)} µs CPU\n  ` +
          `${"async (lock for writes, await/stmt)".padEnd(36)} ${median(b).toFixed(1)} µs CPU`,
      );
      return { syncUs: median(a), asyncUs: median(b) };
    };

    const read = await measure(
      `read (findPage, ${readStatements} statements)`,
      n * 5,
      (i) => findPage(core, ids[i % ids.length]),
      async (i) => {
        await awaits(readStatements);
        return findPage(core, ids[i % ids.length]);
      },
    );
    const readSync = read.syncUs;
    const readAsync = read.asyncUs;
    const putFig = await measure(`PUT (updatePage, ${putStatements} statements)`, n, put, (i) =>
      lock.run(async () => {
        await awaits(putStatements);
        return put(i);
      }),
    );
    const putSync = putFig.syncUs;
    const putAsync = putFig.asyncUs;

    console.log(`seeding (createPages, 500 a transaction, ${seedStatementsPerPage} statements a page)`);
    const batches = Math.max(2, Math.round(seedPages / 500));
    let start = 1000;
    const seedBatch = async (asyncStores: boolean) => {
      const inputs = batchInputs(start, start + 500, shape, []);
      start += 500;
      const t0 = cpuUs();
      if (asyncStores)
        await lock.run(async () => {
          await awaits(seedStatementsPerPage * 500);
          return createPages(core, owner, space.id, inputs);
        });
      else createPages(core, owner, space.id, inputs);
      await core.commits.durable();
      return cpuUs() - t0;
    };
    let seedSyncUs = 0;
    let seedAsyncUs = 0;
    for (let b = 0; b < batches; b++) {
      // Alternated, so both see the same size of database.
      seedSyncUs += await seedBatch(false);
      seedAsyncUs += await seedBatch(true);
    }
    const perPage = (us: number) => us / (batches * 500);
    console.log(`  ${"synchronous".padEnd(36)} ${perPage(seedSyncUs).toFixed(1)} µs CPU a page`);
    console.log(`  ${"async (lock for writes, await/stmt)".padEnd(36)} ${perPage(seedAsyncUs).toFixed(1)} µs CPU a page`);

    // Group commit through the async lock: 64 PUTs begun in one turn.
    await core.commits.durable();
    const commits = startCountingStatements({ keepText: true });
    const puts = 64;
    await Promise.all(
      Array.from({ length: puts }, (_, i) =>
        lock.run(async () => {
          await awaits(putStatements);
          return updatePage(core, owner, ids[10 + i], { contentJson: doc(version++) });
        }),
      ),
    );
    await core.commits.durable();
    const commitCount = commits.texts.filter((t) => /^\s*COMMIT/i.test(t)).length;
    commits.stop();
    console.log(`group commit: ${puts} PUTs begun in one turn through the lock cost ${commitCount} COMMIT(s)`);

    return {
      read: { syncUs: readSync, asyncUs: readAsync, statements: readStatements },
      put: { syncUs: putSync, asyncUs: putAsync, statements: putStatements },
      seed: { syncUsPerPage: perPage(seedSyncUs), asyncUsPerPage: perPage(seedAsyncUs), statementsPerPage: seedStatementsPerPage },
      groupCommit: { puts, commits: commitCount },
    };
  } finally {
    core.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) await runStoreSpike(process.argv.slice(2));
