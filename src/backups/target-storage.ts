/**
 * What the copy and the probe need of a target, whichever kind it is (a folder on an external
 * disk or network mount, target-directory.ts; an S3-compatible bucket, target-s3.ts). Keys are
 * relative, with "/" between parts: `cairn-index.json`, `backups/<label>/cairn.db`,
 * `files/ab/cdef…`.
 */
export interface TargetStorage {
  /** Words naming the place, for reports: `the folder /mnt/usb/cairn`, `bucket "b" at https://…`. */
  where: string;
  /**
   * Copies a local file to `key` whole or not at all (a temporary name then a rename, or one
   * S3 PUT / multipart upload that only exists once complete). `sha256`: the bytes' expected
   * hash, checked where the copy reads them. Stops between chunks when `signal` is aborted.
   */
  putFile(key: string, localPath: string, opts: { sha256: string; signal: AbortSignal; onBytes(n: number): void }): Promise<void>;
  putBytes(key: string, bytes: Uint8Array): Promise<void>;
  /** null when there is no such object. */
  getBytes(key: string): Promise<Uint8Array | null>;
  /** Deletes an object; no error when it was not there. */
  remove(key: string): Promise<void>;
  /** The size of each of `keys` the target holds (absent keys are left out). */
  sizes(keys: string[]): Promise<Map<string, number>>;
  /** Turns an error of this target into plain words on what to fix. */
  explain(err: unknown): string;
}

/** A key made of safe parts only (no "..", no empty part, no backslash). */
export function checkKey(key: string): string {
  if (!key || key.split("/").some((p) => p === "" || p === "." || p === "..") || key.includes("\\"))
    throw new Error(`not a target key: ${key}`);
  return key;
}

export const blobKey = (sha256: string) => `files/${sha256.slice(0, 2)}/${sha256.slice(2)}`;
export const INDEX_KEY = "cairn-index.json";
