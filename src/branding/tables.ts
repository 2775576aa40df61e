import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../users/tables";

/**
 * The instance's branding: one row (id 1) once an administrator has changed anything; until
 * then the defaults in branding/rules.ts stand. The values are checked by the service (enums,
 * colours that pass WCAG AA), never trusted from here: a row edited by hand that breaks a rule
 * falls back to the default for that field.
 */
export const branding = sqliteTable("branding", {
  id: integer("id").primaryKey(),
  /** Null: the instance name (settings.instanceName) is the brand name. */
  brandName: text("brand_name"),
  display: text("display").notNull(),
  signInArrangement: text("sign_in_arrangement").notNull(),
  themePolicy: text("theme_policy").notNull(),
  accentPolicy: text("accent_policy").notNull(),
  accentName: text("accent_name"),
  accentLight: text("accent_light").notNull(),
  accentDark: text("accent_dark").notNull(),
  updatedAt: text("updated_at").notNull(),
  updatedById: text("updated_by_id").references(() => users.id, { onDelete: "set null" }),
});

/**
 * The branding images, one per slot (logo, logo-dark, favicon). The bytes live in the blob
 * store under their SHA-256 (attachments/blob-refs.ts counts these rows as references).
 */
export const brandingFiles = sqliteTable("branding_files", {
  slot: text("slot").primaryKey(),
  sha256: text("sha256").notNull(),
  /** image/png, image/webp or image/svg+xml: what the server wrote, never the client's claim. */
  contentType: text("content_type").notNull(),
  size: integer("size").notNull(),
  width: integer("width"),
  height: integer("height"),
  updatedAt: text("updated_at").notNull(),
  updatedById: text("updated_by_id").references(() => users.id, { onDelete: "set null" }),
});

export type BrandingRow = typeof branding.$inferSelect;
export type BrandingFileRow = typeof brandingFiles.$inferSelect;
