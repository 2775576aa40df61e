/**
 * What a backup is, as its manifest.json says (docs/decisions.md, "Backups live on disk, not in the
 * database"). The manifest lives on disk beside the copy, never in the database: a restore replaces
 * the database and must not make the instance forget newer backups.
 */
import type { WalPosition } from "../platform/backup/types";
import type { BackupCounts } from "./queries";

// What a copy holds is read by queries.ts (describeCopy); re-exported for the domain's callers.
export { describeCopy, type BackupCounts, type CopyContents } from "./queries";

export const BACKUP_KINDS = ["scheduled", "manual", "pre-migration", "safety", "automatic"] as const;
export type BackupKind = (typeof BACKUP_KINDS)[number];

/** The kinds retention never removes: they go only by hand (docs/decisions.md, "Retention"). */
export const KEPT_BY_HAND: readonly BackupKind[] = ["manual", "pre-migration", "safety"];

/** Where the write-ahead log stood at the copy: the base of point-in-time restore. */
export type { WalPosition };

export type RemovedReason = "retention" | "by_hand" | "discarded";

export interface BackupManifest {
  format: 1;
  label: string;
  kind: BackupKind;
  createdAt: string;
  appVersion: string;
  bytes: number;
  sha256: string;
  /** The last migration the copy has (its schema). */
  schemaVersion: string;
  counts: BackupCounts;
  auditHead: { sequence: number; hash: string } | null;
  /** sha256 of every blob the copy refers to: shared with the live file store, never copied. */
  files: string[];
  wal: WalPosition | null;
  removedAt: string | null;
  removedReason: RemovedReason | null;
}

/** A manifest read from disk, or null when it is not one (a foreign file, a half-written one from another tool). */
export function parseManifest(text: string): BackupManifest | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== "object") return null;
  const m = value as BackupManifest;
  if (
    m.format !== 1 ||
    typeof m.label !== "string" ||
    !(BACKUP_KINDS as readonly string[]).includes(m.kind) ||
    typeof m.createdAt !== "string" ||
    !Array.isArray(m.files)
  )
    return null;
  return {
    ...m,
    removedAt: m.removedAt ?? null,
    removedReason: m.removedReason ?? null,
    wal: m.wal ?? null,
    auditHead: m.auditHead ?? null,
  };
}

/** Labels are UTC times, safe in a file name: 2026-11-24T03-00-00Z. */
export function labelFor(time: number): string {
  return new Date(time)
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/:/g, "-");
}

/** A label as this module writes them (a time, with -2, -3… for a second one in the same second). */
export const LABEL_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z(-\d{1,4})?$/;
