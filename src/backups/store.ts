/**
 * Backups on disk (backups/<label>/cairn.db and manifest.json). A backup is written into
 * backups/.partial-<label>/, fsynced, and renamed into place once complete, so a folder without
 * the dot always holds a whole backup; a .partial- folder left by a crash is never listed and
 * is removed at the next start (removePartials).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Core } from "../core";
import { PRIVATE_DIR } from "../platform/datadir";
import { fsyncPath, writeFileDurably } from "../platform/durable-file";
import { iso } from "../platform/clock";
import { labelFor, LABEL_PATTERN, parseManifest, type BackupManifest, type RemovedReason } from "./manifest";

export const PARTIAL_PREFIX = ".partial-";
const RESERVED = new Set(["wal", "state"]);

export const backupDir = (backupsDir: string, label: string) => join(backupsDir, label);
export const backupDbPath = (core: Core, label: string) => join(core.data.backupsDir, label, "cairn.db");

/** A label not taken yet (its folder, finished or partial): the time, then -2, -3… */
export function freeLabel(backupsDir: string, time: number): string {
  const base = labelFor(time);
  for (let n = 1; ; n++) {
    const label = n === 1 ? base : `${base}-${n}`;
    if (!existsSync(join(backupsDir, label)) && !existsSync(join(backupsDir, PARTIAL_PREFIX + label))) return label;
  }
}

/** Creates backups/.partial-<label>/ (private) and answers its path. */
export function startPartial(backupsDir: string, label: string): string {
  mkdirSync(backupsDir, { recursive: true, mode: PRIVATE_DIR });
  const dir = join(backupsDir, PARTIAL_PREFIX + label);
  mkdirSync(dir, { mode: PRIVATE_DIR });
  return dir;
}

/** The manifest goes last; then the folder takes its real name. Answers the backup's folder. */
export function completePartial(backupsDir: string, partialDir: string, manifest: BackupManifest): string {
  writeFileDurably(join(partialDir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const dir = join(backupsDir, manifest.label);
  renameSync(partialDir, dir);
  fsyncPath(backupsDir);
  return dir;
}

/** Removes every .partial- folder: only at start (the server's, or a stopped data directory's command), when nothing writes one. */
export function removePartials(backupsDir: string): string[] {
  const removed: string[] = [];
  for (const name of safeReaddir(backupsDir)) {
    if (!name.startsWith(PARTIAL_PREFIX)) continue;
    rmSync(join(backupsDir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

export function readManifestIn(backupsDir: string, label: string): BackupManifest | null {
  if (!LABEL_PATTERN.test(label) || RESERVED.has(label)) return null;
  let text: string;
  try {
    text = readFileSync(join(backupsDir, label, "manifest.json"), "utf8");
  } catch {
    return null;
  }
  const m = parseManifest(text);
  return m && m.label === label ? m : null;
}

export const readManifest = (core: Core, label: string) => readManifestIn(core.data.backupsDir, label);

/** Newest first; removed ones (their copy deleted, the manifest kept) only when asked. */
export function listManifestsIn(backupsDir: string, opts: { includeRemoved?: boolean } = {}): BackupManifest[] {
  const out: BackupManifest[] = [];
  for (const name of safeReaddir(backupsDir)) {
    if (name.startsWith(".") || RESERVED.has(name)) continue;
    const m = readManifestIn(backupsDir, name);
    if (m && (opts.includeRemoved || !m.removedAt)) out.push(m);
  }
  return out.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.label.localeCompare(a.label));
}

export const listManifests = (core: Core, opts: { includeRemoved?: boolean } = {}) => listManifestsIn(core.data.backupsDir, opts);

/** Deletes the copy and keeps the manifest, marked removed (so includeRemoved can still show it). */
export function markRemoved(core: Core, label: string, reason: RemovedReason): BackupManifest | null {
  const m = readManifest(core, label);
  if (!m || m.removedAt) return m;
  const removed: BackupManifest = { ...m, removedAt: iso(core.clock.now()), removedReason: reason };
  // The manifest first: a crash between the two leaves a removed backup with its copy still
  // there (deleted again next time), never a listed backup without its copy.
  writeFileDurably(join(core.data.backupsDir, label, "manifest.json"), `${JSON.stringify(removed, null, 2)}\n`);
  rmSync(backupDbPath(core, label), { force: true });
  for (const extra of ["cairn.db-wal", "cairn.db-shm"]) rmSync(join(core.data.backupsDir, label, extra), { force: true });
  return removed;
}

/** When the newest backup not removed was taken (the dashboard's health); null when there is none. */
export function lastBackupAt(core: Core): string | null {
  return listManifests(core)[0]?.createdAt ?? null;
}

/** The live WAL archive (core.wal, when the core archives the log), or null. */
export const archiveOf = (core: Core) => core.wal;
