/**
 * The space's webhooks: listed with their health, created (URL and events; the signing secret
 * is shown once, with a copy button), switched off and on, each with its delivery log (status,
 * answer, time taken, send again), deleted after an in-page confirmation.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useAction } from "../../lib/mutation";
import { api, data } from "../../api/client";
import type { Space } from "../../api/types";
import { Button } from "../../ui/Button";
import { ConfirmDialog } from "../../ui/Dialog";
import { EmptyState } from "../../ui/EmptyState";
import { ChevronDown, ChevronRight, Plus } from "../../ui/icons";
import { CreateWebhookDialog } from "./CreateWebhookDialog";
import { DeliveryLog } from "./DeliveryLog";
import { problemText, settingsKeys, useDeleteWebhookMutation, useWebhookSwitchMutation, type Webhook } from "./queries";

/** Why a webhook is off, and what switching it on does. */
function offHint(h: Webhook): string {
  const byCairn = h.consecutiveFailures >= 20;
  return byCairn
    ? `Switched off by Cairn after ${h.consecutiveFailures} failed attempts in a row. Switch it on ` +
        `again once the receiver answers; events in the meantime were not kept.`
    : "Switched off: nothing is sent, and events in the meantime are not kept. Switch it on to send new events again.";
}

export function WebhooksSection({ space }: { space: Space }) {
  const hooks = useQuery({
    queryKey: settingsKeys.webhooks(space.key),
    queryFn: () => data(api.GET("/api/spaces/{key}/webhooks", { params: { path: { key: space.key } } })),
  });
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const switchHook = useAction(useWebhookSwitchMutation(space.key), {
    failure: (err) => problemText(err),
    success: (_answer, { enabled }) =>
      enabled ? "The webhook is on: new events are sent again" : "The webhook is off: nothing is sent until it is switched on",
  });
  const switching = switchHook.pending?.hook.id ?? null;
  const switchError = switchHook.error && switchHook.failedWith ? { id: switchHook.failedWith.hook.id, text: switchHook.error } : null;
  const setEnabled = (hook: Webhook, enabled: boolean) => switchHook.run({ hook, enabled });
  const deletion = useAction(useDeleteWebhookMutation(space.key), {
    failure: (err) => problemText(err),
    success: "The webhook was deleted",
    done: () => setDeleting(null),
  });
  const remove = () => deleting && deletion.run(deleting);
  const list = hooks.data ?? [];
  return (
    <section className="settings-card" aria-labelledby="webhooks-title">
      <div className="settings-card-head">
        <h2 id="webhooks-title">Webhooks</h2>
        <Button variant="primary" onClick={() => setCreating(true)}>
          <Plus size={16} aria-hidden="true" /> New webhook
        </Button>
      </div>
      <p className="muted">
        Cairn tells another service when something happens in {space.name}: it sends a signed POST to the address you give, and retries when
        it fails.
      </p>
      {hooks.isPending ? null : list.length === 0 ? (
        <EmptyState title="No webhooks yet">
          Add one to post new and changed pages to a chat room, a build or your own service. Each request is signed with the webhook's
          secret so the receiver can check it came from here.
        </EmptyState>
      ) : (
        <ul className="settings-list webhook-list">
          {list.map((h) => (
            <li key={h.id} className="webhook">
              <div className="webhook-row">
                <button
                  type="button"
                  className="webhook-toggle"
                  aria-expanded={open === h.id}
                  onClick={() => setOpen(open === h.id ? null : h.id)}
                >
                  {open === h.id ? <ChevronDown size={16} aria-hidden="true" /> : <ChevronRight size={16} aria-hidden="true" />}
                  <span className="settings-list-text">
                    <span className="settings-list-name webhook-url">{h.url}</span>
                    <span className="muted settings-list-meta">
                      {h.events.includes("*") ? "Every event" : h.events.join(", ")}
                      <span className="visually-hidden">; delivery log</span>
                    </span>
                    <span className={`status-pill ${h.enabled ? (h.consecutiveFailures ? "status-warn" : "status-ok") : "status-off"}`}>
                      {h.enabled ? (h.consecutiveFailures ? `${h.consecutiveFailures} failed in a row` : "Active") : "Switched off"}
                    </span>
                  </span>
                </button>
                <label className="webhook-switch">
                  <input
                    type="checkbox"
                    role="switch"
                    className="switch"
                    checked={h.enabled}
                    disabled={switching === h.id}
                    onChange={(e) => void setEnabled(h, e.target.checked)}
                    aria-label={`Send events to ${h.url}`}
                  />
                  <span aria-hidden="true">{h.enabled ? "On" : "Off"}</span>
                </label>
                <Button
                  size="sm"
                  variant="ghost"
                  className="danger-ghost"
                  onClick={() => (deletion.setError(null), setDeleting(h))}
                  aria-label={`Delete the webhook to ${h.url}`}
                >
                  Delete
                </Button>
              </div>
              {switchError?.id === h.id ? (
                <p className="field-error webhook-off" role="alert">
                  {switchError.text}
                </p>
              ) : null}
              {!h.enabled ? <p className="field-hint webhook-off">{offHint(h)}</p> : null}
              {open === h.id ? <DeliveryLog space={space} hook={h} /> : null}
            </li>
          ))}
        </ul>
      )}
      {creating ? <CreateWebhookDialog space={space} onClose={() => setCreating(false)} /> : null}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete the webhook?"
        description={deleting ? `Nothing more is sent to ${deleting.url}, and its delivery log is deleted.` : ""}
        confirmLabel="Delete the webhook"
        busy={deletion.busy}
        error={deletion.error}
        onConfirm={() => void remove()}
      />
    </section>
  );
}
