/** Page details: who made and last changed it and when, versions, labels, watching, its link. */
import { api, data } from "../../api/client";
import { queryClient } from "../../api/query-client";
import type { Page, Space } from "../../api/types";
import { useMe } from "../../app/session";
import { pagePath } from "../../lib/slug";
import { fullDate, timeAgo } from "../../lib/time";
import { Button } from "../../ui/Button";
import { Copy } from "../../ui/icons";
import { toast } from "../../ui/toast";
import { usePageLabels } from "../page/queries";
import { panelKeys, useUsers, useWatch } from "./queries";

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
  const toggleWatch = async () => {
    const watching = watch.data?.watching;
    await data(watching ? api.DELETE("/api/pages/{id}/watch", { params: { path: { id: page.id } } }) : api.POST("/api/pages/{id}/watch", { params: { path: { id: page.id } } }));
    await queryClient.invalidateQueries({ queryKey: panelKeys.watch(page.id) });
    toast.success(watching ? "You no longer watch this page" : "You watch this page: you will be told of its changes and comments");
  };
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
        <dt>Labels</dt>
        <dd>{labels.data?.length ? labels.data.map((l) => l.name).join(", ") : <span className="muted">None{page.canEdit ? " — add them while editing" : ""}</span>}</dd>
        {me.data ? (
          <>
            <dt>Watching</dt>
            <dd>
              {watch.data ? (watch.data.watching ? "You watch this page" : "You do not watch this page") : "…"}{" "}
              {watch.data ? (
                <Button size="sm" variant="ghost" onClick={() => void toggleWatch()}>
                  {watch.data.watching ? "Stop watching" : "Watch"}
                </Button>
              ) : null}
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
