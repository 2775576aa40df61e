/**
 * When the WAL archive checkpoints (wal-archive.ts does the checkpoint itself). Never from a
 * timer on the main connection: under steady writers the server's group commit holds a
 * transaction open at almost every timer, so a timer found the log busy every time and it grew
 * without end (~6 MB/s under four writers). Instead, two steps:
 * 1. The bulk: a PASSIVE checkpoint on the checkpointing thread (checkpointer.ts), copying and
 *    fsyncing off the event loop, however many frames a backup's pin held back.
 * 2. The tail, once the thread left at most TAIL_FRAMES: right after one of our commits (a
 *    microtask: the log is at rest, the committing group has answered), a PASSIVE checkpoint on
 *    the main connection copies the few frames written meanwhile. Every frame is then in the
 *    file, so our next write restarts the log from its beginning: it stays a few MB.
 * A busy or partial checkpoint (a reader holds frames back) is tried again after
 * CHECKPOINT_RETRY_MS, not at every commit. While another process writes (Litestream restarting
 * the log after its own checkpoints, a CLI), every checkpoint that completes lets its next write
 * restart the log, so they stay rare and right after a look at the log (at most one a second,
 * from a timer), or two restarts between our looks would cost a generation.
 */
import { startCheckpointer, type Checkpointer, type CheckpointResult } from "./checkpointer";

const CHECKPOINT_RETRY_MS = 250;
/** What the main connection's own checkpoint may have left to copy (after the thread's). */
const TAIL_FRAMES = 256;
const FOREIGN_WRITER_MS = 60_000;
const FOREIGN_CHECKPOINT_MS = 1000;

export interface CheckpointHost {
  dbPath: string;
  /** Frames after which a checkpoint is tried. */
  frames: number;
  now(): number;
  /** Checkpoints may not start now (closed, suspended). */
  held(): boolean;
  inTransaction(): boolean;
  /** The checkpoint on the main connection: false when busy. */
  checkpoint(mode: "passive", opts: { flush: boolean }): boolean;
  onError(what: string, err: unknown): void;
}

export class CheckpointSchedule {
  /** Frames archived since the last complete checkpoint. */
  sinceCheckpoint = 0;
  private lastTry = 0;
  private scheduled = false;
  /** The checkpointing thread: undefined until first needed, null where none could start. */
  private worker: Checkpointer | null | undefined;
  /** The thread copied (nearly) everything: the next moment between our writes finishes the job. */
  private tailDue = false;
  /** When frames another process wrote (Litestream, a CLI) were last seen; 0: never. */
  private foreignAt = 0;
  private closed = false;

  constructor(private readonly host: CheckpointHost) {}

  /** Frames were archived; `foreign`: written by another process. */
  noteFrames(n: number, foreign: boolean): void {
    this.sinceCheckpoint += n;
    if (foreign) this.foreignAt = this.host.now();
  }

  /** Tries a checkpoint if one is due (after one of our commits, or from the poll timer). */
  maybe(): void {
    const { host } = this;
    if (this.scheduled || this.closed || host.held() || this.sinceCheckpoint < host.frames) return;
    if (this.foreignAt > 0 && host.now() - this.foreignAt < FOREIGN_WRITER_MS) return this.besideAnotherWriter();
    if (!this.tailDue && host.now() - this.lastTry < CHECKPOINT_RETRY_MS) return;
    const worker = this.tailDue ? null : this.thread();
    if (worker) {
      worker.request();
      return;
    }
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      // A write began in between: the next commit tries again.
      if (this.closed || host.inTransaction()) return;
      this.tailDue = false;
      try {
        if (!host.checkpoint("passive", { flush: false }) || this.sinceCheckpoint > 0) this.lastTry = host.now();
      } catch (err) {
        this.lastTry = host.now();
        host.onError("WAL checkpoint failed", err);
      }
    });
  }

  /** Waits (at most `ms`) for the thread's checkpoint under way: a TRUNCATE or a suspension follows. */
  waitIdle(ms: number): void {
    this.worker?.waitIdle(ms);
  }

  close(): void {
    this.closed = true;
    this.worker?.close();
  }

  private besideAnotherWriter(): void {
    const { host } = this;
    if (host.now() - this.lastTry < FOREIGN_CHECKPOINT_MS) return;
    this.scheduled = true;
    const timer = setTimeout(() => {
      this.scheduled = false;
      this.lastTry = host.now();
      try {
        host.checkpoint("passive", { flush: true });
      } catch (err) {
        host.onError("WAL checkpoint failed", err);
      }
    }, 0);
    timer.unref?.();
  }

  private thread(): Checkpointer | null {
    if (this.worker === undefined) {
      this.worker = startCheckpointer(
        this.host.dbPath,
        (r) => this.threadDone(r),
        (err) => this.host.onError("WAL checkpoint (thread) failed", err),
      );
    }
    return this.worker;
  }

  private threadDone(r: CheckpointResult): void {
    if (this.closed) return;
    if (!r.busy && r.log >= 0 && r.log - r.checkpointed <= TAIL_FRAMES) this.tailDue = true;
    else this.lastTry = this.host.now();
  }
}
