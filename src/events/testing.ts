/** Test helpers for the outbox. */
import { asc, eq } from "drizzle-orm";
import type { TestEnv } from "../../tests/harness";
import { events } from "./tables";

/** The outbox rows, oldest first, optionally of one type. */
export function eventsOf(env: TestEnv, type?: string) {
  return env.core.db
    .select()
    .from(events)
    .where(type ? eq(events.type, type) : undefined)
    .orderBy(asc(events.seq))
    .all();
}
