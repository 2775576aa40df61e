/**
 * Backups: on from the first start (a daily backup, kept by the retention policy). The step says
 * when the next one runs, where backups are kept, and how to keep a copy off this machine.
 */
import { Link } from "wouter";
import { Loading } from "../../app/Loading";
import { useAuthForm } from "../../lib/useAuthForm";
import { backupTime } from "../admin/backups/format";
import { useBackups } from "../admin/backups/queries";
import { StepForm } from "./wizard";

/** "every day at 03:00" for a daily cron line; the line itself otherwise. */
function scheduleWords(cron: string): string {
  const m = /^(\d{1,2}) (\d{1,2}) \* \* \*$/.exec(cron.trim());
  return m ? `every day at ${m[2]!.padStart(2, "0")}:${m[1]!.padStart(2, "0")}` : `on the schedule "${cron}"`;
}

export function BackupsStep() {
  const form = useAuthForm();
  const backups = useBackups(false);
  if (backups.isPending) return <Loading />;
  if (backups.isError)
    return (
      <p className="form-error" role="alert">
        The backup settings could not be loaded: {backups.error.message}. Reload the page to try again.
      </p>
    );
  const { schedule, policy } = backups.data;
  const offSite = (
    <p>
      These backups are kept on the same disk as the wiki, so they do not survive that disk. To keep a copy elsewhere, add a target (a
      folder on another disk, or S3-compatible storage) under{" "}
      <Link href="/admin/backups">Administration → Backups → Copies off this machine</Link>.
    </p>
  );
  if (!schedule.cron || !schedule.nextRunAt) {
    return (
      <StepForm
        form={form}
        intro={<p>Cairn backs itself up on a schedule and keeps a number of copies, so any mistake can be undone by restoring one.</p>}
      >
        <p className="setup-note">
          <strong>No backups are scheduled.</strong> Set a time in <Link href="/admin/backups">Administration → Backups</Link>, or skip this
          step and do it later.
        </p>
        <div className="setup-intro">{offSite}</div>
      </StepForm>
    );
  }
  return (
    <StepForm
      form={form}
      intro={
        <>
          <p>
            <strong>Backups are on.</strong> Cairn backs itself up {scheduleWords(schedule.cron)} (server time, {schedule.timeZone}); the
            next one runs <time dateTime={schedule.nextRunAt}>{backupTime(schedule.nextRunAt)}</time>. It keeps the newest{" "}
            {policy.keepCount} and those from the last {policy.keepDays} days, and any of them can be restored from the browser.
          </p>
          {offSite}
        </>
      }
    />
  );
}
