/**
 * The WAL archive (Litestream's design inside the process; docs/decisions.md, "Cairn owns
 * checkpointing and archives the WAL"): every committed frame SQLite appends to cairn.db-wal is
 * copied into wal/<generation>/ segments, with the time of each commit, before anything can restart
 * the log over it. Cairn owns checkpointing (autocheckpoint off on every connection): a PASSIVE one
 * after ~1000 frames (when and where: wal-checkpoints.ts), TRUNCATE at close, both with
 * busy_timeout 0 (a reader such as Litestream makes them try later, never stalls a writer).
 *
 * Continuity. An archive is only worth anything if it holds every commit in order: an epoch
 * (one WAL header) is followed by the next only when nothing was lost between them, so
 * - a restart of the log seen while we hold the write lock (observe("locked") right after
 *   BEGIN IMMEDIATE, then our own write restarted it) or after our own TRUNCATE loses nothing;
 * - a restart by another process loses nothing if our last archived frame is still intact in
 *   the file (then the old epoch's remaining frames are still readable after it), as Litestream
 *   checks ("wal overwritten by another process");
 * - otherwise, and at a start that does not find the database and the log exactly as the last
 *   clean close left them (kill -9, a file changed while we were down), a NEW GENERATION begins:
 *   a point-in-time restore never crosses one (it needs a base taken in the same generation).
 *
 * What is fsynced when: segment frames and their commit lines are written at every observe (so
 * a process crash loses nothing the OS has), written back in the background every MB, and
 * fsynced when a segment closes: on the event loop at flush() (before a backup's manifest), at
 * a TRUNCATE or a caller's checkpoint, and at close; off it (docs/decisions.md, "Writers wait at
 * most 50 ms on backing up") at a new epoch, at 16 MB, and before the restart our own checkpoints
 * allow (so a power cut, not a crash, could lose the last frames of an epoch: the unclean start
 * that follows begins a new generation anyway). state.json is written atomically at start (running) and
 * at a clean close (where the archive stands and the database file's identity).
 */
import type { Scheduler } from "../scheduler";
import type { Database } from "bun:sqlite";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { WalArchive, WalPosition } from "./types";
import { parseWalHeader, restartsBetween, saltHex, WAL_HEADER_SIZE, type Checksum, type WalHeader } from "./wal-format";
import { closeSegmentInBackground, listSegments, sealSegment, SegmentWriter, writeJsonDurably } from "./wal-segments";
import { CheckpointSchedule } from "./wal-checkpoints";
import { WalFile } from "./wal-file";
import { dataVersion, dbIdentity, readArchiveState, type ArchiveState } from "./wal-state";

export { readArchiveState } from "./wal-state";

export interface OpenWalArchiveOptions {
  sqlite: Database;
  dbPath: string;
  /** backups/wal */
  dir: string;
  now?: () => number;
  /** Frames after which a PASSIVE checkpoint is tried. */
  checkpointFrames?: number;
  /**
   * How often the log is looked at between our own writes (0: never), so what other processes
   * write (Litestream's own checkpoints and the write after each, which restarts the log) is
   * followed one restart at a time rather than found several restarts later.
   */
  pollMs?: number;
  /** The instance's scheduler, whose task the look becomes (the server); without one, a timer of its own. */
  scheduler?: Pick<Scheduler, "every">;
  onNewGeneration?: (generation: string, reason: string) => void;
  onError?: (what: string, err: unknown) => void;
  /**
   * Leave reading where the archive stands and copying the log to begin() or the first call
   * that needs it (the server listens first). Nothing is lost meanwhile: only the archive
   * checkpoints, and every write transaction observes, which begins it first.
   */
  startLater?: boolean;
}

const SEGMENT_MAX_BYTES = 16 << 20;

export function openWalArchive(opts: OpenWalArchiveOptions): WalArchive {
  return new Archive(opts);
}

class Archive implements WalArchive {
  readonly dir: string;
  private readonly wal: WalFile;
  private readonly now: () => number;
  private generation = "";
  private genDir = "";
  private hdr: WalHeader | null = null;
  private epoch = -1;
  private frame = 0;
  private checksum: Checksum = [0, 0];
  private committedAt = 0;
  /** Frames the last archived run held (and a few more): the first read of the next one. */
  private lastRun = 8;
  /**
   * The log was emptied on our watch, so the next header begins the next epoch: "any" header (a
   * new generation, a clean start), or after our TRUNCATE(s), one that no restart followed:
   * SQLite adds 1 to salt-1 and to the checkpoint sequence at each restart (and each TRUNCATE),
   * and a connection that finds the log empty may write a fresh header (sequence 0).
   */
  private pending: "any" | { truncates: number } | null = "any";
  private locked = false;
  private seen: { size: bigint; mtimeNs: bigint } | null = null;
  private seg: SegmentWriter | null = null;
  private suspended = 0;
  private broken: string | null = null;
  private closed = false;
  private poll: { stop(): void } | null = null;
  private readonly checkpoints: CheckpointSchedule;
  private started = false;
  /** begin() has run (or is running: its own observe must not begin it again). */
  private begun = false;
  /** Segments being closed in the background. */
  private readonly closing = new Set<Promise<void>>();

