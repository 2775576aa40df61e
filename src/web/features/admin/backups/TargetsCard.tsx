/**
 * Copies off the machine: a directory (an external disk, a network mount) and S3-compatible
 * storage. Credentials are write-only (the server never sends them back). "Test" writes, reads
 * back and deletes a probe and shows each step; "Copy now" sends what the target lacks.
 * Where copies go is the owner's decision (the right to restore backups): others see the slots,
 * test them and copy to those the owner set, but cannot change them.
 */
import { useCallback, useState, type ReactNode } from "react";
import { ApiError } from "../../../api/client";
import { AsyncList } from "../../../ui/AsyncList";
import { Button } from "../../../ui/Button";
import { FormError, TextField } from "../../../ui/Field";
import { toast } from "../../../ui/toast";
import { Card } from "../../../ui/SectionsFrame";
import { useTask } from "../../../lib/mutation";
import { useReauth } from "../../../lib/reauth";
import { backupTime, formatBytes, plural } from "./format";
import { JobProgress } from "./JobProgress";
import {
  copyToTarget,
  refreshTargets,
  removeTarget,
  saveTarget,
  testTarget,
  useTargets,
  type Job,
  type ProbeReport,
  type TargetBody,
  type Targets,
  type TargetSlot,
} from "./queries";

export function TargetsCard({ readOnly, canChoose }: { readOnly: boolean; canChoose: boolean }) {
  const targets = useTargets();
  return (
    <Card
      id="backups-targets"
      title="Copies off this machine"
      intro={
        "A backup on the same disk as the wiki does not survive that disk. Copy backups, and the files they need, " +
        "to another disk or to S3-compatible storage; only what the target lacks is sent."
      }
    >
      <AsyncList query={targets} what="The targets">
        {(answer) => (
          <>
            {canChoose ? null : (
              <p className="muted bk-note">
                Only the owner (or someone whose role may restore backups) chooses where copies go: a copy holds every page, private ones
                too. You can test the targets they set and copy to them.
              </p>
            )}
            <div className="bk-targets">
              <DirectoryTarget
                target={answer.directory}
                copying={copyingIn(answer, "directory")}
                readOnly={readOnly}
                canChoose={canChoose}
              />
              <S3Target target={answer.s3} copying={copyingIn(answer, "s3")} readOnly={readOnly} canChoose={canChoose} />
            </div>
          </>
        )}
      </AsyncList>
    </Card>
  );
}

/** The copy job running now for a slot (the answer says only that each is a job). */
const copyingIn = (t: Targets, slot: TargetSlot) =>
  (t.copying[slot] as Job | undefined)?.state === "running" ? (t.copying[slot] as Job).id : null;

type Dir = Targets["directory"];
type S3 = Targets["s3"];

function DirectoryTarget({
  target,
  copying,
  readOnly,
  canChoose,
}: {
  target: Dir;
  copying: string | null;
  readOnly: boolean;
  canChoose: boolean;
}) {
  const [path, setPath] = useState(target?.path ?? "");
  return (
    <TargetShell
      slot="directory"
      title="A directory"
      configured={!!target}
      approved={!!target?.approved}
      canChoose={canChoose}
      last={target}
      copying={copying}
      readOnly={readOnly}
      body={() => ({ path: path.trim() })}
      dirty={path.trim() !== (target?.path ?? "")}
    >
      {(fieldError, disabled) => (
        <TextField
          label="Folder on this server"
          value={path}
          onChange={(e) => setPath(e.target.value)}
          placeholder="/mnt/backup-disk/cairn"
          disabled={disabled}
          spellCheck={false}
          hint="An absolute path the server can write to: an external disk or a network mount."
          error={fieldError("path")}
        />
      )}
    </TargetShell>
  );
}

