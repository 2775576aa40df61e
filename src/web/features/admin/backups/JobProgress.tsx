/**
 * Long work (a backup, a test, a restore, an undo, a copy) followed while it runs: its phase in
 * words and a progress bar. `onEnd` is called once when the job stops, whichever way.
 */
import { useEffect, useRef } from "react";
import { useJob, type Job } from "./queries";

/** The phases the server reports, in words a person reads (unknown ones are shown as sent). */
const PHASES: Record<string, string> = {
  starting: "Starting",
  copying: "Copying",
  retention: "Removing backups the retention policy no longer keeps",
  "safety-backup": "Backing up the current data first",
  checking: "Checking the restored copy",
  swapping: "Putting the restored data in place",
  connecting: "Reaching the target",
  comparing: "Finding what the target lacks",
  done: "Done",
};
export const phaseText = (phase: string) => PHASES[phase] ?? phase.charAt(0).toUpperCase() + phase.slice(1).replace(/[-_]/g, " ");

export function JobProgress({ id, label, onEnd }: { id: string; label: string; onEnd(job: Job): void }) {
  const job = useJob(id);
  const ended = useRef(false);
  const j = job.data;
  useEffect(() => {
    if (j && j.state !== "running" && !ended.current) {
      ended.current = true;
      onEnd(j);
    }
  }, [j, onEnd]);
  if (job.isError)
    return (
      <p className="form-error" role="alert">
        Its progress could not be read: {job.error.message}
      </p>
    );
  const p = j?.progress ?? null;
  const percent = p && p.total > 0 ? Math.min(100, Math.round((p.done / p.total) * 100)) : null;
  return (
    <div className="bk-progress" role="status" aria-live="polite">
      <div className="bk-progress-line">
        <span className="btn-spinner" aria-hidden="true" />
        <span>
          {label}: {j ? phaseText(j.phase) : "starting"}
          {percent !== null ? ` (${percent}%)` : "…"}
        </span>
      </div>
      <progress max={100} value={percent ?? undefined} aria-label={label} />
    </div>
  );
}
