/**
 * The store of the outbox (events, event_cursors): the only writer of its tables, and the one
 * file a second backend rewrites for this domain (docs/architecture.md, "Seams").
 */
import { asc, eq, gt, max, sql } from "drizzle-orm";
import type { Core } from "../core";
import { perInstance } from "../platform/memo";
import { eventCursors, events } from "./tables";

// Prepared once per instance: every write of every domain records at least one event.
const insertStatement = perInstance((core: Core) =>
  core.db
    .insert(events)
    .values({
      id: sql.placeholder("id"),
      type: sql.placeholder("type"),
      targetType: sql.placeholder("targetType"),
      targetId: sql.placeholder("targetId"),
      spaceId: sql.placeholder("spaceId"),
      actorId: sql.placeholder("actorId"),
      data: sql.placeholder("data"),
      createdAt: sql.placeholder("createdAt"),
    })
    .prepare(),
);

/** Inserts one event; answers its seq (the rowid), without reading the row back. */
export function insertEvent(core: Core, values: Omit<typeof events.$inferInsert, "seq">): number {
  const { lastInsertRowid } = insertStatement(core).run(values) as unknown as { lastInsertRowid: number | bigint };
  return Number(lastInsertRowid);
}

/** A consumer's cursor, made if new: at the outbox's current end ("now") or at its beginning ("start"). */
export function startCursor(core: Core, consumer: string, from: "now" | "start", now: string): void {
  const seq =
    from === "start"
      ? 0
      : (core.db
          .select({ max: max(events.seq) })
          .from(events)
          .get()?.max ?? 0);
  core.db.insert(eventCursors).values({ consumer, seq, updatedAt: now }).onConflictDoNothing().run();
}

/** The seq of the last event a consumer has handled (0: none). */
export function cursorOf(core: Core, consumer: string): number {
  return core.db.select({ seq: eventCursors.seq }).from(eventCursors).where(eq(eventCursors.consumer, consumer)).get()?.seq ?? 0;
}

/** The events after `seq`, oldest first, at most `limit`. */
export function eventsAfter(core: Core, seq: number, limit: number) {
  return core.db.select().from(events).where(gt(events.seq, seq)).orderBy(asc(events.seq)).limit(limit).all();
}

/** Moves a consumer's cursor to `seq`. */
export function moveCursor(core: Core, consumer: string, seq: number, now: string): void {
  core.db.update(eventCursors).set({ seq, updatedAt: now }).where(eq(eventCursors.consumer, consumer)).run();
}
