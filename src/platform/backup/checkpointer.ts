/**
 * PASSIVE checkpoints on a thread of their own (docs/decisions.md, "Writers wait at most 50 ms on
 * backing up").
 *
 * A checkpoint copies frames into cairn.db and, with synchronous=FULL, fsyncs the file: on the
 * main thread that held the event loop 50-250 ms every ~1000 frames under four writers, and far
 * longer for the backlog a backup's pinned reader leaves behind. Here it runs on its own
 * connection in a Worker, so the main thread only asks and hears back.
 *
 * Safe beside the archive: a PASSIVE checkpoint never changes the log, it only copies frames
 * into the file (never past a reader's mark: a backup's pinned snapshot holds it back by itself).
 * What overwrites frames is the log's restart, and that happens only inside a write on our own
 * connection, after the archive has observed (or in another process, which the archive
 * follows as before).
 *
 * The worker's code is a string run from a Blob URL: a `new Worker(file)` is not in the compiled
 * binary unless the build names it as an entrypoint; this needs nothing from the build.
 */
export interface CheckpointResult {
  busy: boolean;
  /** Frames in the log, and how many of them are now in the file. */
  log: number;
  checkpointed: number;
}

export interface Checkpointer {
  /** Starts a checkpoint unless one is running; false when one was already running. */
  request(): boolean;
  running(): boolean;
  /** Blocks (at most `ms`) until a running checkpoint ends: a TRUNCATE at close must not find it busy. */
  waitIdle(ms: number): void;
  close(): void;
}

const WORKER_SOURCE = `
import { Database } from "bun:sqlite";
let db = null;
self.onmessage = (event) => {
  const { dbPath, running } = event.data;
  try {
    if (!db) {
      db = new Database(dbPath, { strict: true });
      db.exec("PRAGMA busy_timeout = 0");
      db.exec("PRAGMA synchronous = FULL");
      db.exec("PRAGMA wal_autocheckpoint = 0");
    }
    const row = db.query("PRAGMA wal_checkpoint(PASSIVE)").get();
    postMessage({ busy: row.busy !== 0, log: row.log, checkpointed: row.checkpointed });
  } catch (err) {
    const message = String(err && err.message || err);
    postMessage({ busy: true, log: -1, checkpointed: -1, error: /busy|locked/i.test(message) ? null : message });
  } finally {
    Atomics.store(running, 0, 0);
    Atomics.notify(running, 0);
  }
};
`;

/** Null when no Worker can be started here (the caller then checkpoints on its own connection). */
export function startCheckpointer(
  dbPath: string,
  onResult: (r: CheckpointResult) => void,
  onError: (err: unknown) => void,
): Checkpointer | null {
  let worker: Worker;
  let url: string;
  try {
    url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
    worker = new Worker(url);
  } catch (err) {
    onError(err);
    return null;
  }
  // The thread must not keep a process alive that has nothing else to do.
  (worker as unknown as { unref?: () => void }).unref?.();
  let busy = false;
  let closed = false;
  // Set by us when a checkpoint is asked for, cleared by the thread when it ends (waitIdle).
  const running = new Int32Array(new SharedArrayBuffer(4));
  worker.onmessage = (event: MessageEvent<CheckpointResult & { error?: string | null }>) => {
    busy = false;
    if (closed) return;
    if (event.data.error) onError(new Error(event.data.error));
    onResult({ busy: event.data.busy, log: event.data.log, checkpointed: event.data.checkpointed });
  };
  worker.onerror = (event) => {
    busy = false;
    onError(event);
  };
  return {
    request() {
      if (busy || closed) return false;
      busy = true;
      Atomics.store(running, 0, 1);
      worker.postMessage({ dbPath, running });
      return true;
    },
    running: () => busy,
    waitIdle(ms) {
      if (busy) Atomics.wait(running, 0, 1, ms);
    },
    close() {
      if (closed) return;
      closed = true;
      worker.terminate();
      URL.revokeObjectURL(url);
    },
  };
}
