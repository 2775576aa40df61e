/** Address blocks: add one (CIDR, reason, expiry) with the caller's own address in view, list them, remove one. */
import { useState } from "react";
import { api, ApiError, data } from "../../../api/client";
import { Loading } from "../../../app/Loading";
import { fullDate } from "../../../lib/time";
import { Button } from "../../../ui/Button";
import { ConfirmDialog } from "../../../ui/Dialog";
import { FormError, TextField } from "../../../ui/Field";
import { toast } from "../../../ui/toast";
import { Card } from "../../account/SectionsFrame";
import { When } from "./parts";
import { refreshSecurity, useBlocks, type Block } from "./queries";
import { BLOCK_CIDR_MAX, BLOCK_REASON_MAX } from "../../../../shared/limits";

const EXPIRY = [
  { hours: 0, label: "Until removed" },
  { hours: 1, label: "1 hour" },
  { hours: 24, label: "1 day" },
  { hours: 24 * 7, label: "1 week" },
  { hours: 24 * 30, label: "30 days" },
];

export function BlocksCard() {
  const blocks = useBlocks();
  const [removing, setRemoving] = useState<Block | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    if (!removing) return;
    setBusy(true);
    setError(null);
    try {
      await api.DELETE("/api/admin/security/blocks/{id}", { params: { path: { id: removing.id } } });
      toast.success(`${removing.cidr} is no longer blocked`);
      setRemoving(null);
      await refreshSecurity();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card id="security-blocks" title="Blocked addresses" intro="Requests from a blocked address or range are refused before anything else, sign-in and public pages included.">
      {blocks.data ? (
        <p className="sec-you">
          Your address, as this server sees it: <code>{blocks.data.yourAddress}</code>. A block that covers it is refused, so you cannot lock yourself out.
        </p>
      ) : null}
      <NewBlock />
      {blocks.isPending ? (
        <Loading />
      ) : blocks.isError ? (
        <p className="form-error" role="alert">The blocks could not be loaded: {blocks.error.message}</p>
      ) : blocks.data.blocks.length ? (
        <ul className="pane-list" aria-label="Blocked addresses">
          {blocks.data.blocks.map((b) => (
            <li key={b.id}>
              <div className="pane-list-text">
                <span className="pane-list-name">
                  <code>{b.cidr}</code>
                  {b.active ? null : <span className="sec-badge sec-status" style={{ marginLeft: "var(--space-2)" }}>Expired</span>}
                </span>
                <span>{b.reason}</span>
                <span className="pane-list-meta">
                  added <When at={b.createdAt} />
                  {b.createdByName ? ` by ${b.createdByName}` : ""} · {b.expiresAt ? <>{b.active ? "ends" : "ended"} <time dateTime={b.expiresAt}>{fullDate(b.expiresAt)}</time></> : "until removed"}
                </span>
              </div>
              <Button size="sm" onClick={() => setRemoving(b)} aria-label={`Remove the block on ${b.cidr}`}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted" style={{ margin: "var(--space-3) 0 0" }}>No address is blocked. Block one when the alerts or events show an address that keeps trying passwords.</p>
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(o) => {
          if (!o) setRemoving(null);
          setError(null);
        }}
        title="Remove this block?"
        description={`Requests from ${removing?.cidr ?? ""} are served again at once${removing ? ` (it was blocked for: ${removing.reason})` : ""}.`}
        confirmLabel="Remove block"
        busy={busy}
        error={error}
        onConfirm={() => void remove()}
      />
    </Card>
  );
}

function NewBlock() {
  const [cidr, setCidr] = useState("");
  const [reason, setReason] = useState("");
  const [hours, setHours] = useState(0);
  const [errors, setErrors] = useState<{ cidr?: string; reason?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const add = async () => {
    setBusy(true);
    setErrors({});
    try {
      const block = await data(api.POST("/api/admin/security/blocks", { body: { cidr: cidr.trim(), reason: reason.trim(), ...(hours ? { expiresInHours: hours } : {}) } }));
      toast.success(`${block.cidr} is blocked`);
      setCidr("");
      setReason("");
      setHours(0);
      await refreshSecurity();
    } catch (err) {
      const e = err as ApiError;
      // The server names the field; its sentence says what is wrong (a refusal to block your own address included).
      const message = e.field && e.message.startsWith(`${e.field}: `) ? e.message.slice(e.field.length + 2) : e.message;
      setErrors(e.field === "cidr" ? { cidr: message } : e.field === "reason" ? { reason: message } : { form: message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      aria-label="Block an address"
      onSubmit={(e) => {
        e.preventDefault();
        void add();
      }}
    >
      <div className="sec-form-row">
        <TextField label="Address or range" hint="203.0.113.7, 203.0.113.0/24 or 2001:db8::/48" value={cidr} onChange={(e) => setCidr(e.target.value)} error={errors.cidr} required maxLength={BLOCK_CIDR_MAX} autoComplete="off" spellCheck={false} />
        <TextField label="Reason" hint="Shown to the other administrators" value={reason} onChange={(e) => setReason(e.target.value)} error={errors.reason} required maxLength={BLOCK_REASON_MAX} />
        <div className="field">
          <label htmlFor="sec-block-expiry">Ends</label>
          <select id="sec-block-expiry" className="input sec-select" value={hours} onChange={(e) => setHours(Number(e.target.value))}>
            {EXPIRY.map((x) => (
              <option key={x.hours} value={x.hours}>
                {x.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <FormError error={errors.form} />
      <div className="sec-form-actions">
        <Button type="submit" variant="primary" busy={busy}>
          Block
        </Button>
      </div>
    </form>
  );
}
