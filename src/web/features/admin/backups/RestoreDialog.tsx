/**
 * Restoring one backup: choose the moment (as it was taken, or any second after it that the
 * change log covers), see what would be lost, test the backup, then restore with the label typed
 * exactly and the password. The restore itself is followed by the section (RestoreStatus).
 */
import { useCallback, useEffect, useState } from "react";
import { ApiError } from "../../../api/client";
import { Button } from "../../../ui/Button";
import { Dialog, DialogActions } from "../../../ui/Dialog";
import { FormError, TextField } from "../../../ui/Field";
import { useAction } from "../../../lib/mutation";
import { backupTime, toLocalInput } from "./format";
import { JobProgress } from "./JobProgress";
import { LossSummary, TestReport } from "./RestoreParts";
import { testRestore, useRestorePreview, useStartRestoreMutation, type Backup, type Job } from "./queries";

interface Props {
  backup: Backup | null;
  /** The last second the change log covers after this backup (ms), when it covers any. */
  coveredTo: number | null;
  canRestore: boolean;
  onClose(): void;
  onStarted(job: Job): void;
}

export function RestoreDialog({ backup, coveredTo, canRestore, onClose, onStarted }: Props) {
  return (
    <Dialog
      open={backup !== null}
      onOpenChange={(o) => !o && onClose()}
      title={backup ? `Restore the backup of ${backupTime(backup.createdAt)}?` : "Restore"}
      description="Nothing changes until you confirm the restore at the end. The data it replaces is kept, so the restore can be undone."
      wide
    >
      {backup ? (
        <RestoreSteps
          key={backup.label}
          backup={backup}
          coveredTo={coveredTo}
          canRestore={canRestore}
          onClose={onClose}
          onStarted={onStarted}
        />
      ) : null}
    </Dialog>
  );
}

function RestoreSteps({ backup, coveredTo, canRestore, onClose, onStarted }: Omit<Props, "backup"> & { backup: Backup }) {
  const taken = new Date(backup.createdAt).getTime();
  const later = coveredTo !== null && coveredTo > taken + 1000;
  const [mode, setMode] = useState<"taken" | "at">("taken");
  const [atLocal, setAtLocal] = useState(() => toLocalInput(coveredTo ?? taken));
  const chosen = mode === "at" && atLocal && !Number.isNaN(new Date(atLocal).getTime()) ? new Date(atLocal).toISOString() : null;
  // Each preview replays the log into a scratch copy: worked out once typing pauses, not per key.
  const [at, setAt] = useState(chosen);
  useEffect(() => {
    const timer = setTimeout(() => setAt(chosen), 400);
    return () => clearTimeout(timer);
  }, [chosen]);
  const preview = useRestorePreview(backup.label, at);
  const [testJob, setTestJob] = useState<string | null>(null);
  const [report, setReport] = useState<Job | null>(null);
  const [testError, setTestError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState("");
  const [password, setPassword] = useState("");
  const restoring = useAction(useStartRestoreMutation(backup.label), {
    failure: (err) => (wrongPassword(err) ? "That password is not right. Type your account's password." : (err as Error).message),
    fieldOf: (err) => (wrongPassword(err) ? "password" : err.field),
    done: (job) => {
      onStarted(job);
      onClose();
    },
  });
  const busy = restoring.busy;

  const test = async () => {
    setReport(null);
    setTestError(null);
    try {
      setTestJob((await testRestore(backup.label, chosen)).id);
    } catch (err) {
      setTestError((err as Error).message);
    }
  };
  const tested = useCallback((job: Job) => {
    setTestJob(null);
    setReport(job);
  }, []);

  const restore = () => {
    if (typed !== backup.label) return restoring.setError(`Type the backup's label exactly: ${backup.label}`, "confirmLabel");
    if (!password) return restoring.setError("Type your password to confirm.", "password");
    void restoring.run({ confirmLabel: typed, password, ...(chosen ? { at: chosen } : {}) });
  };

  return (
    <div className="bk-restore">
      <fieldset className="bk-when">
        <legend>Restore to</legend>
        <label className="pane-check">
          <input type="radio" name="restore-when" checked={mode === "taken"} onChange={() => (setMode("taken"), setReport(null))} />
          The moment it was taken, {backupTime(backup.createdAt)}
        </label>
        <label className="pane-check">
          <input
            type="radio"
            name="restore-when"
            checked={mode === "at"}
            disabled={!later}
            onChange={() => (setMode("at"), setReport(null))}
          />
          {later ? "A later moment, to the second" : "A later moment (nothing was recorded after this backup yet)"}
        </label>
        {mode === "at" && later ? (
          <TextField
            label="Moment to restore to"
            type="datetime-local"
            step={1}
            min={toLocalInput(taken)}
            max={toLocalInput(coveredTo!)}
            value={atLocal}
            onChange={(e) => (setAtLocal(e.target.value), setReport(null))}
            hint={`Any second from ${backupTime(taken)} to ${backupTime(coveredTo!)}, in your time zone.`}
            error={preview.isError ? preview.error.message : null}
          />
        ) : null}
      </fieldset>

      <h3 className="bk-subhead">What would be lost</h3>
      {preview.isPending ? (
        <p className="muted">Working out what would change…</p>
      ) : preview.isError ? (
        mode === "at" ? null : (
          <FormError error={preview.error.message} />
        )
      ) : (
        <LossSummary preview={preview.data} />
      )}

      <h3 className="bk-subhead">Test it first</h3>
      <p className="muted bk-note">
        Restores it{chosen ? " to the moment chosen" : ""} into a scratch copy and checks it: the database, its upgrade to this version, the
        audit log, every file it needs. Nothing on the wiki changes.
      </p>
      {testJob ? <JobProgress id={testJob} label="Testing the backup" onEnd={tested} /> : null}
      <FormError error={testError} />
      {report ? <TestReport job={report} /> : null}

      {confirming ? (
        <form
          className="bk-confirm"
          onSubmit={(e) => {
            e.preventDefault();
            void restore();
          }}
        >
          <p className="bk-warning">
            While the restore runs, the wiki is read-only for everyone. A safety backup of the current data is taken first, and the data it
            replaces is kept so you can undo the restore.
          </p>
          <TextField
            label={`Type the label, ${backup.label}, to confirm`}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            autoFocus
            error={restoring.fieldError("confirmLabel")}
          />
          <TextField
            label="Your password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={restoring.fieldError("password")}
          />
          <FormError error={restoring.fieldError("confirmLabel") || restoring.fieldError("password") ? null : restoring.error} />
          <DialogActions>
            <Button onClick={() => setConfirming(false)}>Back</Button>
            <Button type="submit" variant="danger" busy={busy}>
              Restore this backup
            </Button>
          </DialogActions>
        </form>
      ) : (
        <DialogActions>
          <Button onClick={onClose}>Close</Button>
          <Button onClick={() => void test()} busy={testJob !== null}>
            Test this backup
          </Button>
          {canRestore ? (
            <Button
              variant="danger"
              disabled={preview.isError || at !== chosen}
              onClick={() => (restoring.setError(null), setConfirming(true))}
            >
              Restore…
            </Button>
          ) : null}
        </DialogActions>
      )}
      {canRestore ? null : (
        <p className="muted bk-note">
          Restoring needs the right to restore backups, which only the owner holds unless a role was given it.
        </p>
      )}
    </div>
  );
}

const wrongPassword = (err: unknown) => err instanceof ApiError && (err.code === "invalid_credentials" || err.field === "password");
