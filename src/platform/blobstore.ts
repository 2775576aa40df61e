/**
 * The blob store: every file Cairn keeps (attachments; later avatars, icons, logos) goes
 * through this one interface (docs/architecture.md, "Files"), so the files can later move to
 * S3-compatible storage by swapping the implementation (`useBlobStore`). Blobs are addressed by the
 * SHA-256 of their bytes and never change once stored; the same bytes are stored once.
 *
 * Deciding WHEN a blob may go (nothing refers to it any more) is the domain's job
 * (attachments/blob-refs.ts); the store only keeps blobs that are being stored right now safe
 * from that decision (see BlobLease).
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { newId } from "./crypto";

export interface BlobLease {
  sha256: string;
  size: number;
  /** False when the store already held these bytes (the put changed nothing). */
  created: boolean;
  /**
   * Until this is called the blob cannot be deleted, even though nothing refers to it yet: call
   * it once the row that refers to it has committed (or failed to).
   */
  release(): void;
}

export interface BlobStore {
  /**
   * Stores the bytes of `source`. An error thrown by the source (a size limit, a broken
   * upload) aborts the put, leaves nothing behind and is thrown again.
   */
  put(source: AsyncIterable<Uint8Array>): Promise<BlobLease>;
  /** The stored bytes (a Blob streams from the store when read), or null when absent. */
  open(sha256: string): Promise<Blob | null>;
  has(sha256: string): Promise<boolean>;
  /** The size in bytes, or null when absent. */
  size(sha256: string): Promise<number | null>;
  /**
   * Deletes a blob, unless it is leased (a put of the same bytes is in flight): answers whether
   * it was deleted. The check and the deletion start in the same tick, so a caller that checked
   * references synchronously just before cannot race an upload.
   */
  delete(sha256: string): Promise<boolean>;
  /** Every stored sha256 (for the start-up sweep of unreferenced blobs). */
  list(): AsyncIterable<string>;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Blobs as files under the data directory's files/: `files/ab/cdef…` (the first two hex digits
 * are a folder, so no folder grows past 1/256 of the files). A put streams into tmp/ (same file
 * system, so the final rename is atomic), hashing as it goes, fsyncs, then renames into place.
 */
export class FsBlobStore implements BlobStore {
  private readonly leases = new Map<string, number>();

  constructor(
    private readonly filesDir: string,
    private readonly tmpDir: string,
  ) {}

  pathOf(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return join(this.filesDir, sha256.slice(0, 2), sha256.slice(2));
  }

  async put(source: AsyncIterable<Uint8Array>): Promise<BlobLease> {
    const tmp = join(this.tmpDir, `blob-${newId()}`);
    const hasher = new Bun.CryptoHasher("sha256");
    let size = 0;
    try {
      const fd = openSync(tmp, "wx", 0o600);
      try {
        // 1. stream into tmp/, hashing. Plain synchronous writes of each chunk as it comes: no
        //    copies or queues in between, and the next chunk is read only once this one is down.
        for await (const chunk of source) {
          hasher.update(chunk);
          size += chunk.byteLength;
          let written = 0;
          while (written < chunk.byteLength) written += writeSync(fd, chunk, written);
        }
        // 2. on disk before it gets its name.
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      // 3. move into place (the same bytes already there: nothing to do) and lease the hash, all
      //    in one tick, so no delete can come between the check and the lease.
      const sha256 = hasher.digest("hex");
      const target = this.pathOf(sha256);
      let created = false;
      if (existsSync(target)) rmSync(tmp, { force: true });
      else {
        mkdirSync(join(this.filesDir, sha256.slice(0, 2)), { recursive: true, mode: 0o700 });
        renameSync(tmp, target);
        syncDir(join(this.filesDir, sha256.slice(0, 2)));
        created = true;
      }
      this.leases.set(sha256, (this.leases.get(sha256) ?? 0) + 1);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        const n = (this.leases.get(sha256) ?? 1) - 1;
        if (n > 0) this.leases.set(sha256, n);
        else this.leases.delete(sha256);
      };
      return { sha256, size, created, release };
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
  }

  async open(sha256: string): Promise<Blob | null> {
    if (!SHA256.test(sha256)) return null;
    const file = Bun.file(this.pathOf(sha256));
    return (await file.exists()) ? file : null;
  }

  async has(sha256: string): Promise<boolean> {
    return SHA256.test(sha256) && existsSync(this.pathOf(sha256));
  }

  async size(sha256: string): Promise<number | null> {
    if (!SHA256.test(sha256)) return null;
    try {
      return statSync(this.pathOf(sha256)).size;
    } catch {
      return null;
    }
  }

  async delete(sha256: string): Promise<boolean> {
    if (!SHA256.test(sha256) || this.leases.has(sha256)) return false;
    try {
      unlinkSync(this.pathOf(sha256));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw err;
    }
  }

  async *list(): AsyncIterable<string> {
    for (const dir of readdirSync(this.filesDir)) {
      if (!/^[0-9a-f]{2}$/.test(dir)) continue;
      for (const name of readdirSync(join(this.filesDir, dir))) {
        const sha256 = dir + name;
        if (SHA256.test(sha256)) yield sha256;
      }
    }
  }
}

/** A rename is durable once its folder is synced. */
function syncDir(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** What the store needs of an instance (the core has it; the platform imports no core). */
export interface BlobHost {
  data: { filesDir: string; tmpDir: string };
}

const stores = new WeakMap<BlobHost, BlobStore>();

/** The instance's blob store: the files/ folder of its data directory unless replaced. */
export function blobStore(core: BlobHost): BlobStore {
  let store = stores.get(core);
  if (!store) stores.set(core, (store = new FsBlobStore(core.data.filesDir, core.data.tmpDir)));
  return store;
}

/** Replaces the instance's blob store (S3 later; tests). */
export function useBlobStore(core: BlobHost, store: BlobStore): void {
  stores.set(core, store);
}
