import type { Core } from "../core";

/**
 * Part of the FTS5 index (fts5.ts): the settings FTS5 keeps in each index's _config table, set
 * by the indexer inside its own batches (never at start: a server that indexes nothing writes
 * nothing), and only where they differ from what is stored.
 *
 * 'hashsize': FTS5's buffer of a transaction's new words before it writes them out as a segment
 * (1 MB unless set). A batch of 500 pages of 500 words filled 1 MB two or three times in each
 * body index, so each batch wrote several small segments that FTS5 then merged again and again;
 * with 4 MB a batch is one segment (seeding 5,000 pages: a third fewer index rows, the
 * catch-up's CPU ~15 % less). The buffer is freed at COMMIT; answers are the same.
 *
 * 'automerge' and 'crisismerge' during a bulk catch-up (a backlog of more than one batch, caught
 * up in one call: seeding): by default FTS5 merges segments a little after every batch
 * (automerge 4) and at once when a level holds 16 (crisismerge), so a backlog's pages were
 * rewritten once per level as the levels filled. A bulk catch-up is followed by merging the
 * whole index into one segment (SearchIndex.tidy), which rewrites every page once more anyway:
 * so during it automerge is off and crisismerge 64 (bounds the segments a query would walk if
 * one ran meanwhile), and both go back to FTS5's defaults when it ends. Set before a crash, they
 * are put back by the next process's first batch. Segments never change an answer.
 */

const BODY_INDEXES = ["search_words", "search_recent"] as const;
const INDEXES = [...BODY_INDEXES, "search_titles", "search_title_words"] as const;

export const BODY_INDEX_HASHSIZE = 4 << 20;
/** FTS5's own defaults (fts5Int.h), which a table without the row in its _config uses. */
const DEFAULT = { automerge: 4, crisismerge: 16 };
const BULK = { automerge: 0, crisismerge: 64 };

export type IndexMode = "steady" | "bulk";

export interface IndexSettings {
  /** Puts the indexes' settings for `mode` in place (reads them once per change of mode); in the indexer's transaction. */
  use(mode: IndexMode): void;
  /** After a rolled-back batch: what the indexes hold is read again at the next use. */
  forget(): void;
}

export function indexSettings(core: Core): IndexSettings {
  const s = core.sqlite;
  const read = Object.fromEntries(
    INDEXES.map((index) => [index, s.query<{ k: string; v: number }, []>(`SELECT k, v FROM ${index}_config WHERE k IN ('hashsize', 'automerge', 'crisismerge')`)]),
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
