/** A new webhook: its address and events; then its signing secret, shown this once. */
import { useState, type FormEvent } from "react";
import type { Space } from "../../api/types";
import { Button } from "../../ui/Button";
import { Dialog, DialogActions } from "../../ui/Dialog";
import { FormError, TextField } from "../../ui/Field";
import { Copy } from "../../ui/icons";
import { toast } from "../../ui/toast";
import { useAction } from "../../lib/mutation";
import { problemText, useCreateWebhookMutation, useWebhookEvents } from "./queries";

export function CreateWebhookDialog({ space, onClose }: { space: Space; onClose(): void }) {
  const [url, setUrl] = useState("");
  const [all, setAll] = useState(true);
  const [events, setEvents] = useState<Set<string>>(new Set(["page.created", "page.updated"]));
  const [secret, setSecret] = useState<string | null>(null);
  const catalogue = useWebhookEvents();
  const creation = useAction(useCreateWebhookMutation(space.key), {
    failure: (err) => problemText(err),
    success: "The webhook was added",
    done: (hook) => setSecret(hook.secret),
  });
  const create = (e: FormEvent) => {
    e.preventDefault();
    if (!/^https?:\/\/\S+$/i.test(url.trim()))
      return creation.setError("Give the full address, starting with https:// (or http://).", "url");
    if (!all && events.size === 0) return creation.setError("Pick at least one event, or send every event.", "events");
    void creation.run({ url: url.trim(), events: all ? ["*"] : [...events] });
  };
  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
      toast.success("Secret copied");
    } catch {
      toast.error("Could not copy: select the secret and copy it by hand.");
    }
  };
  if (secret) {
    return (
      <Dialog
        open
        onOpenChange={(o) => !o && onClose()}
        title="Keep the signing secret"
        description={
          "It is shown only now. The receiver uses it to check that each request " + "came from this wiki (Standard Webhooks signatures)."
        }
      >
        <div className="secret-row">
          <input className="input secret" readOnly value={secret} aria-label="Signing secret" onFocus={(e) => e.target.select()} />
          <Button onClick={() => void copy()}>
            <Copy size={16} aria-hidden="true" /> Copy
          </Button>
        </div>
        <DialogActions>
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        </DialogActions>
      </Dialog>
    );
  }
  const toggle = (id: string, on: boolean) => setEvents((s) => (on ? new Set([...s, id]) : new Set([...s].filter((x) => x !== id))));
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title="New webhook"
      description={`Cairn will POST a JSON event to this address when something happens in ${space.name}.`}
      wide
    >
      <form onSubmit={create}>
        <TextField
          label="Address (URL)"
          type="url"
          inputMode="url"
          placeholder="https://example.com/hooks/cairn"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          autoFocus
          error={creation.fieldError("url")}
        />
        <fieldset className="settings-fieldset">
          <legend>Events</legend>
          <label className="check">
            <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> Every event, including kinds added later
          </label>
          {!all ? (
            catalogue.isError ? (
              <p className="field-error" role="alert">
                The list of events could not be loaded. Send every event, or close this and try again.
              </p>
            ) : (
              <div className="event-grid" aria-busy={catalogue.isPending || undefined}>
                {(catalogue.data ?? []).map(({ type, description }) => (
                  <label key={type} className="check">
                    <input type="checkbox" checked={events.has(type)} onChange={(e) => toggle(type, e.target.checked)} />
                    <span>
                      {description} <code>{type}</code>
                    </span>
                  </label>
                ))}
              </div>
            )
          ) : null}
          {creation.fieldError("events") ? (
            <p className="field-error" role="alert">
              {creation.fieldError("events")}
            </p>
          ) : null}
        </fieldset>
        <FormError error={creation.fieldError("url") || creation.fieldError("events") ? null : creation.error} />
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={creation.busy}>
            Add the webhook
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
