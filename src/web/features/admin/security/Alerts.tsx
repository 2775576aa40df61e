/** Alerts raised by the detectors: acknowledge (someone is on it) or resolve, each with an optional note. */
import { useState } from "react";
import { api, data } from "../../../api/client";
import { Loading } from "../../../app/Loading";
import { Button } from "../../../ui/Button";
import { Dialog, DialogActions } from "../../../ui/Dialog";
import { FormError, TextAreaField } from "../../../ui/Field";
import { toast } from "../../../ui/toast";
import { Card } from "../../account/SectionsFrame";
import { plural, Severity, When } from "./parts";
import { refreshSecurity, STATUS_LABEL, useAlerts, type SecurityAlert } from "./queries";
import { ALERT_NOTE_MAX } from "../../../../shared/limits";

type Show = "unresolved" | "0" | "1" | "2" | "all";

export function AlertsCard() {
  const [show, setShow] = useState<Show>("unresolved");
  const status = show === "unresolved" || show === "all" ? null : Number(show);
  const alerts = useAlerts(status);
  const [acting, setActing] = useState<{ alert: SecurityAlert; to: "acknowledge" | "resolve" } | null>(null);
  const shown = (alerts.data ?? []).filter((a) => show !== "unresolved" || a.status !== 2);
  return (
    <Card
      id="security-alerts"
      title="Alerts"
      intro="Raised when Cairn sees a pattern worth a look: many wrong passwords, many deletions, access widened in a hurry, a burst of new API tokens. Acknowledge one while you look into it; resolve it when done."
      action={
        <div className="field" style={{ margin: 0 }}>
          <label htmlFor="sec-alert-show" className="visually-hidden">
            Show alerts
          </label>
          <select id="sec-alert-show" className="input sec-select" value={show} onChange={(e) => setShow(e.target.value as Show)}>
            <option value="unresolved">Not resolved</option>
            <option value="0">Open</option>
            <option value="1">Acknowledged</option>
            <option value="2">Resolved</option>
            <option value="all">All alerts</option>
          </select>
        </div>
      }
    >
      {alerts.isPending ? (
        <Loading />
      ) : alerts.isError ? (
        <p className="form-error" role="alert">The alerts could not be loaded: {alerts.error.message}</p>
      ) : shown.length ? (
        <ul className="pane-list" aria-label="Alerts">
          {shown.map((a) => (
            <li key={a.id}>
              <div className="pane-list-text">
                <span>
                  <Severity level={a.severity} /> <span className="sec-badge sec-status">{STATUS_LABEL[a.status]}</span>
                </span>
                <span className="sec-alert-summary">{a.summary}</span>
                <span className="pane-list-meta">
                  raised <When at={a.createdAt} />
                  {a.hits > 1 ? (
                    <>
                      {" "}
                      · seen {plural(a.hits, "time")}, last <When at={a.lastSeenAt} />
                    </>
                  ) : null}
                  {a.resolvedByName ? ` · resolved by ${a.resolvedByName}` : a.acknowledgedByName ? ` · acknowledged by ${a.acknowledgedByName}` : ""}
                </span>
                {a.note ? <p className="sec-alert-note">Note: {a.note}</p> : null}
              </div>
              {a.status !== 2 ? (
                <div className="pane-list-actions">
                  {a.status === 0 ? (
                    <Button size="sm" onClick={() => setActing({ alert: a, to: "acknowledge" })} aria-label={`Acknowledge: ${a.summary}`}>
                      Acknowledge
                    </Button>
                  ) : null}
                  <Button size="sm" variant="primary" onClick={() => setActing({ alert: a, to: "resolve" })} aria-label={`Resolve: ${a.summary}`}>
                    Resolve
                  </Button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted" style={{ margin: 0 }}>
          {show === "unresolved" || show === "0" ? "No alert needs you. When a detector sees something, it appears here and in the figures above." : "No alert of this kind."}
        </p>
      )}
      <MoveDialog acting={acting} onClose={() => setActing(null)} />
    </Card>
  );
}

function MoveDialog({ acting, onClose }: { acting: { alert: SecurityAlert; to: "acknowledge" | "resolve" } | null; onClose(): void }) {
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setNote("");
    setError(null);
    onClose();
  };
  const submit = async () => {
    if (!acting) return;
    setBusy(true);
    setError(null);
    try {
      const path = acting.to === "acknowledge" ? "/api/admin/security/alerts/{id}/acknowledge" : "/api/admin/security/alerts/{id}/resolve";
      await data(api.POST(path, { params: { path: { id: acting.alert.id } }, body: note.trim() ? { note: note.trim() } : {} }));
      toast.success(acting.to === "acknowledge" ? "Alert acknowledged" : "Alert resolved");
      await refreshSecurity();
      close();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const verb = acting?.to === "acknowledge" ? "Acknowledge" : "Resolve";
  return (
    <Dialog
      open={acting !== null}
      onOpenChange={(o) => (o ? undefined : close())}
      title={`${verb} this alert?`}
      description={acting ? `${acting.alert.summary}. ${acting.to === "resolve" ? "It closes; a new alert opens only for what the detector sees from now on." : "It stays listed until resolved, so others know someone is on it."}` : ""}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <TextAreaField
          label="Note (optional)"
          hint={`What you found or did, for the other administrators. At most ${ALERT_NOTE_MAX} characters.`}
          value={note}
          maxLength={ALERT_NOTE_MAX}
          rows={3}
          onChange={(e) => setNote(e.target.value)}
        />
        <FormError error={error} />
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>
            {verb}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
