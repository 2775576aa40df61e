/**
 * Positions in the WAL archive (wal-archive.ts), shared by the snapshot, the replay and the
 * backups domain (a backup's manifest records the position its copy stands at).
 */

/** A commit, as the archive knows it. */
export interface WalPosition {
  /** The run of continuously archived WAL this commit belongs to (a new one begins whenever continuity is lost). */
  generation: string;
  /** Which WAL header of the generation (0, 1, …): a new one each time SQLite restarts the log. */
  epoch: number;
  /** That header's salts (16 hex digits): the epoch as SQLite names it. */
  salt: string;
  /** The commit's frame in that epoch (1-based); 0 when the epoch has no frame yet. */
  frame: number;
  /** When it was archived (ms since the epoch); 0 for a position with no commit yet. */
  committedAt: number;
}

export interface WalArchive {
  dir: string;
  /** Reads where the archive stands and copies the log (once); every other call does it first. */
  begin(): void;
  /**
   * Copies the frames appended since the last call and notes the commits' time. `"locked"`: the
   * caller holds the write lock (right after BEGIN IMMEDIATE), so a restart of the log before the
   * next call is the caller's own and loses nothing.
   */
  observe(moment?: "locked" | "released"): void;
  /** The last commit archived. */
  position(): WalPosition;
  /** Observes, fsyncs, then checkpoints (busy_timeout 0: busy → false, try later); never while suspended. */
  checkpoint(mode: "passive" | "truncate"): boolean;
  /** A raw copy of the database file is being read: no checkpoint until the returned release is called. */
  suspendCheckpoints(): () => void;
  /** Closes the open segment: its frames and commit times are on disk (fsynced). */
  flush(): void;
  /** flush() with the fsyncs off the event loop. */
  flushInBackground(): Promise<void>;
  /** After the database closed: records where the archive stands so the next start may continue it. */
  close(): void;
}

/** The time asked for is not covered continuously from the base given (before it, past the archive, or across a gap). */
export class NotCoveredError extends Error {
  readonly code = "not_covered";
}