  constructor(private readonly opts: OpenWalArchiveOptions) {
    this.dir = opts.dir;
    this.wal = new WalFile(`${opts.dbPath}-wal`);
    this.now = opts.now ?? Date.now;
    this.checkpoints = new CheckpointSchedule({
      dbPath: opts.dbPath,
      frames: opts.checkpointFrames ?? 1000,
      now: this.now,
      held: () => this.closed || this.suspended > 0,
      inTransaction: () => opts.sqlite.inTransaction,
      checkpoint: (mode, o) => this.checkpoint(mode, o),
      onError: (what, err) => opts.onError?.(what, err),
    });
    if (!opts.startLater) this.begin();
  }

  /** Where the archive stands, read once; then what the log holds is copied and the poll armed. */
  begin(): void {
    if (this.begun || this.closed) return;
    this.begun = true;
    try {
      this.beginNow();
    } catch (err) {
      // Opened with the server: a failure at start is reported as one.
      if (!this.opts.startLater) throw err;
      // Begun later, beside commits: they go on, and the archive starts afresh at the next observe.
      this.broken = `the archive could not begin (${(err as Error).message})`;
      this.opts.onError?.("WAL archive failed", err);
    }
  }

  private beginNow(): void {
    const opts = this.opts;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const state = readArchiveState(this.dir);
    if (state && existsSync(join(this.dir, state.generation))) {
      const genDir = join(this.dir, state.generation);
      for (const seg of listSegments(genDir)) if (!seg.closed) sealSegment(genDir, seg);
    }
    const reason = this.continueFrom(state);
    if (reason) this.newGeneration(reason);
    else writeJsonDurably(join(this.dir, "state.json"), { generation: this.generation, clean: null } satisfies ArchiveState);
    this.observe();
    this.started = true;
    if (opts.pollMs !== 0) {
      // Reading without the lock is safe: salts and cumulative checksums reject a frame being
      // written or overwritten. It changes nothing about who holds the lock.
      const look = () => {
        if (this.closed) return;
        this.observeNow();
        this.checkpoints.maybe();
      };
      const ms = opts.pollMs ?? 1000;
      if (opts.scheduler) this.poll = opts.scheduler.every("wal-archive.look", ms, look);
      else {
        const timer = setInterval(look, ms);
        timer.unref?.();
        this.poll = { stop: () => clearInterval(timer) };
      }
    }
  }

  /** Null when the last clean close left the database and the log exactly as they are now; else why not. */
  private continueFrom(state: ArchiveState | null): string | null {
    if (!state) return "the archive's first start";
    if (!state.clean) return "the last run did not stop cleanly";
    const genDir = join(this.dir, state.generation);
    if (!existsSync(genDir)) return "the generation's folder is missing";
    const c = state.clean;
    const db = dbIdentity(this.opts.dbPath);
    if (!db || db.size !== c.db.size || db.mtimeNs !== c.db.mtimeNs || db.ino !== c.db.ino)
      return "the database file changed while Cairn was stopped";
    Object.assign(this, {
      generation: state.generation,
      genDir,
      epoch: c.epoch,
      hdr: c.header,
      frame: c.frame,
      checksum: c.checksum,
      committedAt: c.committedAt,
    });
    const st = this.wal.stat();
    const now = st.size >= WAL_HEADER_SIZE ? parseWalHeader(this.wal.readAt(0, WAL_HEADER_SIZE)) : null;
    if (!now) return ((this.pending = "any"), null);
    if (c.header && saltHex(now) === saltHex(c.header) && (c.frame === 0 || this.lastFrameIntact(Number(st.size))))
      return ((this.pending = null), null);
    return "the log changed while Cairn was stopped";
  }

