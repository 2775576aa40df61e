/** Alerts raised by the detectors: acknowledge (someone is on it) or resolve, each with an optional note. */
import { useState } from "react";
import { AsyncList } from "../../../ui/AsyncList";
import { Button } from "../../../ui/Button";
import { Dialog, DialogActions } from "../../../ui/Dialog";
import { FormError, TextAreaField } from "../../../ui/Field";
import { Card } from "../../../ui/SectionsFrame";
import { useAction } from "../../../lib/mutation";
import { plural, Severity, When } from "./parts";
import { STATUS_LABEL, useAlerts, useMoveAlertMutation, type SecurityAlert } from "./queries";
import { ALERT_NOTE_MAX } from "../../../../common/limits";

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
      intro={
        "Raised when Cairn sees a pattern worth a look: many wrong passwords, many deletions, access widened in a hurry, " +
        "a burst of new API tokens. Acknowledge one while you look into it; resolve it when done."
      }
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
      <AsyncList query={alerts} what="The alerts">
        {() =>
          shown.length ? (
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
                      {a.resolvedByName
                        ? ` · resolved by ${a.resolvedByName}`
                        : a.acknowledgedByName
                          ? ` · acknowledged by ${a.acknowledgedByName}`
                          : ""}
                    </span>
                    {a.note ? <p className="sec-alert-note">Note: {a.note}</p> : null}
                  </div>
                  {a.status !== 2 ? (
                    <div className="pane-list-actions">
                      {a.status === 0 ? (
                        <Button
                          size="sm"
                          onClick={() => setActing({ alert: a, to: "acknowledge" })}
                          aria-label={`Acknowledge: ${a.summary}`}
                        >
                          Acknowledge
                        </Button>
                      ) : null}
                      <Button
                        size="sm"
                        variant="primary"
                        onClick={() => setActing({ alert: a, to: "resolve" })}
                        aria-label={`Resolve: ${a.summary}`}
                      >
                        Resolve
                      </Button>
                    </div>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted" style={{ margin: 0 }}>
              {show === "unresolved" || show === "0"
                ? "No alert needs you. When a detector sees something, it appears here and in the figures above."
                : "No alert of this kind."}
            </p>
          )
        }
      </AsyncList>
      <MoveDialog acting={acting} onClose={() => setActing(null)} />
    </Card>
  );
}

function MoveDialog({ acting, onClose }: { acting: { alert: SecurityAlert; to: "acknowledge" | "resolve" } | null; onClose(): void }) {
  const [note, setNote] = useState("");
  const moving = useAction(useMoveAlertMutation(), {
    success: (_answer, { to }) => (to === "acknowledge" ? "Alert acknowledged" : "Alert resolved"),
    done: () => close(),
  });
  const { busy, error } = moving;
  const close = () => {
    setNote("");
    moving.setError(null);
    onClose();
  };
  const submit = () => acting && moving.run({ alert: acting.alert, to: acting.to, note: note.trim() });
  const verb = acting?.to === "acknowledge" ? "Acknowledge" : "Resolve";
  const RESOLVED = "It closes; a new alert opens only for what the detector sees from now on.";
  const ACKNOWLEDGED = "It stays listed until resolved, so others know someone is on it.";
  return (
    <Dialog
      open={acting !== null}
      onOpenChange={(o) => (o ? undefined : close())}
      title={`${verb} this alert?`}
      description={acting ? `${acting.alert.summary}. ${acting.to === "resolve" ? RESOLVED : ACKNOWLEDGED}` : ""}
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
