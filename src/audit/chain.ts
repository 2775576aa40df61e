/**
 * The audit log's hash chain (docs/decisions.md, "Audit log", "Hash").
 *
 * Each entry stores `prevHash` (the previous entry's `hash`; 64 zeros for entry 1) and
 *
 *   hash = lowercase hex SHA-256 of the UTF-8 text  prevHash + canonical(entry)
 *
 * where canonical(entry) is exactly this JSON array, written with JSON.stringify for each value
 * (no spaces), in this order:
 *
 *   [sequence, id, action, targetType, targetId, spaceId, actorId, actorName, ip, createdAt, details]
 *
 * sequence is a number, the others strings or null; `details` is inserted as the stored text
 * itself, which is canonical JSON: objects with their keys sorted by code unit
 * (Array.prototype.sort), no whitespace, no undefined values. Hashing the stored text rather
 * than a re-parsed copy means any byte changed in the row shows up.
 *
 * Appending costs one indexed SELECT (the last entry, with the actor's name in a subquery) and
 * one INSERT, inside the caller's transaction; writers are serialised (BEGIN IMMEDIATE, one
 * process), so two entries can never claim the same predecessor.
 */
import type { Core } from "../core";
import { appendStatements } from "./store";
import type { AuditRow } from "./tables";

export const GENESIS_HASH = "0".repeat(64);

/** JSON with object keys sorted at every level; undefined members dropped, as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  const obj = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(obj).sort()) {
    if (obj[key] === undefined || typeof obj[key] === "function") continue;
    parts.push(`${JSON.stringify(key)}:${canonicalJson(obj[key])}`);
  }
  return `{${parts.join(",")}}`;
}

type Hashed = Pick<
  AuditRow,
  "sequence" | "id" | "action" | "targetType" | "targetId" | "spaceId" | "actorId" | "actorName" | "ip" | "createdAt" | "details"
>;

export function canonicalEntry(e: Hashed): string {
  const head = [e.sequence, e.id, e.action, e.targetType, e.targetId, e.spaceId, e.actorId, e.actorName, e.ip, e.createdAt];
  return `[${head.map((v) => JSON.stringify(v)).join(",")},${e.details}]`;
}

export function entryHash(prevHash: string, entry: Hashed): string {
  return new Bun.CryptoHasher("sha256").update(prevHash).update(canonicalEntry(entry)).digest("hex");
}

const SECRET_KEY = /password|secret|cookie|^token$|hash$/i;
const MAX_ARRAY = 50;
const MAX_STRING = 1000;

/**
 * Details as stored: secrets redacted by key name (services already leave them out; this is the
 * second line of defence), long arrays and strings shortened so one entry stays small.
 */
export function cleanDetails(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  if (value === null || typeof value !== "object") return value;
  if (depth > 5) return "…";
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ARRAY).map((v) => cleanDetails(v, depth + 1));
    return value.length > MAX_ARRAY ? [...kept, `…and ${value.length - MAX_ARRAY} more`] : kept;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) ? "[redacted]" : cleanDetails(v, depth + 1);
  return out;
}

export interface NewAuditEntry {
  id: string;
  action: string;
  targetType: string;
  targetId: string;
  spaceId: string | null;
  actorId: string | null;
  ip: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

/** Appends one entry: one SELECT (the last entry and the actor's name), one INSERT. Must run inside the change's transaction. */
export function appendAudit(core: Core, entry: NewAuditEntry): AuditRow {
  const st = appendStatements(core);
  const last = st.last.get(entry.actorId);
  // Only the very first entry finds no row; the name then needs its own lookup.
  const actorName = last ? last.actorName : entry.actorId ? (st.name.get(entry.actorId)?.name ?? null) : null;
  const row: AuditRow = {
    sequence: (last?.sequence ?? 0) + 1,
    id: entry.id,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    spaceId: entry.spaceId,
    actorId: entry.actorId,
    actorName,
    ip: entry.ip,
    details: canonicalJson(cleanDetails(entry.details)),
    createdAt: entry.createdAt,
    prevHash: last?.hash ?? GENESIS_HASH,
    hash: "",
  };
  row.hash = entryHash(row.prevHash, row);
  st.insert.run(row);
  return row;
}
