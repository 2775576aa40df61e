/**
 * A page-exact copy of the live database (docs/decisions.md, "A backup is a page-exact copy of
 * `cairn.db`"), the base a point-in-time restore replays archived WAL frames onto. Not VACUUM INTO:
 * its output has another page layout.
 *
 * The state of a WAL database is its file plus the committed frames of the log's current epoch.
 * 1. Take the write lock for a moment (BEGIN IMMEDIATE on a connection of our own, retried
 *    without blocking the event loop): nobody commits, so the archive observes everything and
 *    its position is exactly the state a reader opened now sees; pin such a reader on a second
 *    connection; let the lock go (the lock is held for well under a millisecond of work).
 * 2. The pinned reader keeps every checkpoint (anybody's) from copying frames past its point into
 *    the file, and keeps the log from restarting while it reads frames. So checkpoints go on
 *    during the copy (they are not suspended): they can only copy frames up to the pin, which the
 *    overlay writes over whatever the copy read of those pages, torn or not. Then: read the epoch's
 *    frames up to that point (validated), copy the file in 1 MB chunks with async I/O (the event
 *    loop runs between them), and write the latest frame of each page over it. The result is the
 *    database at that commit, whatever a checkpoint did to the file meanwhile (it can only have
 *    copied frames we overlay anyway).
 * 3. fsync the copy; its sha256 is computed on the way.
 */
import { Database } from "bun:sqlite";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { open } from "node:fs/promises";
import type { WalArchive, WalPosition } from "./types";
import {
  checkFrame,
  dbPageSize,
  FRAME_HEADER_SIZE,
  frameSize,
  parseWalHeader,
  saltHex,
  scanFrames,
  WAL_HEADER_SIZE,
  type Checksum,
  type WalHeader,
} from "./wal-format";

