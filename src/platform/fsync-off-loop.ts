import { open } from "node:fs/promises";

/**
 * fsync a file with the wait on a worker thread (node:fs's promises), never on the event loop.
 * Any descriptor of a file syncs the whole file, so a read-only one of a file another library
 * writes (SQLite's log) makes what it wrote so far durable. A missing file is nothing to sync.
 */
export async function fsyncPathOffLoop(path: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
