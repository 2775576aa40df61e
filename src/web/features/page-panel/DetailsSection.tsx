/** Page details: who made and last changed it and when, versions, labels, watching, its link. */
import { Link } from "wouter";
import type { Page, Space } from "../../api/types";
import { useMe } from "../../app/session";
import { useAction } from "../../lib/mutation";
import { pagePath } from "../../lib/slug";
import { fullDate, timeAgo } from "../../lib/time";
import { Button } from "../../ui/Button";
import { Copy } from "../../ui/icons";
import { toast } from "../../ui/toast";
import { useWatchMutation } from "../notifications";
import { usePageLabels } from "../page/queries";
import { useBacklinks } from "../page/links";
import { useUsers, useWatch } from "./queries";

/** "Watched by 3 people": direct watchers only (the API does not count the space's watchers). */
export function watchedBy(count: number): string {
  if (count === 0) return "Nobody watches this page yet";
  return `Watched by ${count} ${count === 1 ? "person" : "people"}`;
}

export function DetailsSection({ page, space }: { page: Page; space: Space }) {
  const me = useMe();
  const users = useUsers();
  const labels = usePageLabels(page.id);
  const watch = useWatch(page.id);
  const nameOf = (id: string | null) => (id ? (users.data?.find((u) => u.id === id)?.displayName ?? "a former member") : "someone");
  const link = window.location.origin + pagePath(space.key, page.id, page.title);
  const when = (iso: string) => (
    <time dateTime={iso} title={fullDate(iso)}>
      {timeAgo(iso)}
    </time>
  );
  const change = useAction(useWatchMutation("page", page.id), {
    success: (now) => (now ? "You watch this page: you will be told of its changes and comments" : "You no longer watch this page"),
    failure: (err) => `Could not change watching: ${(err as Error).message}`,
    toastFailure: true,
  });
  const busy = change.busy;
  const toggleWatch = () => change.run(!watch.data?.watching);
  return (
    <div className="details">
      <dl className="details-list">
        <dt>Created</dt>
        <dd>
          by {nameOf(page.createdById)}, {when(page.createdAt)}
        </dd>
        <dt>Last updated</dt>
        <dd>
          by {nameOf(page.updatedById)}, {when(page.updatedAt)}
        </dd>
        <dt>Versions</dt>
        <dd>{page.currentVersionNumber}</dd>
        <dt>Linked from</dt>
        <dd>
          <Backlinks pageId={page.id} spaceId={space.id} />
        </dd>
        <dt>Labels</dt>
        <dd>
          {labels.data?.length ? (
            labels.data.map((l) => l.name).join(", ")
          ) : (
            <span className="muted">None{page.canEdit ? " — add them while editing" : ""}</span>
          )}
        </dd>
        {me.data ? (
          <>
            <dt>Watching</dt>
            <dd>
              {watch.data ? (
                <>
                  <span className="details-watchers">{watchedBy(watch.data.watcherCount)}</span>
                  <span className="details-watch-row">
                    <span>{watch.data.watching ? "You watch this page" : "You do not watch this page"}</span>
                    <Button size="sm" variant="ghost" onClick={() => void toggleWatch()} busy={busy} aria-pressed={watch.data.watching}>
                      {watch.data.watching ? "Stop watching" : "Watch"}
                    </Button>
                  </span>
                </>
              ) : (
                "…"
              )}
            </dd>
          </>
        ) : null}
      </dl>
      <label className="field-label" htmlFor="page-link">
        Link to this page
      </label>
      <div className="copy-link">
        <input id="page-link" className="input" readOnly value={link} onFocus={(e) => e.target.select()} />
        <Button variant="secondary" onClick={() => void navigator.clipboard?.writeText(link).then(() => toast.success("Link copied"))}>
          <Copy size={14} aria-hidden="true" /> Copy
        </Button>
      </div>
    </div>
  );
}

/** The pages that link to this one (only those the reader may read), by title. */
function Backlinks({ pageId, spaceId }: { pageId: string; spaceId: string }) {
  const backlinks = useBacklinks(pageId);
  if (backlinks.isPending) return <>…</>;
  if (backlinks.error) return <span className="form-error">Could not load the pages linking here: {backlinks.error.message}</span>;
  if (backlinks.data.length === 0) return <span className="muted">No page links here yet</span>;
  return (
    <ul className="backlinks" aria-label="Pages linking here">
      {backlinks.data.map((p) => (
        <li key={p.id}>
          <Link href={pagePath(p.spaceKey, p.id, p.title)}>
            {p.emoji ? `${p.emoji} ` : ""}
            {p.title.trim() || "Untitled"}
          </Link>
          {p.spaceId !== spaceId ? <span className="muted"> · {p.spaceName}</span> : null}
        </li>
      ))}
    </ul>
  );
}
