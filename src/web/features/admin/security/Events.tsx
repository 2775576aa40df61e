/** Security events (the audit log's sign-in failures, lockouts, tokens, permission changes…), filtered by kind and severity. */
import { useState } from "react";
import { AsyncList } from "../../../ui/AsyncList";
import { Button } from "../../../ui/Button";
import { Card } from "../../../ui/SectionsFrame";
import { Severity, When } from "./parts";
import { useEvents, type SecurityEvent } from "./queries";

const ALERT_VERB: Record<string, string> = {
  "security.alert_raised": "Alert",
  "security.alert_acknowledged": "Alert acknowledged",
  "security.alert_resolved": "Alert resolved",
};

/** What happened, in words; the action's code stays beside it for whoever searches the audit log. */
function describe(e: SecurityEvent): string {
  const d = e.details as Record<string, unknown>;
  switch (e.kind) {
    case "lockout":
      return d.everyAddress ? "Account locked for every address" : "Locked out after wrong passwords";
    case "sign_in_failure":
      return d.reason === "locked"
        ? "Right password refused: account locked"
        : d.via === "reauth"
          ? "Wrong password confirming identity"
          : "Wrong password";
    case "token_minted":
      return `API token created${d.readOnly ? " (read-only)" : ""}`;
    default:
      if (e.action.startsWith("security.alert_") && typeof d.summary === "string")
        return `${ALERT_VERB[e.action] ?? "Alert"}: ${d.summary}`;
      return e.action.replace(/[._]/g, " ").replace(/^./, (c) => c.toUpperCase());
  }
}

/** What the event is about: an account's e-mail, a space's key, a blocked range, an alert's subject. */
function about(e: SecurityEvent): string {
  const d = e.details as Record<string, unknown>;
  if (e.targetName) return e.targetName;
  if (typeof d.cidr === "string") return d.cidr;
  if (typeof d.key === "string") return `space ${d.key}`;
  if (e.targetType === "security_alert") return "—";
  if (typeof d.name === "string") return d.name;
  return e.targetType.replace(/_/g, " ");
}

export function EventsCard() {
  const [kind, setKind] = useState("");
  const [severity, setSeverity] = useState(0);
  const events = useEvents(kind, severity);
  const shown = events.data?.pages.flatMap((p) => p.events) ?? [];
  const kinds = events.data?.pages[0]?.kinds ?? [];
  const filtered = kind !== "" || severity > 0;
  return (
    <Card
      id="security-events"
      title="Events"
      intro={
        "Failed sign-ins, lockouts, new API tokens, permission and role changes, blocks " +
        "and alerts, newest first. Every one is also in the audit log."
      }
    >
      <form className="pane-row sec-filters" role="search" aria-label="Filter the events" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="sec-event-kind">Kind</label>
          <select id="sec-event-kind" className="input" value={kind} onChange={(e) => setKind(e.target.value)}>
            <option value="">Every kind</option>
            {kinds.map((k) => (
              <option key={k.name} value={k.name}>
                {k.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="sec-event-severity">Severity</label>
          <select id="sec-event-severity" className="input" value={severity} onChange={(e) => setSeverity(Number(e.target.value))}>
            <option value={0}>Any severity</option>
            <option value={1}>Warning and critical</option>
            <option value={2}>Critical only</option>
          </select>
        </div>
      </form>
      <AsyncList query={events} what="The events">
        {() =>
          shown.length ? (
            <div className="table-wrap" tabIndex={0} role="region" aria-label="Security events">
              <table className="pane-table sec-events">
                <thead>
                  <tr>
                    <th scope="col">What</th>
                    <th scope="col">Severity</th>
                    <th scope="col">When</th>
                    <th scope="col">About</th>
                    <th scope="col">Who</th>
                    <th scope="col">From</th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((e) => (
                    <tr key={e.id}>
                      <td>
                        {describe(e)} <code className="muted">{e.action}</code>
                      </td>
                      <td>
                        <Severity level={e.severity} />
                      </td>
                      <td className="nowrap">
                        <When at={e.createdAt} />
                      </td>
                      <td>{about(e)}</td>
                      <td>
                        {e.actorName ?? (e.actorId ? "—" : e.kind === "sign_in_failure" || e.kind === "lockout" ? "Anonymous" : "Cairn")}
                      </td>
                      <td className="nowrap">{e.ip ?? "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="muted" style={{ margin: 0 }}>
              {filtered
                ? "No event matches these filters."
                : "Nothing has happened yet that concerns security: wrong passwords, new tokens and permission changes will show here."}
            </p>
          )
        }
      </AsyncList>
      {events.hasNextPage ? (
        <div className="sec-form-actions">
          <Button onClick={() => void events.fetchNextPage()} busy={events.isFetchingNextPage}>
            Load older events
          </Button>
        </div>
      ) : null}
    </Card>
  );
}