  private newGeneration(reason: string): void {
    this.seg?.close();
    this.seg = null;
    const at = this.now();
    const previous = this.generation || null;
    this.generation =
      `${new Date(at).toISOString().replace(/[-:.]/g, "")}-` + `${Buffer.from(crypto.getRandomValues(new Uint8Array(3))).toString("hex")}`;
    this.genDir = join(this.dir, this.generation);
    mkdirSync(this.genDir, { recursive: true, mode: 0o700 });
    writeJsonDurably(join(this.genDir, "generation.json"), {
      generation: this.generation,
      startedAt: new Date(at).toISOString(),
      reason,
      previous,
    });
    writeJsonDurably(join(this.dir, "state.json"), { generation: this.generation, clean: null } satisfies ArchiveState);
    Object.assign(this, { hdr: null, epoch: -1, frame: 0, checksum: [0, 0], committedAt: at, pending: "any", seen: null, broken: null });
    this.opts.onNewGeneration?.(this.generation, reason);
  }

  observe(moment: "locked" | "released" = "released"): void {
    this.begin();
    if (this.closed) return;
    // What changed before this call is judged without the flag: the lock is ours only from now.
    this.observeNow();
    if (moment === "locked") this.locked = true;
    else {
      this.locked = false;
      this.checkpoints.maybe();
    }
  }

  /** Copies what is new; never checkpoints (it runs inside checkpoint() and close()). */
  private observeNow(): void {
    try {
      if (this.broken) this.newGeneration(this.broken);
      const st = this.wal.stat();
      if (!this.seen || st.size !== this.seen.size || st.mtimeNs !== this.seen.mtimeNs) {
        this.catchUp(Number(st.size));
        this.seen = st;
      }
    } catch (err) {
      // A failed copy (disk full): commits go on; the archive starts afresh at the next observe.
      this.broken = `the archive could not be written (${(err as Error).message})`;
      this.opts.onError?.("WAL archive failed", err);
    }
  }

  private catchUp(size: number): void {
    const now = size >= WAL_HEADER_SIZE ? parseWalHeader(this.wal.readAt(0, WAL_HEADER_SIZE)) : null;
    if (!now) {
      // An empty log. Ours (TRUNCATE, a new generation) or emptied by someone after every frame we saw?
      if (!this.pending && !this.locked && this.frame > 0) this.newGeneration("the log was emptied by another process");
      return;
    }
    if (this.hdr && !this.pending && saltHex(now) === saltHex(this.hdr)) return this.readFrames(size);
    if (
      this.pending &&
      this.pending !== "any" &&
      this.hdr &&
      now.checkpointSeq !== 0 &&
      !restartsBetween(this.hdr, now, this.pending.truncates)
    ) {
      this.newGeneration("the log was restarted again after our TRUNCATE before its frames were archived");
    } else if (!this.pending && !this.locked && this.hdr) {
      // Someone else restarted the log. Nothing is lost if it was one restart and our last frame
      // is still intact (the old epoch's remaining frames then follow it in the file).
      if (restartsBetween(this.hdr, now, 1) && this.lastFrameIntact(size)) this.readFrames(size);
      else this.newGeneration("the log was restarted by another process before its last frames were archived");
    }
    this.startEpoch(now);
    this.readFrames(size);
  }

  /** Our last archived frame is still in the file, unchanged: nothing of its epoch was overwritten. */
  private lastFrameIntact(size: number): boolean {
    return !!this.hdr && this.frame > 0 && this.wal.holdsFrame(this.hdr, this.frame, this.checksum, size);
  }

  private startEpoch(header: WalHeader): void {
    this.closeSegmentSoon();
    Object.assign(this, { epoch: this.epoch + 1, hdr: header, frame: 0, checksum: header.checksum, pending: null });
  }

  /** Archives the committed frames after our last one (in the current epoch's header). */
  private readFrames(size: number): void {
    const hdr = this.hdr!;
    const run = this.wal.readCommitted(hdr, this.frame + 1, size, this.checksum, this.lastRun);
    if (!run) return;
    // The next commit is likely about as long: read that much at once.
    this.lastRun = Math.min(run.frames + 4, 256);
    const at = this.now();
    if (!this.seg || this.seg.header.epoch !== this.epoch) {
      this.seg?.close();
      const { salt1, salt2, pageSize, bigEndian } = hdr;
      this.seg = new SegmentWriter(this.genDir, {
        epoch: this.epoch,
        salt: saltHex(hdr),
        salt1,
        salt2,
        pageSize,
        bigEndian,
        first: this.frame + 1,
        start: this.checksum,
      });
    }
    this.seg.append(
      run.parts,
      run.commits.map((c) => ({ frame: this.frame + c.index, at, dbSize: c.dbSize })),
    );
    Object.assign(this, { frame: this.frame + run.frames, checksum: run.checksum, committedAt: at });
    // Not under our write lock (and not what the log held at start): another process's commits.
    this.checkpoints.noteFrames(run.frames, !this.locked && this.started);
    if (this.seg.bytes >= SEGMENT_MAX_BYTES) this.closeSegmentSoon();
  }

