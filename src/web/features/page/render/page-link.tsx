/**
 * A page link node in the reading view: the page's CURRENT title, as this reader may see it
 * (DocumentView's `links`), linked by id. Without targets (a renderer with nothing to ask, as
 * the server's default) or for a page the reader may not read: UNSEEN_PAGE, no title, no link.
 */
import { createContext, useContext } from "react";
import { UNSEEN_PAGE } from "../../../../content/page-links";
import { pagePath } from "../../../lib/slug";
import type { LinkTargets } from "../links";

/** null: no targets known (shown unseen); undefined inside: still loading. */
export const LinkTargetsContext = createContext<{ targets: LinkTargets | undefined } | null>(null);

export function PageLinkView({ pageId }: { pageId: string }) {
  const known = useContext(LinkTargetsContext);
  const id = pageId.toLowerCase();
  if (known && known.targets === undefined) {
    return (
      <span className="page-link page-link-loading" data-type="pageLink">
        …
      </span>
    );
  }
  const page = known?.targets?.get(id) ?? null;
  if (!page) {
    return (
      <span className="page-link page-link-unseen" data-type="pageLink">
        {UNSEEN_PAGE}
      </span>
    );
  }
  return (
    <a className="page-link" data-type="pageLink" data-page-id={id} href={pagePath(page.spaceKey, page.id, page.title)}>
      {page.title.trim() || "Untitled"}
    </a>
  );
}
