/**
 * The WAL archive stays bounded under heavy writing (docs/decisions.md, "The archive is bounded":
 * 145 MB beside a 16 MB database after a minute, no backup yet), and a restore to a moment still
 * works across the automatic bases taken to keep it so. Heavy writing in-process: 200 kB of
 * incompressible text per commit into one page, through the core's own transactions (each commit
 * archived).
 */
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { Database } from "bun:sqlite";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { call, makeEnv, signUp, type TestEnv, type Who } from "../../tests/harness";
import { NotCoveredError, restoreToTime } from "../platform/backup/replay";
import { segmentFiles, totalBytes } from "../platform/backup/wal-size";
import { doc, newPage, newSpace } from "../pages/testing";
import { ARCHIVE_FLOOR_BYTES, archiveLimit } from "./archive-bound";
import { keepArchiveBounded } from "./archive-watch";
import type { BackupManifest } from "./manifest";
import { startBackupJob } from "./service";
import { listManifests } from "./store";
import { runBackupNow } from "./testing";

setDefaultTimeout(180_000);

let env: TestEnv;
beforeEach(() => (env = makeEnv({ archiveWal: true })));
afterEach(() => env.close());

interface Marker {
  n: number;
  /** A moment after commit n and before commit n+1. */
  at: number;
}

/**
 * Writes `mb` MB of log: one commit of ~200 kB per round, 10 ms apart on the core's clock (the
 * archive's commit times); every 100th commit a marker: a moment between it and the next.
 */
async function writeHeavily(pageId: string, mb: number, onCommit: () => void): Promise<{ markers: Marker[]; commits: number }> {
  const update = env.core.sqlite.query("UPDATE pages SET content_json = ? WHERE id = ?");
  const markers: Marker[] = [];
  const rounds = Math.ceil((mb * 1024 * 1024) / (200 * 1024));
  for (let n = 1; n <= rounds; n++) {
    env.clock.advance(10);
    env.core.tx(() => update.run(doc(`${n} ${randomBytes(150 * 1024).toString("base64")}`), pageId));
    env.core.commits.flush();
    onCommit();
    if (n % 100 === 0) markers.push({ n, at: env.clock.now() + 5 });
    await Bun.sleep(0); // the watch's timer and the backup job run between commits
  }
  return { markers, commits: rounds };
}

const archiveDir = () => join(env.dir, "backups", "wal");
const archiveBytes = () => totalBytes(segmentFiles(archiveDir()));

