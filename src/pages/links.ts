/**
 * Links between pages as readers see them: a page's backlinks (the pages whose current version
 * links to it, from page_links) and the current titles of the pages a document links to. Each
 * page is authorised on its own, with the same filter as every list (visiblePagesFilter), so a
 * page the caller may not read never shows its title, its space or that it exists.
 */
import { canReadPage, visiblePagesFilter } from "../access/pages";
import { PAGE_ID } from "../content/page-links";
import type { Core } from "../core";
import type { Caller } from "../identity/caller";
import { invalid, notFound } from "../platform/errors";
import { backlinkRows, findPageMeta, linkedPageRows } from "./store";

/** Backlinks shown at most (a page linked from more lists the first by title). */
export const BACKLINKS_MAX = 200;
/** Ids asked in one titles request: more than a long page links to. */
export const TITLES_MAX = 200;

/** GET /api/pages/{id}/backlinks: published, live pages the caller may read that link to this one. */
export function listBacklinks(core: Core, caller: Caller, id: string) {
  const found = findPageMeta(core, id);
  if (!found || !canReadPage(core, caller, found.space, found.page)) throw notFound("Page not found");
  return backlinkRows(core, found.page.id, visiblePagesFilter(core, caller), BACKLINKS_MAX);
}

/** The `ids` query: comma-separated page ids. */
export function parsePageIds(raw: string): string[] {
  const ids = [
    ...new Set(
      raw
        .split(",")
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  if (ids.length === 0) throw invalid("ids", "must name at least one page id (comma-separated)");
  if (ids.length > TITLES_MAX) throw invalid("ids", `must name at most ${TITLES_MAX} pages`);
  const bad = ids.find((s) => !PAGE_ID.test(s));
  if (bad !== undefined) throw invalid("ids", `"${bad.slice(0, 40)}" is not a page id (a UUID)`);
  return ids;
}

/**
 * GET /api/pages/titles?ids=…: the current title and space of each of these pages the caller may
 * read and that is not in the trash. The others are simply absent (never a 404: that would tell
 * a caller which ids exist).
 */
export function pageTitles(core: Core, caller: Caller, raw: string) {
  return [...readableTitles(core, caller, parsePageIds(raw)).values()];
}

export type LinkedPage = { id: string; title: string; emoji: string | null; spaceId: string; spaceKey: string; spaceName: string };

/** The pages among `ids` the caller may read, out of the trash, by id (exports ask this too). */
export function readableTitles(core: Core, caller: Caller, ids: readonly string[]): Map<string, LinkedPage> {
  const found = new Map<string, LinkedPage>();
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    for (const row of linkedPageRows(core, part, visiblePagesFilter(core, caller))) found.set(row.id, row);
  }
  return found;
}
