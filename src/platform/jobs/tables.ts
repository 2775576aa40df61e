import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Background work that must survive a restart (platform/jobs/runner.ts): one row per job, its
 * state, attempts, when it runs next, its progress and its last error.
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    /** Single-flight: at most one queued or running job per key. */
    key: text("key"),
    /** JSON. */
    payload: text("payload").notNull().default("null"),
    /** queued, running, succeeded, failed. */
    state: text("state").notNull(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    runAt: text("run_at").notNull(),
    progressDone: integer("progress_done"),
    progressTotal: integer("progress_total"),
    error: text("error"),
    createdAt: text("created_at").notNull(),
    startedAt: text("started_at"),
    finishedAt: text("finished_at"),
  },
  (t) => [
    index("jobs_due_idx").on(t.state, t.runAt),
    uniqueIndex("jobs_single_flight_uq").on(t.key).where(sql`${t.key} IS NOT NULL AND ${t.state} IN ('queued', 'running')`),
    check("jobs_state_ck", sql`${t.state} IN ('queued', 'running', 'succeeded', 'failed')`),
  ],
);

export type JobRow = typeof jobs.$inferSelect;