function S3Target({ target, copying, readOnly, canChoose }: { target: S3; copying: string | null; readOnly: boolean; canChoose: boolean }) {
  const [f, setF] = useState({
    endpoint: target?.endpoint ?? "",
    region: target?.region ?? "",
    bucket: target?.bucket ?? "",
    prefix: target?.prefix ?? "",
    accessKeyId: target?.accessKeyId ?? "",
    secretAccessKey: "",
  });
  const [pathStyle, setPathStyle] = useState(target?.pathStyle ?? true);
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF((d) => ({ ...d, [k]: e.target.value }));
  const dirty =
    f.secretAccessKey !== "" ||
    pathStyle !== (target?.pathStyle ?? true) ||
    (["endpoint", "region", "bucket", "prefix", "accessKeyId"] as const).some((k) => f[k] !== (target?.[k] ?? ""));
  return (
    <TargetShell
      slot="s3"
      title="S3-compatible storage"
      configured={!!target}
      approved={!!target?.approved}
      canChoose={canChoose}
      last={target}
      copying={copying}
      readOnly={readOnly}
      dirty={dirty}
      body={() => ({ ...f, pathStyle, secretAccessKey: f.secretAccessKey || undefined })}
    >
      {(fieldError, disabled) => (
        <>
          <TextField
            label="Endpoint"
            value={f.endpoint}
            onChange={set("endpoint")}
            placeholder="https://s3.eu-central-1.amazonaws.com"
            disabled={disabled}
            spellCheck={false}
            error={fieldError("endpoint")}
          />
          <div className="pane-row">
            <TextField
              label="Bucket"
              value={f.bucket}
              onChange={set("bucket")}
              disabled={disabled}
              spellCheck={false}
              error={fieldError("bucket")}
            />
            <TextField
              label="Region"
              value={f.region}
              onChange={set("region")}
              placeholder="us-east-1"
              disabled={disabled}
              spellCheck={false}
              error={fieldError("region")}
            />
          </div>
          <TextField
            label="Folder in the bucket (optional)"
            value={f.prefix}
            onChange={set("prefix")}
            placeholder="cairn/"
            disabled={disabled}
            spellCheck={false}
            error={fieldError("prefix")}
          />
          <div className="pane-row">
            <TextField
              label="Access key ID"
              value={f.accessKeyId}
              onChange={set("accessKeyId")}
              autoComplete="off"
              disabled={disabled}
              spellCheck={false}
              error={fieldError("accessKeyId")}
            />
            <TextField
              label="Secret access key"
              type="password"
              value={f.secretAccessKey}
              onChange={set("secretAccessKey")}
              autoComplete="new-password"
              disabled={disabled}
              placeholder={target?.secretAccessKeySet ? "Stored: type to replace" : ""}
              hint={
                target?.secretAccessKeySet
                  ? "Stored encrypted, never shown again"
                  : target
                    ? "The stored one no longer opens with this server's key: type it again"
                    : "Stored encrypted with this wiki's key"
              }
              error={fieldError("secretAccessKey")}
            />
          </div>
          <label className="pane-check">
            <input type="checkbox" checked={pathStyle} disabled={disabled} onChange={(e) => setPathStyle(e.target.checked)} />
            Bucket in the path (MinIO, Garage and most self-hosted servers)
          </label>
        </>
      )}
    </TargetShell>
  );
}

interface ShellProps {
  slot: TargetSlot;
  title: string;
  configured: boolean;
  /** Set by someone who may choose targets: copies to it may be started by whoever manages backups. */
  approved: boolean;
  /** May change where copies go (the right to restore backups). */
  canChoose: boolean;
  last: { lastCopy: { at: string; ok: boolean; error: string | null } | null } | null;
  /** A copy job running now (started here or elsewhere). */
  copying: string | null;
  readOnly: boolean;
  dirty: boolean;
  body(): TargetBody;
  children(fieldError: (f: string) => string | null, disabled: boolean): ReactNode;
}

