/**
 * The audit log (docs/decisions.md, "Audit log"): every recorded event becomes an entry in the same
 * transaction (installAuditLog), read newest first by GET /api/audit and checked link by link by
 * POST /api/admin/audit/verify.
 */
import { and, eq, gte, lt, lte, type SQL } from "drizzle-orm";
import { canReadPage } from "../access/pages";
import { requireRight } from "../identity/rights";
import { canReadSpace } from "../access/spaces";
import { requireUser, type Caller } from "../identity/caller";
import type { Core } from "../core";
import { EVENT_TYPES, onEventRecorded, TARGET_TYPES } from "../events/outbox";
import { invalid } from "../platform/errors";
import { appendAudit, entryHash, GENESIS_HASH } from "./chain";
import { entriesBefore, entriesFrom, highestSequenceIssued, pagesAndSpaces } from "./store";
import { auditLog, type AuditRow } from "./tables";

/** Makes every recorded event append its audit entry, in the event's own transaction. */
export function installAuditLog(core: Core): void {
  onEventRecorded(core, (core, event, input) => {
    appendAudit(core, {
      // The entry shares the event's id, so the two can be matched.
      id: event.id,
      action: event.type,
      targetType: event.targetType,
      targetId: event.targetId,
      spaceId: event.spaceId,
      actorId: event.actorId,
      ip: input.ip ?? null,
      details: event.data,
      createdAt: event.createdAt,
    });
  });
}

/** An entry as the API answers it (docs/api.md, "Response shapes"). */
export function toAuditEntry(row: AuditRow) {
  return {
    id: row.id,
    sequence: row.sequence,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    spaceId: row.spaceId,
    actorId: row.actorId,
    actorName: row.actorName,
    ip: row.ip,
    details: parseDetails(row.details),
    createdAt: row.createdAt,
  };
}

/** Stored details are canonical JSON; a row edited into something else is shown, not a 500. */
function parseDetails(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value;
  } catch {
    // fall through
  }
  return { unreadable: text.slice(0, 1000) };
}

export const AUDIT_TAKE_DEFAULT = 50;
export const AUDIT_TAKE_MAX = 200;
export const AUDIT_BEFORE_RULE = "must be a whole number of at least 1: the sequence of the oldest entry already read";

export const AUDIT_ACTION_RULE = "must be an action such as page.updated, or a prefix ending in a dot such as page.";
export const AUDIT_TIME_RULE = "must be an ISO 8601 date (2026-03-01) or date and time (2026-03-01T12:00:00Z)";

export interface AuditQuery {
  targetType?: string;
  targetId?: string;
  /** Only entries by this user (an id; an unknown one matches nothing). */
  actorId?: string;
  /** An exact action ("page.updated"), or a prefix ending in a dot ("page.") for all of a kind. */
  action?: string;
  /** From this instant on; a bare date means from its start (UTC). */
  from?: string;
  /** Up to this instant; a bare date includes the whole of that day (UTC). */
  to?: string;
  take?: number;
  /** Only entries with a smaller sequence: the previous page's nextBefore. */
  before?: number;
}

export interface AuditPage {
  entries: ReturnType<typeof toAuditEntry>[];
  /** The `before` that reads the next (older) page, or null when no entry the caller may see is left. */
  nextBefore: number | null;
}

/**
 * GET /api/audit: the most recent entries the caller may see, newest first, from `before` down.
 * Needs `audit.view`. Entries about a space or page the caller cannot read (access/*) are left
 * out before counting `take`; entries about a space or page that no longer exists stay visible
 * (who deleted it is exactly what the log is for).
 * Sequences only grow and entries are never changed, so a sequence is a stable cursor: entries
 * written while someone pages land above the first page, never between two later ones.
 */
