import { customType, foreignKey, index, integer, primaryKey, sqliteTable, text, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { packText, unpackText } from "../platform/db/packed-text";
import { spaces } from "../spaces/tables";
import { users } from "../users/tables";

/**
 * Page status: 0 Draft, 1 Published (docs/api.md, "Integer enums"). The trash is not a
 * status: it is `deletedAt`.
 */
export const PAGE_STATUS = { Draft: 0, Published: 1 } as const;

/**
 * A large text as stored: compressed (platform/db/packed-text.ts), read back as the text. Still a
 * TEXT column: rows written before hold the text itself, and a raw INSERT of the text (an import)
 * is as valid. SQL must not look inside it (instr, length, =): read it and unpack it.
 */
const packedText = customType<{ data: string; driverData: string | Uint8Array }>({
  dataType: () => "text",
  toDriver: packText,
  fromDriver: unpackText,
});

export const pages = sqliteTable(
  "pages",
  {
    /**
     * INTEGER PRIMARY KEY, i.e. a stable alias of SQLite's rowid (an implicit rowid may change
     * on VACUUM). It exists for search: an external-content FTS5 table can say
     * `content='pages', content_rowid='doc_id'` and index `title` and `plain_text`.
     * Everything else addresses pages by `id`.
     */
    docId: integer("doc_id").primaryKey(),
    id: text("id").notNull().unique(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    /** Null at the top level of the space. */
    parentId: text("parent_id").references((): AnySQLiteColumn => pages.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    currentVersion: integer("current_version").notNull(),
    /** Order among siblings (ties broken by title). */
    position: integer("position").notNull().default(0),
    /** 0 Draft, 1 Published. */
    status: integer("status").notNull(),
    emoji: text("emoji"),
    fullWidth: integer("full_width", { mode: "boolean" }).notNull().default(false),
    createdById: text("created_by_id").references(() => users.id, { onDelete: "set null" }),
    updatedById: text("updated_by_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    /** Set while in the trash. */
    deletedAt: text("deleted_at"),
    deletedById: text("deleted_by_id").references(() => users.id, { onDelete: "set null" }),
    /**
     * The page whose DELETE put this one in the trash: pages trashed together share it, so a
     * restore or purge handles exactly that batch and never a sub-page trashed separately.
     */
    trashRootId: text("trash_root_id"),
    // The large columns come last (migration 0012): a column stored after them would be read
    // through their overflow pages. The text before the document (migration 0033): a search
    // hit reads the text for its snippet, never the document.
    /** The document's plain text, for search: not packed, search reads it often (docs/decisions.md). */
    plainText: text("plain_text").notNull().default(""),
    // Packed: every edit rewrites it (a page of 500 words is a leaf and one overflow page, not three).
    /** The current document, normalised by checkContentJson; versions hold the history. */
    contentJson: packedText("content_json").notNull(),
  },
  (t) => [
    index("pages_space_parent_position_idx").on(t.spaceId, t.parentId, t.position),
    index("pages_parent_idx").on(t.parentId),
    index("pages_trash_root_idx").on(t.trashRootId),
    // The admin dashboard counts published pages out of the trash without reading the rows.
    index("pages_status_idx").on(t.status, t.deletedAt),
  ],
);

export type PageRow = typeof pages.$inferSelect;
/** A page row without its document and text: all that access rules and lists need. */
export type PageMeta = Omit<PageRow, "contentJson" | "plainText">;

/** Every version of every page; the newest equals the page row's content. */
export const pageVersions = sqliteTable(
  "page_versions",
  {
    pageId: text("page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    versionNumber: integer("version_number").notNull(),
    title: text("title").notNull(),
    changeComment: text("change_comment"),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: text("created_at").notNull(),
    contentJson: packedText("content_json").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.pageId, t.versionNumber] }),
    // The admin dashboard's top editors of a range: read from the index, never the documents.
    index("page_versions_created_idx").on(t.createdAt, t.authorId),
  ],
);

/**
 * The people whose changes a version published (docs/decisions.md, "Publishing stays an explicit
 * step"): set when a shared working copy is published, in the order they first changed it. A
 * version without rows credits its author.
 */
export const pageVersionContributors = sqliteTable(
  "page_version_contributors",
  {
    pageId: text("page_id").notNull(),
    versionNumber: integer("version_number").notNull(),
    position: integer("position").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.pageId, t.versionNumber, t.position] }),
    foreignKey({ columns: [t.pageId, t.versionNumber], foreignColumns: [pageVersions.pageId, pageVersions.versionNumber] }).onDelete(
      "cascade",
    ),
  ],
);

/**
 * Which pages each page's current version links to (by id: pageLink nodes and page hrefs, see
 * content/page-links.ts), for backlinks. Rewritten with every version (store.ts writeVersion);
 * the target has no foreign key: a link to a purged page stays in the document, and readers of
 * backlinks only ever start from a live target.
 */
export const pageLinks = sqliteTable(
  "page_links",
  {
    sourcePageId: text("source_page_id")
      .notNull()
      .references(() => pages.id, { onDelete: "cascade" }),
    targetPageId: text("target_page_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sourcePageId, t.targetPageId] }), index("page_links_target_idx").on(t.targetPageId, t.sourcePageId)],
);

/**
 * The name an imported archive gave a version's author when the import credited no account (the
 * version's author is then the importer): shown as "Name (imported)". Kept beside page_versions,
 * whose document is its last column.
 */
export const pageVersionImportedAuthors = sqliteTable(
  "page_version_imported_authors",
  {
    pageId: text("page_id").notNull(),
    versionNumber: integer("version_number").notNull(),
    name: text("name").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.pageId, t.versionNumber] }),
    foreignKey({ columns: [t.pageId, t.versionNumber], foreignColumns: [pageVersions.pageId, pageVersions.versionNumber] }).onDelete(
      "cascade",
    ),
  ],
);
