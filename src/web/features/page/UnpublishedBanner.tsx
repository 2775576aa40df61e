/**
 * "Unpublished changes by Ada, Grace · Review" above a page's published text (docs/decisions.md,
 * "Publishing stays an explicit step"), for people who may edit it: the shared working copy holds
 * edits that readers do not see yet. Review opens the editor, where those edits are. Readers
 * without Edit see nothing: for them the published version is the page.
 */
import { Link } from "wouter";
import type { Page, Space } from "../../api/types";
import { useMe } from "../../app/session";
import { peopleList } from "../../lib/people";
import { pagePath } from "../../lib/slug";
import { fullDate, timeAgo } from "../../lib/time";
import { preloadEditor } from "./editor-chunk";
import { useUnpublished } from "./queries";

export function UnpublishedBanner({ page, space }: { page: Page; space: Space }) {
  const me = useMe().data;
  const live = page.canEdit && page.status !== 0 && !!me;
  const unpublished = useUnpublished(page.id, live);
  const authors = unpublished.data?.authors ?? [];
  if (!live || authors.length === 0) return null;
  const latest = authors.reduce((a, b) => (a.at > b.at ? a : b)).at;
  return (
    <p className="unpublished-banner" role="status">
      <span>
        Unpublished changes by {peopleList(authors, me?.id)} ·{" "}
        <time dateTime={latest} title={fullDate(latest)}>
          {timeAgo(latest)}
        </time>
      </span>
      <Link
        href={`${pagePath(space.key, page.id, page.title)}/edit?review`}
        className="unpublished-review"
        onPointerEnter={preloadEditor}
        onFocus={preloadEditor}
      >
        Review
      </Link>
    </p>
  );
}
