/**
 * Backups (/admin/backups, right backups.manage): the backups taken so far with "Back up now",
 * a restore under way or just done (undo, remove the kept copy), the schedule and retention,
 * and the copies off the machine. Restoring, and choosing where copies go, need backups.restore
 * (the owner's).
 */
import { useState } from "react";
import { useMe } from "../../../app/session";
import { BackupsCard } from "./BackupsCard";
import { PolicyCard } from "./PolicyCard";
import { RestoreDialog } from "./RestoreDialog";
import { RestoreStatus } from "./RestoreStatus";
import { TargetsCard } from "./TargetsCard";
import { useBackups, type Backup } from "./queries";
import "./backups.css";

export default function BackupsSection() {
  const me = useMe();
  const canRestore = !!me.data?.permissions.includes("backups.restore");
  const [includeRemoved, setIncludeRemoved] = useState(false);
  const list = useBackups(includeRemoved);
  const [restoring, setRestoring] = useState<Backup | null>(null);
  const [restoreJob, setRestoreJob] = useState<string | null>(null);
  const restore = list.data?.restore ?? null;
  // While a restore runs the wiki is read-only: nothing here may start new work.
  const readOnly = restoreJob !== null || !!restore?.running;
  const coveredTo = (b: Backup) => {
    const span = (list.data?.pointInTime ?? []).find(
      (s) => s.from <= new Date(b.createdAt).getTime() + 1000 && s.to > new Date(b.createdAt).getTime(),
    );
    return span ? span.to : null;
  };
  return (
    <>
      <RestoreStatus restore={restore} jobId={restoreJob} canRestore={canRestore} onJob={setRestoreJob} />
      <BackupsCard
        list={list}
        includeRemoved={includeRemoved}
        onIncludeRemoved={setIncludeRemoved}
        readOnly={readOnly}
        onRestore={setRestoring}
      />
      {list.data ? <PolicyCard policy={list.data.policy} schedule={list.data.schedule} readOnly={readOnly} /> : null}
      <TargetsCard readOnly={readOnly} canChoose={canRestore} />
      <RestoreDialog
        backup={restoring}
        coveredTo={restoring ? coveredTo(restoring) : null}
        canRestore={canRestore}
        onClose={() => setRestoring(null)}
        onStarted={(job) => setRestoreJob(job.id)}
      />
    </>
  );
}
