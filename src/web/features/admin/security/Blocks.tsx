/** Address blocks: add one (CIDR, reason, expiry) with the caller's own address in view, list them, remove one. */
import { useState } from "react";
import { ApiError } from "../../../api/client";
import { fullDate } from "../../../lib/time";
import { AsyncList } from "../../../ui/AsyncList";
import { Button } from "../../../ui/Button";
import { ConfirmDialog } from "../../../ui/Dialog";
import { FormError, TextField } from "../../../ui/Field";
import { Card } from "../../../ui/SectionsFrame";
import { useAction } from "../../../lib/mutation";
import { When } from "./parts";
import { useAddBlockMutation, useBlocks, useRemoveBlockMutation, type Block } from "./queries";
import { BLOCK_CIDR_MAX, BLOCK_REASON_MAX } from "../../../../common/limits";

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
  const removal = useAction(useRemoveBlockMutation(), {
    success: (_answer, block) => `${block.cidr} is no longer blocked`,
    done: () => setRemoving(null),
  });
  const { busy, error, setError } = removal;
  const remove = () => removing && removal.run(removing);
  return (
    <Card
      id="security-blocks"
      title="Blocked addresses"
      intro="Requests from a blocked address or range are refused before anything else, sign-in and public pages included."
    >
      {blocks.data ? (
        <p className="sec-you">
          Your address, as this server sees it: <code>{blocks.data.yourAddress}</code>. A block that covers it is refused, so you cannot
          lock yourself out.
        </p>
      ) : null}
      <NewBlock />
      <AsyncList query={blocks} what="The blocks">
        {(answer) =>
          answer.blocks.length ? (
            <ul className="pane-list" aria-label="Blocked addresses">
              {answer.blocks.map((b) => (
                <li key={b.id}>
                  <div className="pane-list-text">
                    <span className="pane-list-name">
                      <code>{b.cidr}</code>
                      {b.active ? null : (
                        <span className="sec-badge sec-status" style={{ marginLeft: "var(--space-2)" }}>
                          Expired
                        </span>
                      )}
                    </span>
                    <span>{b.reason}</span>
                    <span className="pane-list-meta">
                      added <When at={b.createdAt} />
                      {b.createdByName ? ` by ${b.createdByName}` : ""} ·{" "}
                      {b.expiresAt ? (
                        <>
                          {b.active ? "ends" : "ended"} <time dateTime={b.expiresAt}>{fullDate(b.expiresAt)}</time>
                        </>
                      ) : (
                        "until removed"
                      )}
                    </span>
                  </div>
                  <Button size="sm" onClick={() => setRemoving(b)} aria-label={`Remove the block on ${b.cidr}`}>
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted" style={{ margin: "var(--space-3) 0 0" }}>
              No address is blocked. Block one when the alerts or events show an address that keeps trying passwords.
            </p>
          )
        }
      </AsyncList>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(o) => {
          if (!o) setRemoving(null);
          setError(null);
        }}
        title="Remove this block?"
        description={
          `Requests from ${removing?.cidr ?? ""} are served again at ` +
          `once${removing ? ` (it was blocked for: ${removing.reason})` : ""}.`
        }
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
  const adding = useAction(useAddBlockMutation(), {
    // The server names the field; its sentence says what is wrong (a refusal to block your own address included).
    failure: (err) =>
      err instanceof ApiError && err.field && err.message.startsWith(`${err.field}: `)
        ? err.message.slice(err.field.length + 2)
        : (err as Error).message,
    fieldOf: (err) => (err.field === "cidr" || err.field === "reason" ? err.field : undefined),
    success: (block) => `${block.cidr} is blocked`,
    done: () => {
      setCidr("");
      setReason("");
      setHours(0);
    },
  });
  const busy = adding.busy;
  const errors = { cidr: adding.fieldError("cidr"), reason: adding.fieldError("reason"), form: adding.formError };
  const add = () => adding.run({ cidr: cidr.trim(), reason: reason.trim(), ...(hours ? { expiresInHours: hours } : {}) });
  return (
    <form
      aria-label="Block an address"
      onSubmit={(e) => {
        e.preventDefault();
        void add();
      }}
    >
      <div className="sec-form-row">
        <TextField
          label="Address or range"
          hint="203.0.113.7, 203.0.113.0/24 or 2001:db8::/48"
          value={cidr}
          onChange={(e) => setCidr(e.target.value)}
          error={errors.cidr}
          required
          maxLength={BLOCK_CIDR_MAX}
          autoComplete="off"
          spellCheck={false}
        />
        <TextField
          label="Reason"
          hint="Shown to the other administrators"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          error={errors.reason}
          required
          maxLength={BLOCK_REASON_MAX}
        />
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