/** What both targets share: Save, Remove, Test with its steps, Copy now with its progress. */
function TargetShell({ slot, title, configured, approved, canChoose, last, copying, readOnly, dirty, body, children }: ShellProps) {
  const reauth = useReauth();
  const [probe, setProbe] = useState<ProbeReport | null>(null);
  const [started, setCopyJob] = useState<string | null>(null);
  const [copied, setCopied] = useState<Job | null>(null);
  const copyJob = started ?? (copied?.id === copying ? null : copying);
  const task = useTask<"save" | "remove" | "test" | "copy">({ quiet: (err) => err instanceof ApiError && err.code === "reauth_cancelled" });
  const busy = task.pending && task.pending.what !== "copy" ? task.pending.what : null;
  const act = (what: "save" | "remove" | "test" | "copy", work: () => Promise<void>) => task.run({ what, work });
  const copyEnded = useCallback((job: Job) => {
    setCopyJob(null);
    setCopied(job);
    void refreshTargets();
    if (job.state === "succeeded") toast.success("Copied");
  }, []);
  const heading = `bk-target-${slot}`;
  return (
    <section className="bk-target" aria-labelledby={heading}>
      <h3 id={heading} className="bk-subhead">
        {title}
        {configured ? <span className="pane-tag">Set up</span> : null}
      </h3>
      <form
        className="pane-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void act("save", async () => {
            await reauth.guarded(() => saveTarget(slot, body()));
            setProbe(null);
            toast.success(`${title} saved`);
          });
        }}
      >
        {children(task.fieldError, readOnly || !canChoose || busy !== null)}
        <FormError error={task.formError} />
        <div className="form-actions bk-actions">
          {canChoose ? (
            <Button type="submit" variant="primary" busy={busy === "save"} disabled={!dirty || readOnly}>
              Save
            </Button>
          ) : null}
          {configured ? (
            <>
              <Button
                busy={busy === "test"}
                disabled={dirty}
                onClick={() => void act("test", async () => setProbe(await testTarget(slot)))}
                aria-label={`Test ${title.toLowerCase()}`}
              >
                Test
              </Button>
              <Button
                busy={copyJob !== null}
                disabled={dirty || readOnly || (!approved && !canChoose)}
                aria-describedby={!approved && !canChoose ? `${heading}-unapproved` : undefined}
                onClick={() => void act("copy", async () => (setCopied(null), setCopyJob((await copyToTarget(slot)).id)))}
                aria-label={`Copy now to ${title.toLowerCase()}`}
              >
                Copy now
              </Button>
              <Button
                variant="ghost"
                busy={busy === "remove"}
                disabled={readOnly}
                onClick={() =>
                  void act("remove", async () => {
                    await reauth.guarded(() => removeTarget(slot));
                    toast.success(`${title} removed; what was copied there stays`);
                  })
                }
                aria-label={`Remove ${title.toLowerCase()}`}
              >
                Remove
              </Button>
            </>
          ) : null}
        </div>
      </form>
      {configured && !approved && !canChoose ? (
        <p id={`${heading}-unapproved`} className="muted bk-note">
          The owner has not confirmed this target yet: they must save it again or copy to it once before copies to it can be started here.
        </p>
      ) : null}
      {last?.lastCopy && !copyJob && !copied ? (
        <p className="muted bk-note">
          {last.lastCopy.ok
            ? `Last copied ${backupTime(last.lastCopy.at)}.`
            : `The last copy, ${backupTime(last.lastCopy.at)}, stopped: ${last.lastCopy.error ?? "unknown error"}`}
        </p>
      ) : null}
      {probe ? <Probe report={probe} /> : null}
      {copyJob ? <JobProgress id={copyJob} label="Copying" onEnd={copyEnded} /> : null}
      {copied ? <CopyResult job={copied} /> : null}
      {reauth.dialog}
    </section>
  );
}

const STEP: Record<string, string> = {
  connect: "Reach the target",
  write: "Write a test file",
  list: "Find it in a listing",
  "read back": "Read it back",
  delete: "Delete it",
};

function Probe({ report }: { report: ProbeReport }) {
  return (
    <div className="bk-report" role="status">
      <p className={report.ok ? "pane-ok" : "pane-bad"}>
        {report.ok
          ? "The target works: Cairn can write, read back and delete there."
          : `The target does not work yet: ${report.error ?? "a step failed"}`}
      </p>
      <ol aria-label="Test steps">
        {report.steps.map((s) => (
          <li key={s.step}>
            <strong className={s.ok ? "pane-ok" : "pane-bad"}>{s.ok ? "Done" : "Failed"}</strong> {STEP[s.step] ?? s.step}
            <span className="muted"> ({s.ms} ms)</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

function CopyResult({ job }: { job: Job }) {
  if (job.state !== "succeeded")
    return <FormError error={`The copy stopped: ${job.error?.message ?? job.state}. Copy again to resume where it stopped.`} />;
  const r = job.result as { backups: number; copied: number; skipped: number; bytes: number; missingFiles: string[] } | null;
  if (!r) return null;
  return (
    <p className="bk-note">
      {plural(r.backups, "backup")} {r.backups === 1 ? "is" : "are"} on the target. Sent {plural(r.copied, "item")} ({formatBytes(r.bytes)}
      ); {plural(r.skipped, "item was", "answer were")} there already.
      {r.missingFiles.length
        ? ` ${plural(r.missingFiles.length, "file")} the backups name ${r.missingFiles.length === 1 ? "is" : "are"} ` +
          `missing from this server's file store and could not be sent.`
        : ""}
    </p>
  );
}