export interface SnapshotOptions {
  sqlite: Database;
  dbPath: string;
  archive: WalArchive | null;
  dest: string;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface SnapshotResult {
  position: WalPosition | null;
  bytes: number;
  sha256: string;
}

const CHUNK_PAGES_BYTES = 1 << 20;
const LOCK_PATIENCE_MS = 60_000;
const SYNC_EVERY_CHUNKS = 8;

interface Pin {
  position: WalPosition | null;
  header: WalHeader | null;
  /** Committed frames of the current epoch the pinned reader sees. */
  frames: number;
}

/** snapshotDatabase of an open instance: its connection, its file and its WAL archive (the driver stays in the platform). */
export function snapshotInstance(
  instance: { sqlite: Database; data: { dbPath: string }; wal: WalArchive | null },
  opts: Omit<SnapshotOptions, "sqlite" | "dbPath" | "archive">,
): Promise<SnapshotResult> {
  return snapshotDatabase({ sqlite: instance.sqlite, dbPath: instance.data.dbPath, archive: instance.wal, ...opts });
}

export async function snapshotDatabase(opts: SnapshotOptions): Promise<SnapshotResult> {
  const { dbPath, archive } = opts;
  const walPath = `${dbPath}-wal`;
  if (!archive) foldLogIfAlone(opts.sqlite);
  const reader = new Database(dbPath, { strict: true });
  try {
    reader.exec("PRAGMA wal_autocheckpoint = 0");
    const pin = await pinReader(dbPath, reader, archive, walPath, opts.signal);
    const overlay = await readOverlay(walPath, pin);
    const copied = await copyWithOverlay(dbPath, opts.dest, overlay, opts);
    return { position: pin.position, ...copied };
  } finally {
    if (reader.inTransaction) reader.exec("ROLLBACK");
    reader.close();
  }
}

/**
 * No archive (the CLI on a stopped server): fold the log into the file first, so the copy is
 * mostly the file. busy_timeout 0: a reader elsewhere only means more frames to overlay.
 */
function foldLogIfAlone(sqlite: Database): void {
  if (sqlite.inTransaction) return;
  const before = sqlite.query<{ timeout: number }, []>("PRAGMA busy_timeout").get()?.timeout ?? 5000;
  sqlite.exec("PRAGMA busy_timeout = 0");
  try {
    sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  } catch {
    // busy: the overlay covers it
  } finally {
    sqlite.exec(`PRAGMA busy_timeout = ${before}`);
  }
}

async function pinReader(
  dbPath: string,
  reader: Database,
  archive: WalArchive | null,
  walPath: string,
  signal?: AbortSignal,
): Promise<Pin> {
  const locker = new Database(dbPath, { strict: true });
  try {
    locker.exec("PRAGMA busy_timeout = 0");
    const deadline = Date.now() + LOCK_PATIENCE_MS;
    for (;;) {
      signal?.throwIfAborted();
      try {
        locker.exec("BEGIN IMMEDIATE");
        break;
      } catch (err) {
        // Our own server's open group commit (or another process) holds it: a few ms.
        if (!/busy|locked/i.test((err as Error).message) || Date.now() > deadline) throw err;
        await Bun.sleep(2);
      }
    }
    try {
      archive?.observe();
      const position = archive ? archive.position() : null;
      const wal = readWholeWalSync(walPath, !archive);
      let frames = 0;
      if (wal.header && position) frames = position.salt === saltHex(wal.header) ? position.frame : 0;
      else if (wal.header) frames = scanFrames(wal.body, wal.header, wal.header.checksum).frames;
      reader.exec("BEGIN");
      reader.query("SELECT count(*) FROM sqlite_master").get();
      return { position, header: wal.header, frames };
    } finally {
      locker.exec("ROLLBACK");
    }
  } finally {
    locker.close();
  }
}

/** The header, and (when asked: no archive to say where the commits end) the frames after it. */
function readWholeWalSync(walPath: string, withBody: boolean): { header: WalHeader | null; body: Uint8Array } {
  let fd: number;
  try {
    fd = openSync(walPath, "r");
  } catch {
    return { header: null, body: new Uint8Array(0) };
  }
  try {
    const size = fstatSync(fd).size;
    const head = new Uint8Array(WAL_HEADER_SIZE);
    if (size < WAL_HEADER_SIZE || readSync(fd, head, 0, WAL_HEADER_SIZE, 0) < WAL_HEADER_SIZE)
      return { header: null, body: new Uint8Array(0) };
    const header = parseWalHeader(head);
    if (!header || !withBody) return { header, body: new Uint8Array(0) };
    const body = new Uint8Array(size - WAL_HEADER_SIZE);
    readSync(fd, body, 0, body.byteLength, WAL_HEADER_SIZE);
    return { header, body };
  } finally {
    closeSync(fd);
  }
}

interface Overlay {
  pages: Map<number, Uint8Array>;
  /** The database's size in pages at the pinned commit; null: the file's own size. */
  dbPages: number | null;
  pageSize: number | null;
}

/**
 * The latest image of each page in frames 1..n of the pinned epoch. If they no longer validate,
 * the reader was pinned on the file alone (everything checkpointed: SQLite then lets the log
 * restart, but lets no checkpoint touch the file), so the file is the state: no overlay.
 * Read and checksummed 1 MB at a time with the file read awaited in between: a log of tens of
 * thousands of frames once held the event loop for hundreds of milliseconds here.
 */
async function readOverlay(walPath: string, pin: Pin): Promise<Overlay> {
  const none: Overlay = { pages: new Map(), dbPages: null, pageSize: null };
  const hdr = pin.header;
  if (!hdr || pin.frames === 0) return none;
  const size = frameSize(hdr.pageSize);
  const perChunk = Math.max(1, Math.floor(CHUNK_PAGES_BYTES / size));
  const pages = new Map<number, Uint8Array>();
  let prev: Checksum = hdr.checksum;
  let dbPages = 0;
  let lastIsCommit = false;
  const fh = await open(walPath, "r");
  try {
    const head = new Uint8Array(WAL_HEADER_SIZE);
    await fh.read(head, 0, WAL_HEADER_SIZE, 0);
    const now = parseWalHeader(head);
    if (!now || saltHex(now) !== saltHex(hdr)) return none;
    for (let first = 0; first < pin.frames; first += perChunk) {
      const n = Math.min(perChunk, pin.frames - first);
      // A chunk of its own (not a view of a reused buffer): the map keeps its pages.
      const buf = new Uint8Array(n * size);
      const { bytesRead } = await fh.read(buf, 0, buf.byteLength, WAL_HEADER_SIZE + first * size);
      if (bytesRead < buf.byteLength) return none;
      for (let i = 0; i < n; i++) {
        const frame = buf.subarray(i * size, (i + 1) * size);
        const info = checkFrame(frame, hdr, prev);
        if (!info) return none;
        prev = info.checksum;
        lastIsCommit = info.dbSize !== 0;
        if (lastIsCommit) dbPages = info.dbSize;
        pages.set(info.pgno, frame.subarray(FRAME_HEADER_SIZE));
      }
    }
  } finally {
    await fh.close();
  }
  // Frame n is the pinned commit: the database's size after it is the copy's size.
  return lastIsCommit ? { pages, dbPages, pageSize: hdr.pageSize } : none;
}

async function copyWithOverlay(
  dbPath: string,
  dest: string,
  overlay: Overlay,
  opts: SnapshotOptions,
): Promise<{ bytes: number; sha256: string }> {
  const src = await open(dbPath, "r");
  // The destination may fail to open (its folder removed under an aborted backup): src is closed then too.
  const out = await open(dest, "wx", 0o600).catch(async (err) => {
    await src.close();
    throw err;
  });
  // Bun's hasher: this module loads before the server listens, and node:crypto costs ~4 ms there.
  const hash = new Bun.CryptoHasher("sha256");
  try {
    const fileSize = (await src.stat()).size;
    let pageSize = overlay.pageSize;
    if (pageSize === null) {
      const head = new Uint8Array(100);
      await src.read(head, 0, 100, 0);
      pageSize = fileSize >= 100 ? dbPageSize(head) : 4096;
    }
    const total = (overlay.dbPages ?? Math.floor(fileSize / pageSize)) * pageSize;
    const chunk = Math.max(pageSize, Math.floor(CHUNK_PAGES_BYTES / pageSize) * pageSize);
    const buf = new Uint8Array(chunk);
    for (let at = 0; at < total; at += chunk) {
      opts.signal?.throwIfAborted();
      const len = Math.min(chunk, total - at);
      const view = buf.subarray(0, len);
      view.fill(0);
      if (at < fileSize) await src.read(view, 0, Math.min(len, fileSize - at), at);
      const firstPage = at / pageSize + 1;
      for (let p = 0; p < len / pageSize; p++) {
        const page = overlay.pages.get(firstPage + p);
        if (page) view.set(page, p * pageSize);
      }
      hash.update(view);
      await out.write(view, 0, len, at);
      // Written back as we go (off the event loop): a large backlog of dirty pages makes a
      // writer's COMMIT fsync wait behind it.
      if ((at / chunk) % SYNC_EVERY_CHUNKS === SYNC_EVERY_CHUNKS - 1) await out.datasync();
      opts.onProgress?.(at + len, total);
    }
    await out.sync();
    return { bytes: total, sha256: hash.digest("hex") };
  } finally {
    await src.close();
    await out.close();
  }
}
