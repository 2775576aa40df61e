import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { randomBytes } from "./crypto";

/** The layout of the one data directory (README.md, "The data directory"). */
export interface DataDir {
  root: string;
  dbPath: string;
  filesDir: string;
  backupsDir: string;
  tmpDir: string;
  secretKey: Uint8Array;
  /** Paths of an existing data directory that others on the machine can read (warned at start). */
  exposed: string[];
}

/** Only the account that runs Cairn may read what it keeps (pages, password hashes, the key). */
export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;

/**
 * Prepares the data directory for a server start:
 * 1. create the folders that are missing, private to this account (0700);
 * 2. empty tmp/ (scratch left by a crash is never trusted);
 * 3. create secret.key (mode 0600) on first start, then always reuse it.
 */
export function prepareDataDir(dir: string): DataDir {
  const root = resolve(dir);
  const layout = {
    root,
    dbPath: join(root, "cairn.db"),
    filesDir: join(root, "files"),
    backupsDir: join(root, "backups"),
    tmpDir: join(root, "tmp"),
  };
  for (const d of [root, layout.filesDir, layout.backupsDir]) {
    if (!existsSync(d)) mkdirSync(d, { recursive: true, mode: PRIVATE_DIR });
  }
  rmSync(layout.tmpDir, { recursive: true, force: true });
  mkdirSync(layout.tmpDir, { recursive: true, mode: PRIVATE_DIR });
  const exposed = [root, layout.filesDir, layout.backupsDir, layout.dbPath].filter(
    (p) => existsSync(p) && (statSync(p).mode & 0o077) !== 0,
  );

  const keyPath = join(root, "secret.key");
  if (!existsSync(keyPath)) {
    writeFileSync(keyPath, Buffer.from(randomBytes(32)).toString("hex") + "\n", { mode: 0o600 });
  }
  chmodSync(keyPath, 0o600);
  const hex = readFileSync(keyPath, "utf8").trim();
  if (!/^[0-9a-f]{64}$/.test(hex))
    throw new Error(`${keyPath} is damaged: it must hold 64 hex characters. Restore it from a backup; a new key signs out every session.`);
  return { ...layout, secretKey: Uint8Array.from(Buffer.from(hex, "hex")), exposed };
}
