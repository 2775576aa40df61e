/**
 * Litestream beside Cairn (docs/decisions.md, "Litestream beside Cairn"): home-labs already
 * replicate the database with it, and Cairn's own checkpointing (autocheckpoint off, PASSIVE after
 * ~1000 frames, TRUNCATE at close, both with busy_timeout 0) must never break that replica. A real
 * `litestream replicate` (the binary the npm registry ships, v0.3.13) runs beside a core with the
 * WAL archive on; after a lot of writes across our checkpoints, `litestream restore` and our own
 * restoreToTime must both give back exactly the live data.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openCore } from "../src/core";
import { restoreToTime } from "../src/platform/backup/replay";
import { snapshotDatabase } from "../src/platform/backup/snapshot";
import { loadConfig } from "../src/platform/config";
import { silentLogger } from "../src/platform/log";

const LITESTREAM = join(import.meta.dir, "..", "node_modules", "@flydotio", "litestream-linux-x64", "litestream");
const dir = mkdtempSync(join(tmpdir(), "cairn-litestream-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function digest(db: Database): string {
  const rows = db.query<{ id: number; v: string }, []>("SELECT id, v FROM lt ORDER BY id").all();
  return createHash("sha256").update(JSON.stringify(rows)).digest("hex");
}

async function readAll(stream: ReadableStream<Uint8Array>, into: string[]): Promise<void> {
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    into.push(decoder.decode(value));
  }
}

/** Waits until the file replica holds a snapshot (generations/<id>/snapshots/<index>.snapshot.lz4). */
async function firstSnapshot(replica: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  const glob = new Bun.Glob("generations/*/snapshots/*.snapshot.lz4");
  while (performance.now() < deadline) {
    if (existsSync(replica)) for await (const _ of glob.scan({ cwd: replica })) return;
    await Bun.sleep(20);
  }
  throw new Error(`Litestream wrote no snapshot into ${replica} within ${timeoutMs / 1000} s`);
}

describe("Litestream beside Cairn's WAL archive", () => {
  test("writes across our PASSIVE and TRUNCATE checkpoints: Litestream's restore and ours both equal the live data", async () => {
    const data = join(dir, "data");
    const core = openCore(loadConfig(["--data", data], {}), { log: silentLogger, archiveWal: true });
    const wal = core.wal!;
    core.tx(() => core.sqlite.exec("CREATE TABLE lt (id INTEGER PRIMARY KEY, v TEXT NOT NULL)"));
    const config = join(dir, "litestream.yml");
    writeFileSync(
      config,
      `dbs:\n  - path: ${core.data.dbPath}\n    monitor-interval: 50ms\n    replicas:\n      - type: ` +
        `file\n        path: ${join(dir, "replica")}\n        sync-interval: 100ms\n`,
    );
    const proc = Bun.spawn([LITESTREAM, "replicate", "-config", config], { stdout: "pipe", stderr: "pipe" });
    const logs: string[] = [];
    const reading = Promise.all([readAll(proc.stdout, logs), readAll(proc.stderr, logs)]);
    try {
      // Litestream takes its first snapshot: waited for (its file in the replica), not slept on.
      await firstSnapshot(join(dir, "replica"), 15_000);
      const base = await snapshotDatabase({ sqlite: core.sqlite, dbPath: core.data.dbPath, archive: wal, dest: join(dir, "base.db") });
      const insert = core.sqlite.query("INSERT INTO lt (v) VALUES (?)");
      const times: Array<{ at: number; digest: string }> = [];
      const outcomes = { passive: 0, passiveDone: 0, truncate: 0, truncateDone: 0 };
      for (let round = 0; round < 12; round++) {
        for (let i = 0; i < 40; i++) {
          core.tx(() => {
            for (let k = 0; k < 8; k++) insert.run(`${round}:${i}:${k}:` + "p".repeat(1500 + ((i * 37 + k * 101) % 2000)));
            if (i % 10 === 9) core.sqlite.exec(`DELETE FROM lt WHERE id % 7 = ${round % 7}`);
          });
          if (i % 10 === 0) times.push({ at: Date.now(), digest: digest(core.sqlite) });
          await Bun.sleep(2);
        }
        // Our checkpoints: the archive's PASSIVE (it also runs one by itself past ~1000 frames) and a TRUNCATE.
        outcomes.passive++;
        if (wal.checkpoint("passive")) outcomes.passiveDone++;
        if (round % 3 === 2) {
          outcomes.truncate++;
          if (wal.checkpoint("truncate")) outcomes.truncateDone++;
        }
        await Bun.sleep(150);
      }
      const liveDigest = digest(core.sqlite);
      const lastCommitAt = wal.position().committedAt;
      const { generation, epoch } = wal.position();
      await Bun.sleep(1000); // Litestream's last sync
      core.close();

      // Our own point-in-time restore, to the end and to times along the way.
      const out = join(dir, "ours.db");
      for (const point of [...times.filter((_, i) => i % 5 === 0), { at: lastCommitAt, digest: liveDigest }]) {
        await restoreToTime({
          archiveDir: join(core.data.backupsDir, "wal"),
          base: join(dir, "base.db"),
          basePosition: base.position,
          at: point.at,
          out,
        });
        const ours = new Database(out, { readonly: true });
        expect(digest(ours)).toBe(point.digest);
        ours.close();
      }
      expect(base.position!.generation).toBe(generation);

      await Bun.sleep(500);
      proc.kill("SIGTERM");
      await proc.exited;
      await reading;
      const restored = join(dir, "litestream-restored.db");
      const restore = Bun.spawnSync([LITESTREAM, "restore", "-config", config, "-o", restored, core.data.dbPath]);
      expect(restore.exitCode).toBe(0);
      const theirs = new Database(restored, { readonly: true });
      expect(theirs.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check).toBe("ok");
      expect(digest(theirs)).toBe(liveDigest);
      theirs.close();

      const text = logs.join("");
      const generations = new Set([...text.matchAll(/generation[=: ]+"?([0-9a-f]{16})/g)].map((m) => m[1]));
      // Litestream holds a read transaction, so our TRUNCATE is busy (tried later) and our PASSIVE
      // folds only up to its reader; its own checkpoints restart the log, which our archive continues.
      expect(generations.size).toBe(1);
      console.log(
        `our checkpoints: ${JSON.stringify(outcomes)}; our archive: one generation, ` +
          `${epoch + 1} epochs; Litestream generations: ${generations.size}`,
      );
      console.log(
        text
          .split("\n")
          .filter((l) => /generation|checkpoint|overwritten|error|sync/i.test(l))
          .slice(0, 40)
          .join("\n"),
      );
    } finally {
      if (proc.exitCode === null) proc.kill("SIGKILL");
    }
  }, 120_000);
});
