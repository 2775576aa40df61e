import { sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Instance settings as key → JSON value; defaults live in settings/service.ts. */
export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value", { mode: "json" }).notNull(),
  updatedAt: text("updated_at").notNull(),
});