export function listAudit(core: Core, caller: Caller, query: AuditQuery): AuditPage {
  const user = requireUser(caller);
  requireRight(user, "audit.view");
  const take = query.take ?? AUDIT_TAKE_DEFAULT;
  if (!Number.isInteger(take) || take < 1 || take > AUDIT_TAKE_MAX)
    throw invalid("take", `must be a whole number from 1 to ${AUDIT_TAKE_MAX}`);
  // Safe integers only: 1e20 is "whole" to JavaScript but not a sequence SQLite could hold.
  if (query.before !== undefined && !(Number.isSafeInteger(query.before) && query.before >= 1)) throw invalid("before", AUDIT_BEFORE_RULE);
  if (query.targetType !== undefined && !(TARGET_TYPES as readonly string[]).includes(query.targetType))
    throw invalid("targetType", `must be one of ${TARGET_TYPES.join(", ")}`);

  const filters: SQL[] = [];
  if (query.targetType !== undefined) filters.push(eq(auditLog.targetType, query.targetType));
  if (query.targetId !== undefined) filters.push(eq(auditLog.targetId, query.targetId));
  if (query.actorId !== undefined) filters.push(eq(auditLog.actorId, query.actorId));
  if (query.action !== undefined) filters.push(actionFilter(query.action));
  const from = query.from === undefined ? undefined : instant("from", query.from, "start");
  const to = query.to === undefined ? undefined : instant("to", query.to, "end");
  if (from !== undefined && to !== undefined && from > to) throw invalid("to", "must not be before from");
  // createdAt is stored as toISOString() text, so comparing the same form compares instants.
  if (from !== undefined) filters.push(gte(auditLog.createdAt, from));
  if (to !== undefined) filters.push(lte(auditLog.createdAt, to));

  // One entry more than asked for, found the same way: it tells whether a next page exists, so
  // a client stops on a missing nextBefore instead of fetching an empty page.
  const wanted = take + 1;
  const out: ReturnType<typeof toAuditEntry>[] = [];
  const chunk = Math.max(wanted, 100);
  let before = query.before ?? null;
  for (;;) {
    const rows = entriesBefore(core, filters, before, chunk);
    const visible = visibleTo(core, caller, rows);
    for (const row of rows) {
      if (visible(row)) out.push(toAuditEntry(row));
      if (out.length === wanted) return { entries: out.slice(0, take), nextBefore: out[take - 1].sequence };
    }
    if (rows.length < chunk) return { entries: out, nextBefore: null };
    before = rows[rows.length - 1].sequence;
  }
}

/**
 * `action=page.updated` matches that action; `action=page.` every action starting so. Either
 * must name a known event type (or the start of one), so a typo is a 400, not an empty list.
 * The prefix is a range ("page." ≤ action < "page/", "/" following "." in every collation),
 * not LIKE, whose "_" would be a wildcard.
 */
