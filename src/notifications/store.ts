/**
 * The store of notifications (its hand-written SQL and the only writer of its table): the one
 * file a second backend rewrites for this domain (docs/architecture.md, "Seams"). Its raw
 * statements are prepared once per instance.
 */
import { and, count, desc, eq, getTableColumns, inArray, isNull, lt, or, sql, type Column, type SQL } from "drizzle-orm";
import type { RoleRow, UserCaller, UserRow } from "../identity/caller";
import type { Core } from "../core";
import { listParam, rowsParam } from "../platform/db/lists";
import { perInstance } from "../platform/memo";
import { USER_STATUS } from "../users/service";
import { pages, type PageRow } from "../pages/tables";
import { spaces, type SpaceRow } from "../spaces/tables";
import { roles, users } from "../users/tables";
import { notifications, type NotificationRow } from "./tables";

/** A comment entry whose comment has since been deleted tells of something no longer there. */
export const commentStillThere = sql`(${notifications.targetType} <> 'comment'
  OR EXISTS (SELECT 1 FROM comments c WHERE c.id = ${notifications.targetId} AND c.deleted_at IS NULL))`;

/** The fan-out's statements: it runs in every page write, so they are prepared once per instance. */
export const fanoutStatements = perInstance(({ sqlite }: Core) => {
  const columns = "(id, user_id, action, target_type, target_id, space_id, page_id, actor_id, details, created_at)";
  // `WHERE true` keeps SQLite from reading ON CONFLICT as a join constraint of the SELECT.
  const select = `SELECT r.id, r.userId, ?, ?, ?, ?, ?, ?, ?, ? FROM (${rowsParam("?", ["id", "userId"])}) r WHERE true`;
  type Params = [string, string, string, string | null, string | null, string | null, string, string, string];
  return {
    insert: sqlite.query<never, Params>(`INSERT INTO notifications ${columns} ${select}`),
    coalesce: sqlite.query<never, Params>(
      `INSERT INTO notifications ${columns} ${select}
       ON CONFLICT (user_id, page_id) WHERE action = 'page.updated' AND read_at IS NULL DO UPDATE SET
         actor_id = excluded.actor_id,
         created_at = excluded.created_at,
         details = json_set(excluded.details, '$.edits', coalesce(json_extract(notifications.details, '$.edits'), 1) + 1)`,
    ),
    // The coalescing of an edit for those who already have an unread entry of the page: no
    // new row, no id made, no failed INSERT per watcher (the upsert above is for the others).
    refreshUnread: sqlite.query<{ userId: string }, [string | null, string, string, string, string]>(
      `UPDATE notifications SET
         actor_id = ?1,
         created_at = ?2,
         details = json_set(?3, '$.edits', coalesce(json_extract(details, '$.edits'), 1) + 1)
       WHERE page_id = ?4 AND action = 'page.updated' AND read_at IS NULL AND user_id IN (${listParam("?5")})
       RETURNING user_id AS userId`,
    ),
    // A page's document, when the event came without it (the service hands it over with its
    // own writes). Documents may be stored packed (platform/db/packed-text.ts), so SQL cannot
    // look inside them (an instr() for a mention node once filtered here): unpackText them.
    pageContent: sqlite.query<{ contentJson: string | Uint8Array }, [string]>("SELECT content_json AS contentJson FROM pages WHERE id = ?"),
    versionContent: sqlite.query<{ contentJson: string | Uint8Array }, [string, number]>(
      "SELECT content_json AS contentJson FROM page_versions WHERE page_id = ? AND version_number = ?",
    ),
    comment: sqlite.query<{ body: string; parentId: string | null }, [string]>(
      "SELECT body, parent_id AS parentId FROM comments WHERE id = ?",
    ),
    threadAuthors: sqlite.query<{ authorId: string }, [string, string]>(
      "SELECT DISTINCT author_id AS authorId FROM comments WHERE (id = ? OR " +
        "parent_id = ?) AND author_id IS NOT NULL AND deleted_at IS NULL",
    ),
  };
});

/** The hourly upkeep's statements (schedule.ts). */
export const upkeepStatements = perInstance(({ sqlite }: Core) => ({
  expiring: sqlite.query<
    { id: string; userId: string; name: string; prefix: string; expiresAt: string; createdAt: string },
    [string, string]
  >(
    `SELECT t.id, t.user_id AS userId, t.name, t.prefix, t.expires_at AS expiresAt, t.created_at AS createdAt
       FROM api_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.revoked_at IS NULL AND t.expires_at > ? AND t.expires_at <= ? AND u.status = 0
        AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.action = 'token.expiring' AND n.target_id = t.id)`,
  ),
  // The unique index on token.expiring entries makes a second warning impossible, whatever runs twice.
  warn: sqlite.query<never, [string, string, string, string, string]>(
    `INSERT OR IGNORE INTO notifications (id, user_id, action, target_type, target_id, details, created_at)
     VALUES (?, ?, 'token.expiring', 'token', ?, ?, ?)`,
  ),
  prune: sqlite.query<never, [string]>("DELETE FROM notifications WHERE read_at IS NOT NULL AND read_at < ?"),
}));

