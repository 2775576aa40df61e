/**
 * Collaboration's SQL: the stored working copies (collab_documents, one Yjs update per page),
 * who has unpublished changes in them (collab_unpublished) and the versions of the pages whose
 * rooms are loaded. The collaboration domain's store: the only writer of its tables.
 */
import { and, eq } from "drizzle-orm";
import type { Core } from "../core";
import { pageVersions as versionRows } from "../pages/tables";
import type { Author } from "./authorship";
import { iso } from "../platform/clock";
import { perInstance } from "../platform/memo";
import { listParam } from "../platform/db/lists";

export interface StoredDocument {
  state: Uint8Array;
  version: number;
}

const statements = perInstance(({ sqlite }: Core) => ({
  load: sqlite.query<{ state: Uint8Array; version: number }, [string]>("SELECT state, version FROM collab_documents WHERE page_id = ?"),
  authors: sqlite.query<{ userId: string; since: string; lastAt: string }, [string]>(
    "SELECT user_id AS userId, since, last_at AS lastAt FROM collab_unpublished WHERE page_id = ?",
  ),
  named: sqlite.query<{ id: string; name: string; since: string; at: string }, [string]>(
    "SELECT c.user_id AS id, u.display_name AS name, c.since, c.last_at AS at FROM " +
      "collab_unpublished c JOIN users u ON u.id = c.user_id WHERE c.page_id = ? ORDER BY c.since",
  ),
  names: sqlite.query<{ id: string; name: string }, [string]>(`SELECT id, display_name AS name FROM users WHERE id IN (${listParam("?")})`),
  dropAuthors: sqlite.query<unknown, [string]>("DELETE FROM collab_unpublished WHERE page_id = ?"),
  addAuthor: sqlite.query<unknown, [string, string, string, string]>(
    "INSERT INTO collab_unpublished (page_id, user_id, since, last_at) VALUES (?, ?, ?, ?)",
  ),
  versions: sqlite.query<{ id: string; version: number }, [string]>(
    `SELECT id, current_version AS version FROM pages WHERE id IN (${listParam("?")})`,
  ),
  save: sqlite.query<unknown, [string, Uint8Array, number, string]>(
    `INSERT INTO collab_documents (page_id, state, version, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (page_id) DO UPDATE SET state = excluded.state, version = excluded.version, updated_at = excluded.updated_at`,
  ),
}));

export function loadDocument(core: Core, pageId: string): StoredDocument | undefined {
  const row = statements(core).load.get(pageId);
  return row ? { state: new Uint8Array(row.state), version: row.version } : undefined;
}

/** Who has unpublished changes in a stored working copy. */
export function loadAuthors(core: Core, pageId: string): Author[] {
  return statements(core)
    .authors.all(pageId)
    .map((r) => ({ userId: r.userId, since: Date.parse(r.since), at: Date.parse(r.lastAt) }));
}

export interface NamedAuthor {
  id: string;
  name: string;
  since: string;
  at: string;
}

/** The stored list with names, first changes first (a room nobody has loaded). */
export function storedAuthors(core: Core, pageId: string): NamedAuthor[] {
  return statements(core).named.all(pageId);
}

/** Display names of these accounts (one statement). */
export function userNames(core: Core, ids: string[]): Map<string, string> {
  if (ids.length === 0) return new Map();
  return new Map(
    statements(core)
      .names.all(JSON.stringify(ids))
      .map((r) => [r.id, r.name]),
  );
}

/** Replaces a page's stored list (inside the caller's transaction). */
export function writeAuthors(core: Core, pageId: string, authors: Author[]): void {
  const s = statements(core);
  s.dropAuthors.run(pageId);
  for (const a of authors) s.addAuthor.run(pageId, a.userId, iso(a.since), iso(a.at));
}

/**
 * Saving working copies is bookkeeping (core.bookkeeping): no page, search or access answer
 * reads them, so they must not make the kept answers stale every two seconds of typing. A page
 * purged meanwhile has nothing left to keep: the foreign key refuses its row, the others stand.
 */
export function saveDocuments(core: Core, docs: Array<StoredDocument & { pageId: string; authors?: Author[] }>): void {
  const at = iso(core.clock.now());
  core.bookkeeping(() => {
    for (const doc of docs) {
      try {
        // A failed statement (the constraint) is undone alone; the transaction goes on.
        statements(core).save.run(doc.pageId, doc.state, doc.version, at);
        // Only when the list changed since the last save (rarely: a first change, a publish).
        if (doc.authors) writeAuthors(core, doc.pageId, doc.authors);
      } catch (err) {
        if (!String((err as Error).message).includes("FOREIGN KEY")) throw err;
      }
    }
  });
}

/** The current version of each of these pages (one statement whatever their number). */
export function pageVersions(core: Core, pageIds: string[]): Array<{ id: string; version: number }> {
  return statements(core).versions.all(JSON.stringify(pageIds));
}

/** One version's document (a read of the pages domain's table: the version a room was last brought to). */
export function versionContent(core: Pick<Core, "db">, pageId: string, versionNumber: number) {
  return core.db
    .select({ contentJson: versionRows.contentJson })
    .from(versionRows)
    .where(and(eq(versionRows.pageId, pageId), eq(versionRows.versionNumber, versionNumber)))
    .get();
}
