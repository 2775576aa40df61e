/**
 * A restore under way (the wiki read-only meanwhile, with its progress and Cancel), and after
 * one: the replaced data is kept, to undo the restore (type UNDO) or remove it (type REMOVE).
 */
import { useCallback, useState } from "react";
import { ApiError } from "../../../api/client";
import { queryClient } from "../../../api/query-client";
import { Button } from "../../../ui/Button";
import { ConfirmDialog } from "../../../ui/Dialog";
import { FormError, TextField } from "../../../ui/Field";
import { toast } from "../../../ui/toast";
import { Card } from "../../../ui/SectionsFrame";
import { useTask } from "../../../lib/mutation";
import { backupTime, labelTime } from "./format";
import { JobProgress } from "./JobProgress";
import { cancelRestore, discardKept, undoRestore, type BackupList, type Job } from "./queries";

type Ask = "undo" | "remove" | null;

export function RestoreStatus({
  restore,
  jobId,
  canRestore,
  onJob,
}: {
  restore: BackupList["restore"] | null;
  jobId: string | null;
  canRestore: boolean;
  onJob(id: string | null): void;
}) {
  const [ask, setAsk] = useState<Ask>(null);
  const [typed, setTyped] = useState("");
  const [password, setPassword] = useState("");
  const keptCopy = useTask<"undo" | "remove">({
    failure: (err) =>
      err instanceof ApiError && (err.code === "invalid_credentials" || err.field === "password")
        ? "That password is not right. Type your account's password."
        : (err as Error).message,
    success: (_answer, task) => (task.what === "remove" ? "The kept copy was removed" : null),
    done: () => setAsk(null),
  });
  const { error, setError, busy } = keptCopy;
  const running = jobId ?? restore?.running?.jobId ?? null;
  // An undo started here is known before the list says so.
  const [undoing, setUndoing] = useState(false);
  const isUndo = undoing || restore?.running?.kind === "undo";

  const ended = useCallback(
    (job: Job) => {
      onJob(null);
      setUndoing(false);
      // The data under every screen changed: everything is read again.
      void queryClient.invalidateQueries();
      if (job.state === "succeeded") toast.success(job.kind === "undo" ? "The restore was undone" : "Backup restored");
      else if (job.state === "cancelled") toast.success(`The ${job.kind === "undo" ? "undo" : "restore"} was cancelled: nothing changed`);
      else
        setError(
          `The ${job.kind === "undo" ? "undo" : "restore"} failed, and nothing was changed: ${job.error?.message ?? "no reason was given"}`,
        );
    },
    [onJob],
  );

  if (!running && !restore?.kept && !error) return null;
  const word = ask === "undo" ? "UNDO" : "REMOVE";
  const open = (which: Ask) => (setTyped(""), setPassword(""), setError(null), setAsk(which));
  const confirm = () => {
    if (typed !== word) return setError(`Type ${word} in capitals to confirm.`);
    if (!password) return setError("Type your password to confirm.");
    const body = { confirmLabel: word, password };
    void keptCopy.run(
      ask === "undo"
        ? {
            what: "undo",
            work: async () => {
              onJob((await undoRestore(body)).id);
              setUndoing(true);
            },
          }
        : { what: "remove", work: () => discardKept(body) },
    );
  };
  const cancel = async () => {
    try {
      await cancelRestore();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const kept = restore?.kept ?? null;

  return (
    <Card id="backups-restore" title={running ? (isUndo ? "Undoing the restore" : "Restoring") : "The last restore"} danger={!!running}>
      {running ? (
        <>
          <p className="bk-warning" role="status">
            The wiki is read-only while the backup is restored: everyone can read, nobody can change anything. It takes a few minutes at
            most.
          </p>
          <JobProgress id={running} label={isUndo ? "Undoing the restore" : "Restoring"} onEnd={ended} />
          {canRestore ? <Button onClick={() => void cancel()}>Cancel the restore</Button> : null}
        </>
      ) : kept ? (
        <>
          <p className="pane-intro">
            The backup of {backupTime(labelTime(kept.restoredLabel))} was restored on {backupTime(kept.restoredAt)}. The data it replaced is
            kept as a safety backup: undo the restore to put that data back, or remove it once you are sure.
          </p>
          {canRestore ? (
            <div className="pane-list-actions">
              <Button variant="primary" onClick={() => open("undo")}>
                Undo restore…
              </Button>
              <Button variant="danger" onClick={() => open("remove")}>
                Remove the kept copy…
              </Button>
            </div>
          ) : (
            <p className="muted">Only someone who may restore backups can undo it.</p>
          )}
        </>
      ) : null}
      <FormError error={ask ? null : error} />
      <ConfirmDialog
        open={ask !== null}
        onOpenChange={(o) => !o && setAsk(null)}
        title={ask === "undo" ? "Undo the restore?" : "Remove the kept copy?"}
        description={
          ask === "undo"
            ? "The data from just before the restore comes back, and everything changed since " +
              "the restore is lost. The wiki is read-only while it runs."
            : "The data the restore replaced is deleted for good: the restore can no longer be undone."
        }
        confirmLabel={ask === "undo" ? "Undo the restore" : "Remove it for good"}
        busy={busy}
        error={error}
        onConfirm={() => void confirm()}
      >
        <TextField
          label={`Type ${word} to confirm`}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          autoFocus
        />
        <TextField
          label="Your password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </ConfirmDialog>
    </Card>
  );
}
