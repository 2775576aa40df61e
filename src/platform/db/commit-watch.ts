/**
 * Has anyone committed to the database since we last looked? Asked on every request (the change
 * stamp's "another process committed" half, change-stamp.ts), where PRAGMA data_version cost
 * about 5 µs each time: it opens a read transaction, which takes and drops file locks.
 *
 * In WAL mode every connection, in any process, publishes each commit in the header of the
 * WAL index, the first bytes of the `-shm` file that SQLite maps into every connection's memory
 * (its layout is part of SQLite's documented file format: a 48-byte header, written twice, whose
 * change counter goes up with every commit, beside the last frame, the salts and a checksum).
 * Mapping the same bytes and comparing them with what we saw last answers in nanoseconds. It
 * only says "something may have changed": the caller then reads data_version itself, so our own
 * commits (which move the header too) still do not count as another connection's.
 *
 * The order makes it safe: the header is copied before data_version is read, so a commit after
 * the copy moves the header again and is seen at the next look; a commit before it is in the
 * data_version read after. A torn read (a writer halfway through the header) differs from the
 * copy and only costs one data_version read too much.
 *
 * The mapping never outlives the file's first page: SQLite shrinks the file only when a first
 * connection opens it, which cannot happen while ours is open, and even then to 3 bytes of that
 * same page (a mapped page partly inside the file reads as zeros beyond it, it does not fault).
 */
import type { Database } from "bun:sqlite";
import { existsSync } from "node:fs";

/** The header's words after the version and an unused word: change counter … checksum. */
const FIRST_WORD = 2;
const WORDS = 12;

export interface CommitWatch {
  /** True when the header moved since the last call (or this is the first); the new header is kept. */
  moved(): boolean;
}

/** A watch on this connection's WAL index, or null where there is none to map (not WAL, in memory). */
export function watchCommits(db: Database): CommitWatch | null {
  const path = db.filename;
  if (!path || path === ":memory:" || !existsSync(`${path}-shm`)) return null;
  if ((db.query("PRAGMA journal_mode").get() as { journal_mode: string } | null)?.journal_mode !== "wal") return null;
  let header: Uint32Array;
  try {
    const bytes = Bun.mmap(`${path}-shm`, { shared: true, size: WORDS * 4 });
    if (bytes.byteLength < WORDS * 4) return null;
    header = new Uint32Array(bytes.buffer, bytes.byteOffset, WORDS);
  } catch {
    return null;
  }
  const seen = new Uint32Array(WORDS);
  let first = true;
  return {
    moved() {
      let moved = first;
      first = false;
      for (let i = FIRST_WORD; i < WORDS; i++) {
        const word = header[i];
        if (word !== seen[i]) {
          seen[i] = word;
          moved = true;
        }
      }
      return moved;
    },
  };
}
