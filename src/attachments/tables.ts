import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { pages } from "../pages/tables";
import { users } from "../users/tables";

/**
 * A file attached to a page. The bytes live in the blob store under their SHA-256; several rows
 * may share one blob (the same file uploaded twice, a copied page). The space is the page's:
 * it is not repeated here, so a page moving to another space takes its attachments along.
 *
 * ON DELETE CASCADE is the safety net only: purge and space deletion delete these rows
 * themselves (removeAttachmentsOfPages) to learn which blobs may have become unreferenced.
 */
export const attachments = sqliteTable(
  "attachments",
  {
    id: text("id").primaryKey(),
    pageId: text("page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    /** Cleaned: no folders, no control characters, at most 255 characters, never empty. */
    filename: text("filename").notNull(),
    /** Sniffed from the bytes at upload (attachments/sniff.ts), never the client's claim. */
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    uploadedById: text("uploaded_by_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("attachments_page_idx").on(t.pageId, t.createdAt), index("attachments_sha256_idx").on(t.sha256)],
);

export type AttachmentRow = typeof attachments.$inferSelect;
