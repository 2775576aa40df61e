/**
 * The schedule and the retention policy. Before anything is saved, the card says exactly which
 * backups the new policy would remove (POST policy/preview, which removes nothing; retention
 * itself runs after each backup); taken by hand, before an update and safety copies are never
 * removed by it.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Button } from "../../../ui/Button";
import { FormError, TextField } from "../../../ui/Field";
import { ApiError } from "../../../api/client";
import { Card } from "../../../ui/SectionsFrame";
import { useAction } from "../../../lib/mutation";
import { useReauth } from "../../../lib/reauth";
import { backupTime, KIND_LABEL, plural } from "./format";
import { previewPolicy, useSavePolicyMutation, type BackupList, type Policy } from "./queries";

type Draft = { enabled: boolean; scheduled: boolean; time: string; keepCount: string; keepDays: string };

/** "0 3 * * *" ⇄ "03:00": the schedule is offered as a daily time (a cron line underneath). */
const DAILY = /^(\d{1,2}) (\d{1,2}) \* \* \*$/;
const toTime = (cron: string | null) => {
  const m = DAILY.exec((cron ?? "").trim());
  return m ? `${m[2]!.padStart(2, "0")}:${m[1]!.padStart(2, "0")}` : "03:00";
};
const toCron = (time: string) => {
  const [h, m] = time.split(":").map(Number);
  return `${m ?? 0} ${h ?? 3} * * *`;
};

const fromPolicy = (p: Policy): Draft => ({
  enabled: p.enabled,
  scheduled: p.schedule !== null,
  time: toTime(p.schedule),
  keepCount: String(p.keepCount),
  keepDays: String(p.keepDays),
});
/** A schedule set elsewhere (another cron line) is kept as it is unless the time is changed here. */
const toPolicy = (d: Draft, stored: Policy): Policy => ({
  enabled: d.enabled,
  schedule: !d.scheduled ? null : stored.schedule !== null && toTime(stored.schedule) === d.time ? stored.schedule : toCron(d.time),
  keepCount: Number(d.keepCount),
  keepDays: Number(d.keepDays),
});
const same = (a: Draft, b: Draft) =>
  a.enabled === b.enabled && a.scheduled === b.scheduled && a.time === b.time && a.keepCount === b.keepCount && a.keepDays === b.keepDays;
const whole = (s: string) => /^\d+$/.test(s.trim());

export function PolicyCard({ policy, schedule, readOnly }: { policy: Policy; schedule: BackupList["schedule"]; readOnly: boolean }) {
  const reauth = useReauth();
  const saved = fromPolicy(policy);
  const [draft, setDraft] = useState<Draft>(saved);
  const saving = useAction(useSavePolicyMutation(reauth.guarded), {
    quiet: (err) => err instanceof ApiError && err.code === "reauth_cancelled",
    success: "Policy saved",
  });
  const busy = saving.busy;
  // A new saved policy (after Save, or from elsewhere) replaces an untouched draft.
  const savedKey = JSON.stringify(saved);
  useEffect(() => setDraft(JSON.parse(savedKey) as Draft), [savedKey]);
  const changed = !same(draft, saved);
  const valid = whole(draft.keepCount) && whole(draft.keepDays);
  const preview = useQuery({
    queryKey: ["admin", "backups", "policy-preview", draft],
    queryFn: () => previewPolicy(toPolicy(draft, policy)),
    enabled: changed && valid,
    staleTime: 0,
    retry: false,
  });
  const removes = preview.data?.remove ?? [];

  const save = () => {
    if (!whole(draft.keepCount)) return saving.setError("Type a whole number of backups, at least 1.", "keepCount");
    if (!whole(draft.keepDays)) return saving.setError("Type a whole number of days (0 or more).", "keepDays");
    void saving.run(toPolicy(draft, policy));
  };
  const set = (patch: Partial<Draft>) => (setDraft((d) => ({ ...d, ...patch })), saving.setError(null));
  const fieldError = saving.fieldError;

  return (
    <Card
      id="backups-policy"
      title="Schedule and retention"
      intro={
        "When Cairn backs itself up, and how many scheduled backups it keeps. A backup goes only when it is outside both " +
        "limits. Backups taken by hand, before an update, or as a safety copy stay until you remove them."
      }
    >
      <form
        className="pane-form bk-policy"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label className="pane-check">
          <input type="checkbox" checked={draft.scheduled} disabled={readOnly} onChange={(e) => set({ scheduled: e.target.checked })} />
          Back up every day
        </label>
        {draft.scheduled ? (
          <TextField
            label="At"
            type="time"
            value={draft.time}
            disabled={readOnly}
            onChange={(e) => set({ time: e.target.value })}
            hint={
              policy.schedule && !DAILY.test(policy.schedule) && toTime(policy.schedule) === draft.time
                ? `Now on a schedule set elsewhere (${policy.schedule}); choose a time to replace it`
                : `In this server's time zone (${schedule.timeZone})`
            }
            error={fieldError("schedule")}
          />
        ) : null}
        <label className="pane-check">
          <input type="checkbox" checked={draft.enabled} disabled={readOnly} onChange={(e) => set({ enabled: e.target.checked })} />
          Remove old scheduled backups by these limits
        </label>
        <div className="pane-row">
          <TextField
            label="Keep this many"
            inputMode="numeric"
            value={draft.keepCount}
            disabled={readOnly || !draft.enabled}
            onChange={(e) => set({ keepCount: e.target.value })}
            hint="The newest scheduled ones; at least 1"
            error={fieldError("keepCount")}
          />
          <TextField
            label="And all from the last"
            inputMode="numeric"
            value={draft.keepDays}
            disabled={readOnly || !draft.enabled}
            onChange={(e) => set({ keepDays: e.target.value })}
            hint="Days; 0 keeps only the count"
            error={fieldError("keepDays")}
          />
        </div>
        {changed && valid ? (
          <div className="bk-preview" role="status" aria-live="polite">
            {preview.isPending ? (
              <p className="muted">Working out what this would remove…</p>
            ) : preview.isError ? (
              <FormError error={preview.error.message} />
            ) : removes.length ? (
              <>
                <p className="bk-loss-lead">With this policy, the next backup removes {plural(removes.length, "backup")}:</p>
                <ul aria-label="Backups this policy would remove">
                  {removes.map((b) => (
                    <li key={b.label}>
                      {backupTime(b.createdAt)} ({KIND_LABEL[b.kind]?.toLowerCase() ?? b.kind})
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <p>With this policy, no backup would be removed now.</p>
            )}
          </div>
        ) : null}
        <FormError error={["keepCount", "keepDays", "schedule"].some((f) => fieldError(f)) ? null : saving.error} />
        <div className="form-actions">
          {changed ? (
            <Button onClick={() => (setDraft(saved), saving.setError(null))} disabled={busy}>
              Discard
            </Button>
          ) : null}
          <Button type="submit" variant="primary" busy={busy} disabled={!changed || readOnly}>
            Save the policy
          </Button>
        </div>
      </form>
      <p className="muted bk-note">
        {schedule.nextRunAt
          ? `Next scheduled backup: ${backupTime(schedule.nextRunAt)}.`
          : "No backup is scheduled: only backups taken by hand and before updates are made."}
      </p>
      {reauth.dialog}
    </Card>
  );
}
