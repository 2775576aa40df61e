/**
 * The backup targets' configuration: backups/state/targets.json, on disk beside the backups and
 * not in the database (a restore replaces the database and must not forget where copies go).
 * S3 credentials are sealed with the instance key (platform/secret-box.ts); they are opened only
 * to make a connection and never leave this module's callers in an answer.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Core } from "../core";
import { PRIVATE_DIR } from "../platform/datadir";
import { writeFileDurably } from "../platform/durable-file";
import { openSecret, sealSecret, SecretBoxError } from "../platform/secret-box";

export const SLOTS = ["directory", "s3"] as const;
export type Slot = (typeof SLOTS)[number];
export const isSlot = (s: string): s is Slot => (SLOTS as readonly string[]).includes(s);

/** The secret-box purpose of the targets' credentials. */
const PURPOSE = "backup-target";

export interface DirectoryTarget {
  path: string;
}

export interface S3Target {
  endpoint: string;
  region: string;
  bucket: string;
  /** Key prefix inside the bucket, without slashes at either end ("" for the bucket's root). */
  prefix: string;
  /** true: https://host/bucket/key; false: https://bucket.host/key (virtual-hosted). */
  pathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
}

/** What the last test or copy came to, for the admin screen. */
export interface LastRun {
  at: string;
  ok: boolean;
  /** Plain words on what to fix, when it failed. */
  error: string | null;
  /** A copy's counts. */
  summary?: Record<string, number>;
}

interface Kept {
  updatedAt: string;
  /**
   * Who holding backups.restore set the slot (or first copied to it): copies to it may then be
   * started with backups.manage alone. Absent on slots set before that rule: their first copy
   * needs backups.restore.
   */
  approvedBy?: string | null;
  lastTest: LastRun | null;
  lastCopy: LastRun | null;
}

export type StoredDirectory = DirectoryTarget & Kept;
export type StoredS3 = Omit<S3Target, "accessKeyId" | "secretAccessKey"> &
  Kept & { accessKeyIdSealed: string; secretAccessKeySealed: string };

export interface TargetsFile {
  format: 1;
  directory: StoredDirectory | null;
  s3: StoredS3 | null;
}

const EMPTY: TargetsFile = { format: 1, directory: null, s3: null };

export const targetsPath = (core: Core) => join(core.data.backupsDir, "state", "targets.json");

export function readTargets(core: Core): TargetsFile {
  let text: string;
  try {
    text = readFileSync(targetsPath(core), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { ...EMPTY };
    throw err;
  }
  const value = JSON.parse(text) as Partial<TargetsFile>;
  if (value.format !== 1) throw new Error(`${targetsPath(core)}: unknown format ${String(value.format)}`);
  return { format: 1, directory: value.directory ?? null, s3: value.s3 ?? null };
}

/** Whole and durable (synchronous, so two changes never interleave). */
export function writeTargets(core: Core, file: TargetsFile): void {
  const path = targetsPath(core);
  mkdirSync(join(path, ".."), { recursive: true, mode: PRIVATE_DIR });
  writeFileDurably(path, `${JSON.stringify(file, null, 2)}\n`);
}

export function updateTargets(core: Core, change: (file: TargetsFile) => void): TargetsFile {
  const file = readTargets(core);
  change(file);
  writeTargets(core, file);
  return file;
}

export const seal = (core: Core, plain: string) => sealSecret(core.data.secretKey, PURPOSE, plain);

/** The S3 slot with its credentials opened, to connect with. */
export function openS3(core: Core, stored: StoredS3): S3Target {
  const { accessKeyIdSealed, secretAccessKeySealed, updatedAt: _u, lastTest: _t, lastCopy: _c, approvedBy: _a, ...rest } = stored;
  return {
    ...rest,
    accessKeyId: openSecret(core.data.secretKey, PURPOSE, accessKeyIdSealed),
    secretAccessKey: openSecret(core.data.secretKey, PURPOSE, secretAccessKeySealed),
  };
}

/**
 * The stored access key ID, or null when the sealed credentials do not open with this
 * instance's key (secret.key replaced, or targets.json brought from another instance): they
 * must then be entered again.
 */
export function accessKeyIdOf(core: Core, stored: StoredS3): string | null {
  try {
    return openSecret(core.data.secretKey, PURPOSE, stored.accessKeyIdSealed);
  } catch (err) {
    if (err instanceof SecretBoxError) return null;
    throw err;
  }
}

export const UNREADABLE_CREDENTIALS =
  "The stored S3 credentials do not open with this server's key (data/secret.key was replaced, or the " +
  "settings came from another server). Enter the access key ID and the secret again.";

/** Records a test's or a copy's outcome on a slot still configured (a slot removed meanwhile stays removed). */
export function recordRun(core: Core, slot: Slot, what: "lastTest" | "lastCopy", run: LastRun): void {
  updateTargets(core, (file) => {
    const stored = file[slot];
    if (stored) stored[what] = run;
  });
}
