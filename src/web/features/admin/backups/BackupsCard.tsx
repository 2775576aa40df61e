/**
 * The backups taken so far, newest first, with "Back up now" and its progress. Removed ones
 * (retention, by hand) stay listed behind a toggle, without their data.
 */
import { useCallback, useState } from "react";
import { Loading } from "../../../app/Loading";
import { ApiError } from "../../../api/client";
import { Button } from "../../../ui/Button";
import { ConfirmDialog } from "../../../ui/Dialog";
import { EmptyState } from "../../../ui/EmptyState";
import { FormError } from "../../../ui/Field";
import { toast } from "../../../ui/toast";
import { Card } from "../../../ui/SectionsFrame";
import { useAuthForm } from "../../../lib/useAuthForm";
import { useAction } from "../../../lib/mutation";
import { useReauth } from "../../../lib/reauth";
import { backupTime, countsText, formatBytes, KIND_LABEL, plural } from "./format";
import { JobProgress } from "./JobProgress";
import { refreshBackups, removeBackup, useRunBackupMutation, type Backup, type BackupList, type Job } from "./queries";
import { ARCHIVE_FLOOR_BYTES, megabytes } from "../../../../common/limits";

const REMOVED: Record<string, string> = {
  retention: "Removed by the retention policy",
  by_hand: "Removed by hand",
  discarded: "Removed as a restore's kept copy",
};

export function BackupsCard({
  list,
  includeRemoved,
  onIncludeRemoved,
  readOnly,
  onRestore,
}: {
  list: { isPending: boolean; isError: boolean; error: Error | null; data?: BackupList };
  includeRemoved: boolean;
  onIncludeRemoved(on: boolean): void;
  readOnly: boolean;
  onRestore(b: Backup): void;
}) {
  const [jobId, setJobId] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Backup | null>(null);
  const removal = useAuthForm();
  const reauth = useReauth();
  const remove = (b: Backup) =>
    removal.run(async () => {
      try {
        await reauth.guarded(() => removeBackup(b.label));
      } catch (err) {
        if (err instanceof ApiError && err.code === "reauth_cancelled") return;
        throw err;
      }
      toast.success(`The backup of ${backupTime(b.createdAt)} was removed`);
      setRemoving(null);
    });
  const backup = useAction(useRunBackupMutation(), { done: (job) => setJobId(job.id) });
  const { error, setError } = backup;
  const starting = backup.busy;
  const start = () => backup.run();
  const ended = useCallback((job: Job) => {
    setJobId(null);
    void refreshBackups();
    const removed = (job.result as { removed?: string[] } | null)?.removed ?? [];
    if (job.state === "succeeded")
      toast.success(
        removed.length ? `Backup taken; ${plural(removed.length, "old backup")} removed by the retention policy` : "Backup taken",
      );
    else setError(job.error?.message ?? `The backup ${job.state === "cancelled" ? "was cancelled" : "failed"}.`);
  }, []);
  const backups = list.data?.backups ?? [];
  return (
    <Card
      id="backups-list"
      title="Backups"
      intro={
        "Copies of the whole wiki: pages, versions, comments, people and settings. Files are kept once and shared between backups. " +
        "Restore one to go back to the moment it was taken, or to any second since that the log archive still covers."
      }
      action={
        <Button
          variant="primary"
          busy={starting || jobId !== null || !!list.data?.running}
          disabled={readOnly}
          onClick={() => void start()}
        >
          Back up now
        </Button>
      }
    >
      {(jobId ?? list.data?.running?.id) ? <JobProgress id={(jobId ?? list.data?.running?.id)!} label="Backing up" onEnd={ended} /> : null}
      <FormError error={error} />
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <p className="form-error" role="alert">
          The backups could not be loaded: {list.error?.message}
        </p>
      ) : (
        <>
          <Coverage list={list.data!} />
          <label className="pane-check">
            <input type="checkbox" checked={includeRemoved} onChange={(e) => onIncludeRemoved(e.target.checked)} />
            Show removed backups
          </label>
          {backups.length === 0 ? (
            <EmptyState title="No backup yet">
              Take the first one with “Back up now”. After that, Cairn backs itself up on the schedule below, and keeps what the retention
              policy says.
            </EmptyState>
          ) : (
            <ul className="pane-list" aria-label="Backups">
              {backups.map((b) => (
                <BackupRow
                  key={b.label}
                  backup={b}
                  readOnly={readOnly}
                  onRestore={() => onRestore(b)}
                  onRemove={() => (removal.clear(), setRemoving(b))}
                />
              ))}
            </ul>
          )}
        </>
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(o) => !o && setRemoving(null)}
        title={removing ? `Remove the backup of ${backupTime(removing.createdAt)}?` : "Remove the backup?"}
        description={
          removing
            ? `Its copy of the database (${formatBytes(removing.bytes)}) is deleted for good: you can no longer restore it, nor a ` +
              `moment that only it reaches. Files no other backup needs go too. It stays listed as removed.`
            : ""
        }
        confirmLabel="Remove the backup"
        busy={removal.busy}
        error={removal.error?.message ?? null}
        onConfirm={() => removing && void remove(removing)}
      />
      {reauth.dialog}
    </Card>
  );
}

