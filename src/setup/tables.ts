import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../users/tables";

/**
 * The first-run wizard's progress: one row per step the owner has decided (done or skipped);
 * a step with no row is pending. The wizard's choices themselves live where they always do
 * (settings, spaces, invites); `choice` keeps what the step saw when it was marked done (e.g.
 * {"allowPublicRegistration": false}) so the answer can show what was chosen.
 */
export const setupSteps = sqliteTable("setup_steps", {
  key: text("key").primaryKey(),
  /** 1 Done, 2 Skipped. */
  state: integer("state").notNull(),
  choice: text("choice", { mode: "json" }).$type<Record<string, unknown> | null>(),
  updatedById: text("updated_by_id").references(() => users.id, { onDelete: "set null" }),
  updatedAt: text("updated_at").notNull(),
});

/** Set once, when the owner completes the wizard (one row, id 1); after that its steps are fixed. */
export const setupCompletion = sqliteTable("setup_completion", {
  id: integer("id").primaryKey(),
  completedById: text("completed_by_id").references(() => users.id, { onDelete: "set null" }),
  completedAt: text("completed_at").notNull(),
});
