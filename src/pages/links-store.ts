/**
 * The ONE writer of page_links: every version of a page passes here (store.ts writeVersion,
 * and the import's writer), so the table always says what each page's current version links to.
 */
import { linkedPageIds } from "../content/page-links";
import type { Core } from "../core";
import { replacePageLinks } from "./queries";

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
