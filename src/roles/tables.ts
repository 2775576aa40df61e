import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../users/tables";

/** Each time someone marked the rights matrix reviewed (POST /api/admin/roles/review); the newest is shown. */
export const roleReviews = sqliteTable(
  "role_reviews",
  {
    id: text("id").primaryKey(),
    reviewedAt: text("reviewed_at").notNull(),
    reviewedById: text("reviewed_by_id").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [index("role_reviews_at_idx").on(t.reviewedAt)],
);
