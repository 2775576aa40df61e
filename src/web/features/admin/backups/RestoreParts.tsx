/** Pieces of the restore flow: what a restore would lose, and a restore test's report in words. */
import { FormError } from "../../../ui/Field";
import { formatBytes, plural } from "./format";
import type { Job, RestorePreview } from "./queries";

/** "3 pages, 12 versions… made since would be lost" — or that nothing would — and the disk it needs. */
export function LossSummary({ preview }: { preview: RestorePreview }) {
  const { lost, disk } = preview;
  const items = [
    [lost.pages, plural(lost.pages, "page")],
    [lost.versions, plural(lost.versions, "version")],
    [lost.comments, plural(lost.comments, "comment")],
    [lost.files, plural(lost.files, "file")],
    [lost.people, plural(lost.people, "person who signed up", "people who signed up")],
  ].filter(([n]) => (n as number) > 0) as Array<[number, string]>;
  return (
    <div className="bk-loss">
      {items.length ? (
        <>
          <p className="bk-loss-lead">Made since then, and lost by restoring:</p>
          <ul aria-label="What would be lost">
            {items.map(([, text]) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
          <p className="muted bk-note">Changes made since then to pages that already existed are undone too.</p>
        </>
      ) : (
        <p className="bk-loss-lead">Nothing made since then would be lost; changes made since then to existing pages are undone.</p>
      )}
      <p className={disk.enough === false ? "pane-bad bk-note" : "muted bk-note"}>
        The restore needs {formatBytes(disk.neededBytes)} of free disk space (a safety backup of the current data, and the restored copy)
        {disk.freeBytes === null
          ? "."
          : disk.enough
            ? `; ${formatBytes(disk.freeBytes)} is free.`
            : `, but only ${formatBytes(disk.freeBytes)} is free: make room first.`}
      </p>
    </div>
  );
}

const CHECK: Record<string, string> = {
  integrity: "The database file is whole",
  migrations: "It upgrades to this version of Cairn",
  foreign_keys: "Every record it links to is there",
  audit_chain: "The audit log's chain is unbroken",
  files: "Every file it needs is here, unchanged",
};

type Report = { ok: boolean; checks: Array<{ name: string; ok: boolean; detail: string; problems: string[] }> };

/** The restore test's checks, each passed or failed in words, never colour alone. */
export function TestReport({ job }: { job: Job }) {
  if (job.state !== "succeeded") return <FormError error={`The test could not finish: ${job.error?.message ?? job.state}`} />;
  const report = job.result as Report | null;
  if (!report?.checks) return null;
  return (
    <div className="bk-report" role="status">
      <p className={report.ok ? "pane-ok" : "pane-bad"}>
        {report.ok ? "This backup restores correctly." : "This backup has problems: restoring it is not advised."}
      </p>
      <ul aria-label="Test results">
        {report.checks.map((c) => (
          <li key={c.name}>
            <strong className={c.ok ? "pane-ok" : "pane-bad"}>{c.ok ? "Passed:" : "Failed:"}</strong> {CHECK[c.name] ?? c.name}
            {c.ok ? null : (
              <span className="muted">
                {" "}
                — {c.detail}
                {c.problems.length ? ` (${c.problems.slice(0, 3).join("; ")})` : ""}
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
