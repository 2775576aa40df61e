/**
 * A webhook's deliveries, newest first: the event, how it went, the answer and the time taken;
 * each can be sent again (a new delivery of the same payload, which appears at the top).
 */
import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import type { Space } from "../../api/types";
import { useAction } from "../../lib/mutation";
import { fullDate, timeAgo } from "../../lib/time";
import { Button } from "../../ui/Button";
import { FormError } from "../../ui/Field";
import { problemText, settingsKeys, useRedeliverMutation, type Delivery, type Webhook } from "./queries";

const STATUS: Record<Delivery["status"], string> = {
  pending: "Waiting",
  failed: "Failed, will retry",
  succeeded: "Delivered",
  abandoned: "Given up",
};
const PILL: Record<Delivery["status"], string> = {
  pending: "status-off",
  failed: "status-warn",
  succeeded: "status-ok",
  abandoned: "status-bad",
};

export function DeliveryLog({ space, hook }: { space: Space; hook: Webhook }) {
  const log = useQuery({
    queryKey: settingsKeys.deliveries(space.key, hook.id),
    queryFn: () => data(api.GET("/api/spaces/{key}/webhooks/{id}/deliveries", { params: { path: { key: space.key, id: hook.id } } })),
    // While nothing has been sent yet or something is on its way, look again every few seconds.
    refetchInterval: (q) =>
      !q.state.data?.length || q.state.data.some((d) => d.status === "pending" || d.status === "failed") ? 3000 : false,
  });
  const rows = log.data ?? [];
  const redelivery = useAction(useRedeliverMutation(space.key, hook.id), {
    failure: (err) => problemText(err),
    success: (_answer, d) => `The ${d.eventType} event is being sent again: the new delivery is at the top`,
  });
  const sending = redelivery.pending?.id ?? null;
  const error = redelivery.error;
  const redeliver = (d: Delivery) => redelivery.run(d);
  return (
    <div className="delivery-log">
      <div className="delivery-head">
        <h3>Deliveries</h3>
        <Button size="sm" variant="ghost" onClick={() => void log.refetch()} busy={log.isFetching}>
          Refresh
        </Button>
      </div>
      {!hook.enabled && rows.length ? <p className="field-hint">Switch the webhook on to send deliveries again.</p> : null}
      <FormError error={error} />
      {log.isPending ? null : rows.length === 0 ? (
        <p className="muted">Nothing sent yet. The next event in {space.name} of the kinds chosen shows up here.</p>
      ) : (
        <div className="table-scroll" role="region" aria-label="Deliveries" tabIndex={0}>
          <table className="delivery-table">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Answer</th>
                <th scope="col">Time</th>
                <th scope="col">When</th>
                <th scope="col">
                  <span className="visually-hidden">Send again</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id}>
                  <td>
                    <code>{d.eventType}</code>
                  </td>
                  <td>
                    <span className={`status-pill ${PILL[d.status]}`}>{STATUS[d.status]}</span>
                    {d.attempts > 1 ? <span className="muted"> · {d.attempts} attempts</span> : null}
                  </td>
                  <td className="delivery-answer" title={d.lastResponseSnippet ?? undefined}>
                    {d.lastStatusCode ?? (d.lastError ? <span className="delivery-error">{d.lastError}</span> : "—")}
                  </td>
                  <td>{d.lastDurationMs === null ? "—" : `${d.lastDurationMs} ms`}</td>
                  <td>
                    <time title={fullDate(d.createdAt)}>{timeAgo(d.createdAt)}</time>
                  </td>
                  <td className="delivery-action">
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={!hook.enabled}
                      busy={sending === d.id}
                      onClick={() => void redeliver(d)}
                      aria-label={`Redeliver the ${d.eventType} event of ${fullDate(d.createdAt)}`}
                    >
                      Redeliver
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
