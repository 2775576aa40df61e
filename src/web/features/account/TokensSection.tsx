/**
 * API tokens: create one (name, read-only, expiry), its value shown once with a copy button;
 * the list with last use; revoke.
 */
import { useState } from "react";
import { fullDate, timeAgo } from "../../lib/time";
import { AsyncList } from "../../ui/AsyncList";
import { Button } from "../../ui/Button";
import { ConfirmDialog } from "../../ui/Dialog";
import { FormError, TextField } from "../../ui/Field";
import { Card } from "../../ui/SectionsFrame";
import { copyText } from "../../lib/clipboard";
import { useAction } from "../../lib/mutation";
import { useCreateTokenMutation, useRevokeTokenMutation, useTokens, type Token } from "./queries";
import { TOKEN_NAME_MAX } from "../../../common/limits";

const EXPIRIES = [
  ["30", "In 30 days"],
  ["90", "In 90 days"],
  ["365", "In a year"],
  ["", "Never"],
] as const;

export function TokensSection({ canUse }: { canUse: boolean }) {
  const tokens = useTokens(canUse);
  const [revoking, setRevoking] = useState<Token | null>(null);
  const revocation = useAction(useRevokeTokenMutation(), {
    success: (_answer, token) => `“${token.name}” was revoked`,
    done: () => setRevoking(null),
  });
  if (!canUse) {
    return (
      <Card
        id="tokens-title"
        title="API tokens"
        intro="Your role does not allow API tokens. Ask an administrator if a script of yours needs one."
      />
    );
  }
  const revoke = () => revoking && revocation.run(revoking);
  return (
    <>
      <CreateToken />
      <Card
        id="token-list-title"
        title="Your tokens"
        intro="A script sends one as “Authorization: Bearer <token>” and acts as you, within what you may do."
      >
        <AsyncList
          query={tokens}
          what="The tokens"
          empty={
            <p className="muted" style={{ margin: 0 }}>
              No tokens yet. Create one above for a script or another tool that reads or changes the wiki through its API.
            </p>
          }
        >
          {(items) => (
            <ul className="pane-list" aria-label="API tokens">
              {items.map((t) => (
                <li key={t.id}>
                  <div className="pane-list-text">
                    <span className="pane-list-name">
                      {t.name}
                      {t.readOnly ? <span className="pane-tag">Read-only</span> : null}
                    </span>
                    <span className="pane-list-meta">
                      <code>{t.prefix}…</code> ·{" "}
                      {t.lastUsedAt ? (
                        <>
                          last used{" "}
                          <time dateTime={t.lastUsedAt} title={fullDate(t.lastUsedAt)}>
                            {timeAgo(t.lastUsedAt)}
                          </time>{" "}
                          ({t.useCount} {t.useCount === 1 ? "use" : "uses"})
                        </>
                      ) : (
                        "never used"
                      )}{" "}
                      ·{" "}
                      {t.expiresAt ? (
                        <>
                          expires <time dateTime={t.expiresAt}>{fullDate(t.expiresAt)}</time>
                        </>
                      ) : (
                        "never expires"
                      )}
                    </span>
                  </div>
                  <Button size="sm" onClick={() => setRevoking(t)} aria-label={`Revoke ${t.name}`}>
                    Revoke
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </AsyncList>
      </Card>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(o) => {
          if (!o) setRevoking(null);
          revocation.setError(null);
        }}
        title={`Revoke “${revoking?.name ?? ""}”?`}
        description={
          "Anything still using this token is refused from now on. This cannot be " + "undone; create a new token if you need one again."
        }
        confirmLabel="Revoke token"
        busy={revocation.busy}
        error={revocation.error}
        onConfirm={() => void revoke()}
      />
    </>
  );
}

function CreateToken() {
  const [name, setName] = useState("");
  const [readOnly, setReadOnly] = useState(true);
  const [expiry, setExpiry] = useState<string>("90");
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const creation = useAction(useCreateTokenMutation(), {
    success: (answer) => `Token “${answer.name}” created`,
    done: (answer) => {
      setCreated({ name: answer.name, token: answer.token });
      setName("");
    },
  });
  const create = () => creation.run({ name, readOnly, expiresInDays: expiry ? Number(expiry) : null });
  return (
    <Card
      id="token-new-title"
      title="Create an API token"
      intro="Give it a name that says where it is used, so you know what breaks when you revoke it."
    >
      {created ? (
        <div className="pane-secret" role="status">
          <p>
            <strong>Copy the value of “{created.name}” now:</strong> it is shown only this once.
          </p>
          <code aria-label="Token value">{created.token}</code>
          <Button size="sm" variant="primary" onClick={() => void copyText(created.token, "Token")}>
            Copy
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setCreated(null)}>
            Done
          </Button>
        </div>
      ) : null}
      <form
        className="pane-form"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={creation.fieldError("name")}
          placeholder="e.g. Nightly backup script"
          required
          maxLength={TOKEN_NAME_MAX}
        />
        <label className="pane-check">
          <input type="checkbox" checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} /> Read-only (can read but never change
          anything)
        </label>
        <div className="field">
          <label htmlFor="token-expiry">Expires</label>
          <select id="token-expiry" className="input pane-select" value={expiry} onChange={(e) => setExpiry(e.target.value)}>
            {EXPIRIES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <FormError error={creation.formError} />
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={creation.busy}>
            Create token
          </Button>
        </div>
      </form>
    </Card>
  );
}
