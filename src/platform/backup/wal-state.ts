/**
 * wal/state.json: which generation is current, and where the archive stood at a clean close
 * (with the database file's identity, so the next start knows nothing changed meanwhile).
 */
import type { Database } from "bun:sqlite";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Checksum, WalHeader } from "./wal-format";

export interface DbIdentity {
  size: string;
  mtimeNs: string;
  ino: string;
}

export interface ArchiveState {
  generation: string;
  clean: { db: DbIdentity; epoch: number; header: WalHeader | null; frame: number; checksum: Checksum; committedAt: number } | null;
}

export function readArchiveState(dir: string): ArchiveState | null {
  try {
    return JSON.parse(readFileSync(join(dir, "state.json"), "utf8")) as ArchiveState;
  } catch {
    return null;
  }
}

/** Size, modification time (ns) and inode: a file changed or replaced while Cairn was stopped differs. */
export function dbIdentity(dbPath: string): DbIdentity | null {
  try {
    const st = statSync(dbPath, { bigint: true });
    return { size: String(st.size), mtimeNs: String(st.mtimeNs), ino: String(st.ino) };
  } catch {
    return null;
  }
}

/** Moves when another connection commits (not for this one's own commits, nor checkpoints). */
export function dataVersion(sqlite: Database): number {
  return sqlite.query<{ data_version: number }, []>("PRAGMA data_version").get()?.data_version ?? 0;
}