/**
 * Runs in every page write for every watcher, so it is one raw prepared statement (drizzle's
 * row mapping of a join cost five times the query). The column lists come from the tables, so
 * a new column is picked up here too, read through the column's own driver mapping.
 */
function reader<T>(table: Record<string, Column>, alias: string) {
  const columns = Object.entries(table);
  return {
    select: columns.map(([key, c]) => `${alias}."${c.name}" AS "${alias}_${key}"`).join(", "),
    read(row: Record<string, unknown>): T {
      const out: Record<string, unknown> = {};
      for (const [key, c] of columns) {
        const value = row[`${alias}_${key}`];
        out[key] = value === null ? null : c.mapFromDriverValue(value);
      }
      return out as T;
    },
  };
}

/**
 * The active accounts with their roles, each row made into a person by `make` (people.ts).
 * People of one role share its row and its set of rights.
 */
export const activeAccounts = perInstance(({ sqlite }: Core) => {
  const u = reader<UserRow>(getTableColumns(users), "u");
  const r = reader<RoleRow>(getTableColumns(roles), "r");
  const from = `SELECT ${u.select}, ${r.select} FROM users u JOIN roles r ON r.id = u.role_id WHERE u.status = ${USER_STATUS.Active}`;
  const byIds = sqlite.query<Record<string, unknown>, [string]>(`${from} AND u.id IN (${listParam("?")})`);
  const everyone = sqlite.query<Record<string, unknown>, []>(from);
  type Make = (user: UserRow, role: RoleRow, permissions: Set<string>) => UserCaller;
  const toPeople = (rows: Array<Record<string, unknown>>, make: Make): UserCaller[] => {
    const byRole = new Map<string, { role: RoleRow; permissions: Set<string> }>();
    return rows.map((row) => {
      let shared = byRole.get(row.r_id as string);
      if (!shared) {
        const role = r.read(row);
        byRole.set(role.id, (shared = { role, permissions: new Set(role.permissions) }));
      }
      return make(u.read(row), shared.role, shared.permissions);
    });
  };
  return {
    byIds: (ids: string[], make: Make) => toPeople(byIds.all(JSON.stringify(ids)), make),
    everyone: (make: Make) => toPeople(everyone.all(), make),
  };
});

/**
 * The pages and spaces a batch of entries names, by id (two statements; none when there are no
 * ids): a read across domains, for the visibility check of the entries.
 */
export function pagesAndSpaces(core: Pick<Core, "db">, pageIds: string[], spaceIdsOf: (pages: PageRow[]) => string[]) {
  const pageRows = pageIds.length ? core.db.select().from(pages).where(inArray(pages.id, pageIds)).all() : [];
  const pageById = new Map<string, PageRow>(pageRows.map((p) => [p.id, p]));
  const spaceIds = spaceIdsOf(pageRows);
  const spaceById = new Map<string, SpaceRow>(
    spaceIds.length
      ? core.db
          .select()
          .from(spaces)
          .where(inArray(spaces.id, spaceIds))
          .all()
          .map((s) => [s.id, s])
      : [],
  );
  return { pageById, spaceById };
}

/** Newest first; id (time-ordered) breaks ties between entries of the same instant. */
export function newestAfter(
  core: Pick<Core, "db">,
  filters: SQL[],
  after: Pick<NotificationRow, "createdAt" | "id"> | null,
  limit: number,
) {
  const before = after
    ? or(lt(notifications.createdAt, after.createdAt), and(eq(notifications.createdAt, after.createdAt), lt(notifications.id, after.id)))
    : undefined;
  return core.db
    .select({ n: notifications, actorName: users.displayName })
    .from(notifications)
    .leftJoin(users, eq(users.id, notifications.actorId))
    .where(and(...filters, before))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit)
    .all();
}

/** A person's unread entries (those whose comment still exists), counted per place they point at. */
export function unreadByPlace(core: Pick<Core, "db">, userId: string) {
  return core.db
    .select({ targetType: notifications.targetType, spaceId: notifications.spaceId, pageId: notifications.pageId, n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), commentStillThere))
    .groupBy(notifications.targetType, notifications.spaceId, notifications.pageId)
    .all();
}

/** One of a person's entries (whose comment still exists). */
export function ownEntry(core: Pick<Core, "db">, userId: string, id: string): NotificationRow | undefined {
  return core.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId), commentStillThere))
    .get();
}

/** Marks one entry read. */
export function markEntryRead(core: Pick<Core, "db">, id: string, at: string): void {
  core.db.update(notifications).set({ readAt: at }).where(eq(notifications.id, id)).run();
}

/** Marks every unread entry of a person read. */
export function markAllEntriesRead(core: Pick<Core, "db">, userId: string, at: string): void {
  core.db
    .update(notifications)
    .set({ readAt: at })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .run();
}
