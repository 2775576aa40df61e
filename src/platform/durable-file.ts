import { closeSync, fsyncSync, openSync, renameSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { PRIVATE_FILE } from "./datadir";

/** fsync a file or a folder (a folder's entry list: what makes a rename durable). */
export function fsyncPath(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

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

/**
 * Writes a small file whole or not at all, and durably: a temporary name (private), fsync,
 * rename, fsync of the folder. Synchronous, so two writes of one file never interleave.
 */
export function writeFileDurably(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, text, { mode: PRIVATE_FILE });
  fsyncPath(tmp);
  renameSync(tmp, path);
  fsyncPath(join(path, ".."));
}