  /** Ends the open segment with its fsyncs off the event loop (a new epoch, 16 MB). */
  private closeSegmentSoon(): void {
    void this.closeInBackground().catch((err) => this.opts.onError?.("WAL archive: closing a segment failed", err));
  }

  /** Closes the open segment off the event loop; settles once it and every earlier one is on disk. */
  private closeInBackground(): Promise<void> {
    const seg = this.seg;
    this.seg = null;
    if (seg) {
      const done = new Promise<void>((resolve, reject) => closeSegmentInBackground(seg, reject, resolve));
      this.closing.add(done);
      const forget = () => this.closing.delete(done);
      done.then(forget, forget);
    }
    return Promise.all([...this.closing]).then(() => {});
  }

  position(): WalPosition {
    this.begin();
    return {
      generation: this.generation,
      epoch: Math.max(0, this.epoch),
      salt: this.hdr ? saltHex(this.hdr) : "",
      frame: this.frame,
      committedAt: this.committedAt,
    };
  }

  /**
   * flush: false (the tail step) leaves the open segment's fsync to its close in the background:
   * its frames are written (a process crash loses nothing), only a power cut could lose them
   * (and the unclean start that follows begins a new generation).
   */
  checkpoint(mode: "passive" | "truncate", opts: { flush?: boolean } = {}): boolean {
    this.begin();
    const { sqlite } = this.opts;
    if (this.closed || this.suspended > 0 || sqlite.inTransaction) return false;
    // data_version moves when another connection commits: read before observing, so a commit
    // that slips in before the TRUNCATE (its frames then gone unseen) cannot go unnoticed.
    // The thread's checkpoint would make this one busy (at close: the log left unfolded).
    if (mode === "truncate") this.checkpoints.waitIdle(5000);
    const version = dataVersion(sqlite);
    this.observeNow();
    if (opts.flush !== false || mode === "truncate") this.flush();
    const before = sqlite.query<{ timeout: number }, []>("PRAGMA busy_timeout").get()?.timeout ?? 5000;
    sqlite.exec("PRAGMA busy_timeout = 0");
    let row: { busy: number; log: number; checkpointed: number } | null;
    try {
      row = sqlite
        .query<{ busy: number; log: number; checkpointed: number }, []>(
          `PRAGMA wal_checkpoint(${mode === "truncate" ? "TRUNCATE" : "PASSIVE"})`,
        )
        .get();
    } catch (err) {
      if (/busy|locked/i.test((err as Error).message)) return false;
      throw err;
    } finally {
      sqlite.exec(`PRAGMA busy_timeout = ${before}`);
    }
    if (!row || row.busy) return false;
    if (mode === "truncate") {
      this.seen = null;
      if (dataVersion(sqlite) !== version) this.newGeneration("another process committed while the log was being truncated");
      else if (this.pending !== "any") this.pending = { truncates: (this.pending?.truncates ?? 0) + 1 };
    }
    if (mode === "truncate" || row.log === row.checkpointed) this.checkpoints.sinceCheckpoint = 0;
    return true;
  }

  suspendCheckpoints(): () => void {
    this.begin();
    this.suspended++;
    // One already asked of the thread could otherwise still complete, and a write on another
    // connection (a restore's swap) then restart the log as if another process had.
    this.checkpoints.waitIdle(5000);
    let released = false;
    return () => {
      if (!released) (released = true), this.suspended--;
    };
  }

  /**
   * flush() with its fsyncs off the event loop (before a backup's manifest: under load the three
   * fsyncs of a segment's close held it 85 ms there); rejects if they fail.
   */
  flushInBackground(): Promise<void> {
    this.begin();
    return this.closeInBackground();
  }

  flush(): void {
    this.begin();
    this.seg?.close();
    this.seg = null;
  }

  close(): void {
    this.begin();
    if (this.closed) return;
    this.observeNow();
    this.closed = true;
    this.poll?.stop();
    this.checkpoints.close();
    this.flush();
    const db = dbIdentity(this.opts.dbPath);
    const clean =
      this.broken || !db
        ? null
        : { db, epoch: this.epoch, header: this.hdr, frame: this.frame, checksum: this.checksum, committedAt: this.committedAt };
    writeJsonDurably(join(this.dir, "state.json"), { generation: this.generation, clean } satisfies ArchiveState);
    this.wal.close();
  }
}
