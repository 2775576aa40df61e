/**
 * A space's trash: what was deleted (each with the pages that went with it), restored in one
 * click, or deleted for good after the person confirms with their password.
 */
import { useState } from "react";
import { Link, useLocation } from "wouter";
import { ApiError } from "../../api/client";
import type { Space, TrashEntry } from "../../api/types";
import { Loading } from "../../app/Loading";
import { useAction } from "../../lib/mutation";
import { pagePath } from "../../lib/slug";
import { fullDate, timeAgo } from "../../lib/time";
import { Button } from "../../ui/Button";
import { ConfirmDialog } from "../../ui/Dialog";
import { EmptyState } from "../../ui/EmptyState";
import { TextField } from "../../ui/Field";
import { toast } from "../../ui/toast";
import { usePurgePageMutation, useRestorePageMutation, useTrash } from "./queries";
import "./trash.css";
import { useTitle } from "../../lib/title";

export function TrashScreen({ space }: { space: Space }) {
  const trash = useTrash(space.id);
  useTitle("Trash", space.name);
  const [purging, setPurging] = useState<TrashEntry | null>(null);
  const [password, setPassword] = useState("");
  const [, navigate] = useLocation();
  const restoring = useAction(useRestorePageMutation(space.id), {
    // The toast carries a way to the page: said here rather than as plain words.
    done: (page) =>
      toast.success(`“${page.title}” is back`, {
        action: { label: "Open", onClick: () => navigate(pagePath(space.key, page.id, page.title)) },
      }),
    failure: (err, entry) => `“${entry.title}” could not be restored: ${(err as Error).message}`,
    toastFailure: true,
  });
  const restore = (entry: TrashEntry) => restoring.run(entry);
  const deletion = useAction(usePurgePageMutation(space.id), {
    failure: (err) =>
      err instanceof ApiError && (err.code === "invalid_credentials" || err.field === "password")
        ? "That password is not right. Type your account's password to confirm."
        : (err as Error).message,
    success: (_answer, { entry }) => `“${entry.title}” was deleted for good`,
    done: () => {
      setPurging(null);
      setPassword("");
    },
  });
  const { busy, error, setError } = deletion;
  const purge = () => purging && deletion.run({ entry: purging, password });
  const entries = trash.data ?? [];
  return (
    <main id="main" className="main-column trash">
      <h1>Trash</h1>
      <p className="muted">
        Pages deleted from {space.name}.{" "}
        {space.canEdit
          ? "Restore one to put it back where it was, with the pages deleted with it."
          : "People who may edit the space can restore them."}
      </p>
      {trash.isPending ? (
        <Loading />
      ) : entries.length === 0 ? (
        <EmptyState title="The trash is empty">
          When a page is moved to the trash it waits here, with its history, until someone restores it or deletes it for good.
        </EmptyState>
      ) : (
        <ul className="trash-list">
          {entries.map((e) => (
            <li key={e.id}>
              <div className="trash-text">
                <span className="trash-title">
                  {e.emoji ? `${e.emoji} ` : ""}
                  {e.title || "Untitled"}
                </span>
                <span className="muted trash-meta">
                  Deleted by {e.deletedByName ?? "someone"} <time title={fullDate(e.deletedAt)}>{timeAgo(e.deletedAt)}</time>
                  {e.pageCount > 1 ? ` · with ${e.pageCount - 1} page${e.pageCount === 2 ? "" : "s"} below it` : ""}
                </span>
              </div>
              {space.canEdit ? (
                <div className="trash-actions">
                  <Button size="sm" onClick={() => void restore(e)} aria-label={`Restore: ${e.title || "Untitled"}`}>
                    Restore
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    className="danger-ghost"
                    onClick={() => (setError(null), setPurging(e))}
                    aria-label={`Delete for good: ${e.title || "Untitled"}`}
                  >
                    Delete for good
                  </Button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={!!purging}
        onOpenChange={(o) => !o && setPurging(null)}
        title="Delete for good?"
        description={
          purging
            ? `“${purging.title || "Untitled"}”` +
              `${purging.pageCount > 1 ? ` and the ${purging.pageCount - 1} page${purging.pageCount === 2 ? "" : "s"} below it` : ""}` +
              ` will be deleted for good, with their history and attachments. This cannot be undone.`
            : ""
        }
        confirmLabel="Delete for good"
        busy={busy}
        error={error}
        onConfirm={() => void purge()}
      >
        <TextField
          label="Your password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoFocus
        />
      </ConfirmDialog>
      <p className="trash-foot">
        <Link href={`/s/${space.key}`}>Back to {space.name}</Link>
      </p>
    </main>
  );
}
