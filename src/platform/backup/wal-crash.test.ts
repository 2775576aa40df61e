/**
 * kill -9 while commits are being archived: a real process is killed mid-write; the next start
 * seals what it left, begins a new generation, and the old one still restores to every commit
 * the dead process had reported archived.
 */
import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { restoreToTime } from "./replay";
import { digestOf, openArchivedDb, scratchDir } from "./testing";
import { listSegments } from "./wal-segments";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const WRITER = `
import { join } from "node:path";
import { openArchivedDb, digestOf } from ${JSON.stringify(join(import.meta.dir, "testing.ts"))};
import { snapshotDatabase } from ${JSON.stringify(join(import.meta.dir, "snapshot.ts"))};
const dir = process.argv[2];
const clock = { now: Date.now() - 3_600_000 };
const db = openArchivedDb(dir, clock, 50);
db.write((s) => s.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)"));
const snap = await snapshotDatabase({ sqlite: db.sqlite, dbPath: db.dbPath, archive: db.archive, dest: join(dir, "base.db") });
console.log(JSON.stringify({ base: snap.position }));
for (let i = 0; ; i++) {
  clock.now += 3;
  db.write((s) => {
    s.query("INSERT INTO t (v) VALUES (?)").run(i + ":" + "k".repeat(i % 4 === 0 ? 6000 : 300));
    if (i % 9 === 8) s.query("DELETE FROM t WHERE id % 5 = 0").run();
  });
  console.log(JSON.stringify({ at: clock.now, digest: digestOf(db.sqlite) }));
  if (i % 20 === 0) await Bun.sleep(0);
}
`;

test("kill -9 mid-write: the next start seals the segment and begins a new generation; the old one " +
  "restores to the commits it reported archived (every fourth, and the last)", async () => {
  const dir = scratchDir("wal-crash");
  dirs.push(dir);
  writeFileSync(join(dir, "writer.ts"), WRITER);
  const proc = Bun.spawn([process.execPath, join(dir, "writer.ts"), dir], { stdout: "pipe", stderr: "inherit" });
  const lines: string[] = [];
  const decoder = new TextDecoder();
  let buffered = "";
  const reader = proc.stdout.getReader();
  for (;;) {
    const { value: chunk, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(chunk);
    const parts = buffered.split("\n");
    buffered = parts.pop()!;
    lines.push(...parts);
    if (lines.length > 400) break;
  }
  proc.kill("SIGKILL");
  await proc.exited;
  const base = JSON.parse(lines[0]).base;
  const reported = lines.slice(1).map((l) => JSON.parse(l) as { at: number; digest: string });

  const clock = { now: Date.now() };
  const after = openArchivedDb(dir, clock);
  expect(after.archive.position().generation).not.toBe(base.generation);
  const old = listSegments(join(after.archiveDir, base.generation));
  expect(old.every((s) => s.closed !== null)).toBe(true);
  after.close();

  const out = join(dir, "restored.db");
  for (const point of reported.filter((_, i) => i % 4 === 0 || i === reported.length - 1)) {
    await restoreToTime({ archiveDir: after.archiveDir, base: join(dir, "base.db"), basePosition: base, at: point.at, out });
    const db = new Database(out, { readonly: true });
    expect(digestOf(db)).toBe(point.digest);
    db.close();
  }
}, 60_000);
