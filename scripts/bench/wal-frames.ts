/**
 * Which tables and indexes the WAL frames of a page update belong to:
 * `bun scripts/bench/wal-frames.ts --from=SEEDED [puts=10] [--dir=/dev/shm] [--group=1]`
 * (one page of 64 each time; the search catch-up after every `group` PUTs).
 *
 * Copies a directory seeded by seed-dir.ts (SEEDED/data, SEEDED/pre.json), opens it in-process
 * as the server does (tests/harness.ts, the WAL archive on), makes `puts` PUTs of the bench's kind
 * (a fresh title and 500-word document), each followed by its search catch-up, then reads the
 * WAL's frames and names each frame's page by the b-tree that owns it (SQLite's dbstat table;
 * "free" for pages on the freelist at the end). Prints the frames of each commit by owner, and
 * the frames and bytes per PUT (both commits).
 */
import { Database } from "bun:sqlite";
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sampleDocument } from "../../src/content/sample";
import { call, cookieFrom, makeEnv, mintToken } from "../../tests/harness";
import { OWNER } from "./seed";

const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const from = flag("from");
if (!from) throw new Error("usage: wal-frames.ts --from=SEEDED [puts] [--dir=DIR]");
const PUTS = Number(args.find((a) => /^\d+$/.test(a)) ?? 10);

const dir = mkdtempSync(join(flag("dir") ?? tmpdir(), "cairn-wal-frames-"));
cpSync(join(from, "data"), dir, { recursive: true });
const big: string[] = JSON.parse(readFileSync(join(from, "pre.json"), "utf8")).big.pageIds;
const env = makeEnv({ dir, archiveWal: true });
const login = await call(env, "POST", "/api/auth/login", { body: { email: OWNER.email, password: OWNER.password } });
const token = await mintToken(env, { cookie: cookieFrom(login) });
const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

/** PUTs between two looks at the log, the catch-up after them (a loaded server's catch-up takes tens of pages at once). */
const GROUP = Number(flag("group") ?? 1);

async function put(id: string, n: number, settled = true) {
  const doc = sampleDocument(7_000_000 + n, 500);
  doc.content.push({ type: "paragraph", content: [{ type: "text", text: `Edit ${n}` }] });
  const res = await call(env, "PUT", `/api/pages/${id}`, {
    as: { token },
    body: { title: `Page v${n}`, contentJson: JSON.stringify(doc) },
  });
  if (res.status !== 200) throw new Error(`PUT ${res.status} ${res.text}`);
  if (settled) await settle();
}

const step = Math.floor(big.length / 64);
const walFile = join(dir, "cairn.db-wal");
type Frame = { pgno: number; commit: boolean };
/** The log's frames of its current run (a restarted log leaves older frames, other salts, after them). */
function framesNow(): { salt: number; frames: Frame[] } {
  const wal = readFileSync(walFile);
  if (wal.length < 32) return { salt: -1, frames: [] };
  const pageSize = wal.readUInt32BE(8);
  const frames: Frame[] = [];
  for (
    let off = 32;
    off + 24 + pageSize <= wal.length &&
    wal.readUInt32BE(off + 8) === wal.readUInt32BE(16) &&
    wal.readUInt32BE(off + 12) === wal.readUInt32BE(20);
    off += 24 + pageSize
  ) {
    frames.push({ pgno: wal.readUInt32BE(off), commit: wal.readUInt32BE(off + 4) !== 0 });
  }
  return { salt: wal.readUInt32BE(16), frames };
}
// Warm up: each page written once (its first delete from the seeded index segments).
for (let i = 0; i < 8; i++) await put(big[i * step], i);
const frames: Frame[] = [];
let seen = framesNow();
for (let i = 0; i < PUTS; i++) {
  await put(big[(i % 64) * step], 100 + i, (i + 1) % GROUP === 0);
  if ((i + 1) % GROUP !== 0) continue;
  // The frames since the last look: all of them when the log restarted (checkpointed past 1000 frames).
  const now = framesNow();
  frames.push(...(now.salt === seen.salt ? now.frames.slice(seen.frames.length) : now.frames));
  seen = now;
}
const pageSize = 4096;
env.close();

const db = new Database(join(dir, "cairn.db"), { readonly: true });
const owner = new Map<number, string>();
for (const r of db.query<{ name: string; pageno: number; pagetype: string }, []>("SELECT name, pageno, pagetype FROM dbstat").all()) {
  owner.set(r.pageno, r.pagetype === "overflow" ? `${r.name} (overflow)` : r.pagetype === "internal" ? `${r.name} (interior)` : r.name);
}
const commits: Array<Map<string, number>> = [];
let current = new Map<string, number>();
for (const f of frames) {
  const name = f.pgno === 1 ? "(header page 1)" : (owner.get(f.pgno) ?? "free or freelist");
  current.set(name, (current.get(name) ?? 0) + 1);
  if (f.commit) {
    commits.push(current);
    current = new Map();
  }
}
const total = new Map<string, number>();
for (const c of commits) for (const [k, v] of c) total.set(k, (total.get(k) ?? 0) + v);
console.log(
  `${frames.length} frames in ${commits.length} commits for ${PUTS} PUTs: ${(frames.length / PUTS).toFixed(1)} frames, ` +
    `${Math.round((frames.length * (pageSize + 24)) / PUTS / 1024)} KB a PUT`,
);
for (const [k, v] of [...total].sort((a, b) => b[1] - a[1])) console.log(String((v / PUTS).toFixed(1)).padStart(6), k);
process.exit(0);
