/**
 * The ONE writer of page_links: every version of a page passes here (rows.ts writeVersion,
 * and the import's writer), so the table always says what each page's current version links to.
 */
import { and, asc, eq, inArray, isNull, type SQL } from "drizzle-orm";
import { linkedPageIds } from "../../content/page-links";
import type { Core } from "../../core";
import { spaces } from "../../spaces/tables";
import { replacePageLinks } from "./sql";
import { PAGE_STATUS, pageLinks, pages } from "../tables";

/** Cheap test first: a document without either form of page link costs no parse and no statement. */
const mayLink = (json: string) => json.includes('"pageLink"') || json.includes("/p/");

export const linksOf = (json: string | null | undefined): string[] => (json && mayLink(json) ? linkedPageIds(JSON.parse(json)) : []);

/**
 * Records the links of a page's new current version. `previousJson`: the version it replaces
 * (null for a new page), so that a page whose links did not change writes nothing.
 */
export function writePageLinks(core: Core, pageId: string, contentJson: string, previousJson: string | null): void {
  const now = linksOf(contentJson).filter((id) => id !== pageId);
  const before = previousJson === null ? [] : linksOf(previousJson).filter((id) => id !== pageId);
  if (now.length === before.length && now.every((id, i) => id === before[i])) return;
  replacePageLinks(core, pageId, now, before.length > 0);
}

const summary = {
  id: pages.id,
  title: pages.title,
  emoji: pages.emoji,
  spaceId: pages.spaceId,
  spaceKey: spaces.key,
  spaceName: spaces.name,
};

/** Published, live pages within `visible` that link to `targetId`, by title, at most `limit`. */
export function backlinkRows(core: Core, targetId: string, visible: SQL, limit: number) {
  return core.db
    .select(summary)
    .from(pageLinks)
    .innerJoin(pages, eq(pages.id, pageLinks.sourcePageId))
    .innerJoin(spaces, eq(spaces.id, pages.spaceId))
    .where(and(eq(pageLinks.targetPageId, targetId), eq(pages.status, PAGE_STATUS.Published), isNull(pages.deletedAt), visible))
    .orderBy(asc(pages.title), asc(pages.id))
    .limit(limit)
    .all();
}

/** The pages among `ids` (one slice) within `visible` and out of the trash, with their space. */
export function linkedPageRows(core: Core, ids: string[], visible: SQL) {
  return core.db
    .select(summary)
    .from(pages)
    .innerJoin(spaces, eq(spaces.id, pages.spaceId))
    .where(and(inArray(pages.id, ids), isNull(pages.deletedAt), visible))
    .all();
}
