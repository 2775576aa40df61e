import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";
import { spaces } from "../spaces/tables";
import { users } from "../users/tables";

/**
 * A space's uploaded icon (PUT /api/media/space-icons/{key}). The bytes live in the blob store
 * under their SHA-256 (attachments/blob-refs.ts counts these rows as references). The space's
 * own iconKind says whether the icon is shown (2 Image); deleting the space deletes the row.
 */
export const spaceIcons = sqliteTable("space_icons", {
  spaceId: text("space_id")
    .primaryKey()
    .references(() => spaces.id, { onDelete: "cascade" }),
  sha256: text("sha256").notNull(),
  /** image/webp: what the server wrote, never the client's claim. */
  contentType: text("content_type").notNull(),
  size: integer("size").notNull(),
  updatedAt: text("updated_at").notNull(),
  updatedById: text("updated_by_id").references(() => users.id, { onDelete: "set null" }),
});

export type SpaceIconRow = typeof spaceIcons.$inferSelect;
