/**
 * The two questions of the edit-then-publish rhythm in a shared room (docs/decisions.md,
 * "Publishing stays an explicit step"), so that it is never silent: - Close with unpublished
 * changes of one's own: Publish, Keep as draft (they stay in the shared
 *   working copy, shown to editors as "Unpublished changes by …"), or Discard mine;
 * - Update with someone else's changes in the working copy: whose changes go out, by name,
 *   before anything is published.
 */
import type { UnpublishedAuthor } from "../../api/types";
import { peopleList } from "../../lib/people";
import { timeAgo } from "../../lib/time";
import { Button } from "../../ui/Button";
import { Dialog, DialogActions } from "../../ui/Dialog";

function PeopleList({ authors, meId }: { authors: UnpublishedAuthor[]; meId: string }) {
  return (
    <ul className="unpublished-people">
      {authors.map((a) => (
        <li key={a.id}>
          <strong>{a.id === meId ? "You" : a.name}</strong> <span className="unpublished-when">· changed {timeAgo(a.at)}</span>
        </li>
      ))}
    </ul>
  );
}

export function CloseDialog(p: {
  open: boolean;
  onOpenChange(open: boolean): void;
  authors: UnpublishedAuthor[];
  meId: string;
  version: number;
  busy: "publish" | "discard" | null;
  error: string | null;
  onPublish(): void;
  onKeep(): void;
  onDiscard(): void;
}) {
  const others = p.authors.filter((a) => a.id !== p.meId);
  return (
    <Dialog
      open={p.open}
      onOpenChange={p.onOpenChange}
      title="Publish your changes?"
      description={
        <>
          Your changes are in the page's shared copy, not yet published: readers still see version {p.version}.
          {others.length ? ` It also holds changes by ${peopleList(others, p.meId)}, which Publish would include.` : ""}
        </>
      }
    >
      <dl className="close-choices">
        <dt>Keep as draft</dt>
        <dd>Your changes stay in the shared copy. People who may edit see “Unpublished changes by you” until someone publishes.</dd>
        <dt>Discard mine</dt>
        <dd>
          Takes back what you changed since the page was last published
          {others.length ? `; the changes of ${peopleList(others, p.meId)} stay` : ""}.
        </dd>
      </dl>
      {p.error ? (
        <p className="form-error" role="alert">
          {p.error}
        </p>
      ) : null}
      <DialogActions>
        <Button variant="danger" onClick={p.onDiscard} busy={p.busy === "discard"}>
          Discard mine
        </Button>
        <Button onClick={p.onKeep}>Keep as draft</Button>
        <Button variant="primary" onClick={p.onPublish} busy={p.busy === "publish"}>
          Publish
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function WhoseChangesDialog(p: {
  open: boolean;
  onOpenChange(open: boolean): void;
  authors: UnpublishedAuthor[];
  meId: string;
  busy: boolean;
  onPublish(): void;
}) {
  return (
    <Dialog
      open={p.open}
      onOpenChange={p.onOpenChange}
      title={`Publish changes by ${peopleList(p.authors, p.meId)}?`}
      description={
        "Update publishes everything in the page's shared copy, not only your own " + "changes. The new version credits everyone listed."
      }
    >
      <PeopleList authors={p.authors} meId={p.meId} />
      <DialogActions>
        <Button onClick={() => p.onOpenChange(false)}>Review first</Button>
        <Button variant="primary" onClick={p.onPublish} busy={p.busy}>
          Publish all
        </Button>
      </DialogActions>
    </Dialog>
  );
}
