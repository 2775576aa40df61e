import { closeSync, fsyncSync, openSync, renameSync, writeFileSync } from "node:fs";
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