/**
 * How far back a restore reaches, and what the log archive behind it takes on disk: it is kept
 * under a limit (twice the database, at least 64 MB), so under heavy writing the window shrinks
 * rather than the disk filling.
 */
function Coverage({ list }: { list: BackupList }) {
  const { archive, pointInTime: spans } = list;
  const from = archive.oldestRestorableAt ? Date.parse(archive.oldestRestorableAt) : null;
  const to = spans.length ? Math.max(...spans.map((s) => s.to)) : null;
  const gaps = from === null ? 0 : spans.filter((s) => s.to > from).length - 1;
  return (
    <div className="bk-coverage">
      {from !== null && to !== null ? (
        <p>
          You can restore to any second from <time dateTime={new Date(from).toISOString()}>{backupTime(from)}</time> to{" "}
          <time dateTime={new Date(to).toISOString()}>{backupTime(to)}</time>
          {gaps > 0 ? ` (with ${gaps} ${gaps === 1 ? "gap" : "gaps"})` : ""}.
        </p>
      ) : null}
      <p className="bk-archive">
        {from !== null ? "The log archive that makes this possible" : "The log archive"} takes {formatBytes(archive.bytes)}, kept under{" "}
        {formatBytes(archive.limitBytes)} (twice the database or {megabytes(ARCHIVE_FLOOR_BYTES)}, whichever is more): past that, Cairn
        takes a backup automatically and lets the oldest moments go; each backup itself stays restorable.
        {from === null ? " Once a backup is taken, you can restore to any second after it." : ""}
      </p>
    </div>
  );
}

function BackupRow({
  backup: b,
  readOnly,
  onRestore,
  onRemove,
}: {
  backup: Backup;
  readOnly: boolean;
  onRestore(): void;
  onRemove(): void;
}) {
  const when = backupTime(b.createdAt);
  return (
    <li className={b.removedAt ? "bk-removed" : undefined}>
      <div className="pane-list-text">
        <span className="pane-list-name">
          <time dateTime={b.createdAt}>{when}</time>
          <span className="pane-tag">{KIND_LABEL[b.kind] ?? b.kind}</span>
          {b.removedAt ? <span className="pane-tag bk-tag-removed">Removed</span> : null}
        </span>
        <span className="pane-list-meta">
          {b.removedAt
            ? `${REMOVED[b.removedReason ?? ""] ?? "Removed"} on ${backupTime(b.removedAt)} · held `
            : `${formatBytes(b.bytes)} · `}
          {countsText(b.counts)}
        </span>
        <span className="pane-list-meta bk-label">{b.label}</span>
      </div>
      {b.removedAt ? null : (
        <div className="pane-list-actions">
          <Button size="sm" onClick={onRestore} disabled={readOnly} aria-label={`Restore… the backup of ${when}`}>
            Restore…
          </Button>
          <Button size="sm" variant="ghost" onClick={onRemove} disabled={readOnly} aria-label={`Remove… the backup of ${when}`}>
            Remove…
          </Button>
        </div>
      )}
    </li>
  );
}
