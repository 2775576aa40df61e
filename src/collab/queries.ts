/** Collaboration's SQL: the stored working copies (collab_documents, one Yjs update per page) and the versions of the pages whose rooms are loaded. */
import type { Core } from "../core";
import { iso } from "../platform/clock";
import { perInstance } from "../platform/memo";

export interface StoredDocument {
  state: Uint8Array;
  version: number;
}

const statements = perInstance((sqlite: Core["sqlite"]) => ({
  load: sqlite.query<{ state: Uint8Array; version: number }, [string]>("SELECT state, version FROM collab_documents WHERE page_id = ?"),
  versions: sqlite.query<{ id: string; version: number }, [string]>("SELECT id, current_version AS version FROM pages WHERE id IN (SELECT value FROM json_each(?))"),
  save: sqlite.query<unknown, [string, Uint8Array, number, string]>(
    `INSERT INTO collab_documents (page_id, state, version, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (page_id) DO UPDATE SET state = excluded.state, version = excluded.version, updated_at = excluded.updated_at`,
  ),
}));

export function loadDocument(core: Core, pageId: string): StoredDocument | undefined {
  const row = statements(core.sqlite).load.get(pageId);
  return row ? { state: new Uint8Array(row.state), version: row.version } : undefined;
}

/**
 * Saving working copies is bookkeeping (core.bookkeeping): no page, search or access answer
 * reads them, so they must not make the kept answers stale every two seconds of typing. A page
 * purged meanwhile has nothing left to keep: the foreign key refuses its row, the others stand.
 */
export function saveDocuments(core: Core, docs: Array<StoredDocument & { pageId: string }>): void {
  const at = iso(core.clock.now());
  core.bookkeeping(() => {
    for (const doc of docs) {
      try {
        // A failed statement (the constraint) is undone alone; the transaction goes on.
        statements(core.sqlite).save.run(doc.pageId, doc.state, doc.version, at);
      } catch (err) {
        if (!String((err as Error).message).includes("FOREIGN KEY")) throw err;
      }
    }
  });
}

/** The current version of each of these pages (one statement whatever their number). */
export function pageVersions(core: Core, pageIds: string[]): Array<{ id: string; version: number }> {
  return statements(core.sqlite).versions.all(JSON.stringify(pageIds));
}