/** The number the page's text starts with in a copy of the database. */
function commitIn(path: string, pageId: string): number {
  const db = new Database(path, { readonly: true });
  try {
    const row = db.query<{ content_json: string }, [string]>("SELECT content_json FROM pages WHERE id = ?").get(pageId)!;
    return Number(/"text":"(\d+) /.exec(row.content_json)![1]);
  } finally {
    db.close();
  }
}

async function restoreAt(base: BackupManifest, at: number | null, name: string): Promise<string> {
  const out = join(env.dir, `${name}.db`);
  await restoreToTime({
    archiveDir: archiveDir(),
    base: join(env.dir, "backups", base.label, "cairn.db"),
    basePosition: base.wal,
    at,
    out,
  });
  return out;
}

async function setUp(): Promise<{ owner: Who; pageId: string }> {
  const owner = await signUp(env, "owner@example.com");
  const space = await newSpace(env, owner, "LOAD");
  const page = await newPage(env, owner, space.id, "Load", { contentJson: doc("0 start") });
  return { owner, pageId: page.id };
}

test(
  "300 MB of writing with no backup yet: the archive stays under its limit, automatic bases " +
    "are taken and pruned behind, and a moment across them restores exactly",
  async () => {
    const { owner, pageId } = await setUp();
    expect(listManifests(env.core)).toEqual([]);
    const stopWatch = keepArchiveBounded(env.core, () => startBackupJob(env.core, "automatic"), 50);
    const limit = archiveLimit(env.core);
    expect(limit).toBe(ARCHIVE_FLOOR_BYTES); // a database of a few MB: the floor
    let most = 0;
    const { markers, commits } = await writeHeavily(pageId, 300, () => (most = Math.max(most, archiveBytes())));
    // Let a base that is being taken finish before looking.
    for (let i = 0; i < 500 && listManifests(env.core).length === 0; i++) await Bun.sleep(10);
    // The watch stops before looking: the last commit below would otherwise let it start one more
    // base while the restores read, and that base's retention prune the frames they read.
    stopWatch();
    while ((await call(env, "GET", "/api/admin/backups", { as: owner })).body.running) await Bun.sleep(20);
    // One small commit more, and a moment after it: past every base, whenever the last was taken
    // (the bases follow a real-time timer, the commits the test's clock).
    env.clock.advance(10);
    const last = commits + 1;
    env.core.tx(() => env.core.sqlite.query("UPDATE pages SET content_json = ? WHERE id = ?").run(doc(`${last} end`), pageId));
    env.core.commits.flush();
    // Its own moment, not one after it: a moment past the archive's last commit is checked
    // against the process's clock, which the test's clock may be ahead of.
    markers.push({ n: last, at: env.clock.now() });

    console.log(`archive at most ${(most / 1048576).toFixed(1)} MB of ${(limit / 1048576).toFixed(0)} MB over ${commits} commits`);
    expect(most).toBeLessThan(limit);
    const all = listManifests(env.core, { includeRemoved: true });
    const kept = listManifests(env.core);
    // Several bases were taken; the ones the archive no longer reaches back to went (audited as
    // retention).
    expect(all.length).toBeGreaterThan(4);
    expect(all.every((m) => m.kind === "automatic")).toBe(true);
    expect(kept.length).toBeLessThanOrEqual(3);
    expect(all.filter((m) => m.removedAt).every((m) => m.removedReason === "retention")).toBe(true);

    // The API says how big the archive is, its limit and its window.
    const listed = await call(env, "GET", "/api/admin/backups", { as: owner });
    expect(listed.status).toBe(200);
    const archive = listed.body.archive;
    expect(archive.limitBytes).toBe(limit);
    expect(archive.bytes).toBe(archiveBytes());
    expect(archive.bytes).toBeLessThan(limit);
    const oldest = [...kept].sort((a, b) => a.wal!.committedAt - b.wal!.committedAt)[0];
    expect(archive.oldestRestorableAt).toBe(new Date(oldest.wal!.committedAt).toISOString());

    // Every marker since the oldest base restores exactly, from the oldest base: the replay runs
    // across the newer automatic bases (taken while it was being written).
    const newest = [...kept].sort((a, b) => b.wal!.committedAt - a.wal!.committedAt)[0];
    const reachable = markers.filter((m) => m.at > oldest.wal!.committedAt);
    expect(reachable.some((m) => m.at > newest.wal!.committedAt)).toBe(true);
    for (const m of reachable) expect(commitIn(await restoreAt(oldest, m.at, `at-${m.n}`), pageId)).toBe(m.n);
    // And the last commit.
    expect(commitIn(await restoreAt(oldest, env.clock.now(), "last"), pageId)).toBe(last);
  },
);

test(
  "a backup kept by hand stays restorable as itself once the archive is pruned past " +
    "it; a moment after it is refused, never replayed across the gap",
  async () => {
    const { owner, pageId } = await setUp();
    const first = (await runBackupNow(env, owner)).result.backup.label;
    const byHand = listManifests(env.core).find((m) => m.label === first)!;
    keepArchiveBounded(env.core, () => startBackupJob(env.core, "automatic"), 50);
    const { markers } = await writeHeavily(pageId, 120, () => {});
    while ((await call(env, "GET", "/api/admin/backups", { as: owner })).body.running) await Bun.sleep(20);

    const kept = listManifests(env.core);
    expect(kept.map((m) => m.label)).toContain(first); // manual: retention never removes it
    expect(commitIn(await restoreAt(byHand, null, "itself"), pageId)).toBe(0);
    await expect(restoreAt(byHand, markers[0].at, "across")).rejects.toBeInstanceOf(NotCoveredError);
    const listed = (await call(env, "GET", "/api/admin/backups", { as: owner })).body.archive;
    expect(Date.parse(listed.oldestRestorableAt)).toBeGreaterThan(byHand.wal!.committedAt);
  },
);
