import type { Core } from "../../core";

/**
 * Part of the FTS5 index (fts5.ts): FTS5's settings in each index's _config table, written by the
 * indexer in its own batches and only where they differ (a server that indexes nothing writes
 * nothing). 'hashsize' 4 MB for the body indexes: a batch of 500 pages is one segment, not
 * several. During a bulk catch-up (seeding) 'automerge' is off and 'crisismerge' 64: the tidy
 * after it merges everything once, instead of every level as it fills; the defaults come back
 * when it ends, or at the next process's first batch after a crash (docs/decisions.md, "Search").
 */

const BODY_INDEXES = ["search_words", "search_recent"] as const;
const INDEXES = [...BODY_INDEXES, "search_titles", "search_title_words"] as const;

export const BODY_INDEX_HASHSIZE = 4 << 20;
/** FTS5's defaults, for a table without the row. */
const DEFAULT = { automerge: 4, crisismerge: 16 };
const BULK = { automerge: 0, crisismerge: 64 };

export type IndexMode = "steady" | "bulk";

export interface IndexSettings {
  /** Puts `mode`'s settings in place; in the indexer's transaction. */
  use(mode: IndexMode): void;
  /** After a rolled-back batch: read them again at the next use. */
  forget(): void;
}

export function indexSettings(core: Core): IndexSettings {
  const s = core.sqlite;
  const read = Object.fromEntries(
    INDEXES.map((index) => [
      index,
      s.query<{ k: string; v: number }, []>(`SELECT k, v FROM ${index}_config WHERE k IN ('hashsize', 'automerge', 'crisismerge')`),
    ]),
  );
  let current: IndexMode | null = null;
  const use = (mode: IndexMode) => {
    if (mode === current) return;
    const merging = mode === "bulk" ? BULK : DEFAULT;
    for (const index of INDEXES) {
      const stored = new Map(read[index].all().map((r) => [r.k, r.v]));
      const wanted: Record<string, number> = { ...merging };
      if ((BODY_INDEXES as readonly string[]).includes(index)) wanted.hashsize = BODY_INDEX_HASHSIZE;
      for (const [k, v] of Object.entries(wanted)) {
        const now = stored.get(k) ?? DEFAULT[k as keyof typeof DEFAULT];
        if (now !== v) s.run(`INSERT INTO ${index} (${index}, rank) VALUES ('${k}', ${v})`);
      }
    }
    current = mode;
  };
  return { use, forget: () => void (current = null) };
}