function actionFilter(action: string): SQL {
  if (action.endsWith(".")) {
    if (action.length < 2 || !EVENT_TYPES.some((t) => t.startsWith(action))) throw invalid("action", AUDIT_ACTION_RULE);
    return and(gte(auditLog.action, action), lt(auditLog.action, action.slice(0, -1) + "/"))!;
  }
  if (!(EVENT_TYPES as readonly string[]).includes(action)) throw invalid("action", AUDIT_ACTION_RULE);
  return eq(auditLog.action, action);
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A `from` or `to` as the stored form (toISOString). A bare date is a UTC day: `from` its first
 * millisecond, `to` its last, so `to=2026-03-01` includes all of 1 March. A date and time needs
 * its zone (Z or ±hh:mm): a server's local time would make the answer depend on where it runs.
 */
function instant(field: "from" | "to", value: string, edge: "start" | "end"): string {
  const dateOnly = DATE_ONLY.test(value);
  if (!dateOnly && !DATE_TIME.test(value)) throw invalid(field, AUDIT_TIME_RULE);
  const ms = Date.parse(dateOnly ? `${value}T00:00:00.000Z` : value);
  // Date.parse rolls 2026-02-30 over to March; a date must come back as itself.
  if (Number.isNaN(ms) || (dateOnly && new Date(ms).toISOString().slice(0, 10) !== value)) throw invalid(field, AUDIT_TIME_RULE);
  return new Date(dateOnly && edge === "end" ? ms + 86_400_000 - 1 : ms).toISOString();
}

/**
 * Loads the pages and spaces a batch names (two queries) and answers a visibility test: the
 * entry's space, if it still exists, must be readable, and so must its page, if it still exists
 * (in whatever space it lives now).
 */
function visibleTo(core: Core, caller: Caller, rows: AuditRow[]): (row: AuditRow) => boolean {
  const pageIds = [...new Set(rows.flatMap((r) => (r.targetType === "page" ? [r.targetId] : [])))];
  const { pageById, spaceById } = pagesAndSpaces(core, pageIds, (found) => [
    ...new Set([...rows.flatMap((r) => (r.spaceId ? [r.spaceId] : [])), ...found.map((p) => p.spaceId)]),
  ]);
  return (row) => {
    const space = row.spaceId ? spaceById.get(row.spaceId) : undefined;
    if (space && !canReadSpace(core, caller, space)) return false;
    const page = row.targetType === "page" ? pageById.get(row.targetId) : undefined;
    const pageSpace = page ? spaceById.get(page.spaceId) : undefined;
    if (page && pageSpace && !canReadPage(core, caller, pageSpace, page)) return false;
    return true;
  };
}

export interface VerifyResult {
  ok: boolean;
  /** Entries read and found sound before the first problem (all of them when ok). */
  checked: number;
  brokenAtSequence: number | null;
  problem: string | null;
  /** The last sound entry, to keep outside Cairn: a chain cannot show rows cut off its end or rewritten wholesale. */
  lastSequence: number;
  lastHash: string;
}

const VERIFY_BATCH = 1000;

/**
 * POST /api/admin/audit/verify: walks the chain in sequence order.
 * 1. Each entry must have the next sequence number (a gap is a missing entry).
 * 2. Its prevHash must be the previous entry's hash (else something before it was removed,
 *    moved or rewritten).
 * 3. Its hash must match its own contents (else it was altered).
 * 4. After the last entry, SQLite's AUTOINCREMENT counter must not be higher (else entries
 *    were cut off the end).
 * Runs synchronously, so no write of this process interleaves with the walk.
 */
export function verifyAudit(core: Core, caller: Caller): VerifyResult {
  requireRight(requireUser(caller), "audit.view");
  return walkAuditChain(core);
}

/** The walk itself, on any database of this schema (a restore checks its copy's chain with it). */
export function walkAuditChain(core: Pick<Core, "db">): VerifyResult {
  let expected = 1;
  let prevHash = GENESIS_HASH;
  let checked = 0;
  const broken = (sequence: number, problem: string): VerifyResult => ({
    ok: false,
    checked,
    brokenAtSequence: sequence,
    problem,
    lastSequence: expected - 1,
    lastHash: prevHash,
  });
  for (;;) {
    const rows = entriesFrom(core, expected, VERIFY_BATCH);
    for (const row of rows) {
      if (row.sequence !== expected) return broken(expected, `Entry ${expected} is missing: entry ${row.sequence} comes next.`);
      if (row.prevHash !== prevHash) {
        return broken(
          row.sequence,
          expected === 1
            ? "Entry 1 does not start the chain: it names a predecessor."
            : `Entry ${row.sequence} does not follow entry ${expected - 1}: an entry was removed, moved or rewritten.`,
        );
      }
      if (entryHash(row.prevHash, row) !== row.hash)
        return broken(row.sequence, `Entry ${row.sequence} was altered: its hash does not match its contents.`);
      prevHash = row.hash;
      expected++;
      checked++;
    }
    if (rows.length < VERIFY_BATCH) break;
  }
  const counter = highestSequenceIssued(core);
  if (counter > expected - 1) return broken(expected, `Entries ${expected} to ${counter} are missing from the end of the log.`);
  return { ok: true, checked, brokenAtSequence: null, problem: null, lastSequence: expected - 1, lastHash: prevHash };
}
