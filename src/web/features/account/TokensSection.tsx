/**
 * API tokens: create one (name, read-only, expiry), its value shown once with a copy button;
 * the list with last use; revoke.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, ApiError, data } from "../../api/client";
import { queryClient } from "../../api/query-client";
import type { AnswerOf } from "../../api/types";
import { Loading } from "../../app/Loading";
import { fullDate, timeAgo } from "../../lib/time";
import { Button } from "../../ui/Button";
import { ConfirmDialog } from "../../ui/Dialog";
import { FormError, TextField } from "../../ui/Field";
import { toast } from "../../ui/toast";
import { Card, copyText } from "./SectionsFrame";
import { TOKEN_NAME_MAX } from "../../../shared/limits";

type Token = AnswerOf<"/api/api-tokens", "get">[number];
const KEY = ["account", "tokens"] as const;
const EXPIRIES = [
  ["30", "In 30 days"],
  ["90", "In 90 days"],
  ["365", "In a year"],
  ["", "Never"],
] as const;

export function TokensSection({ canUse }: { canUse: boolean }) {
  const tokens = useQuery({ queryKey: KEY, queryFn: () => data(api.GET("/api/api-tokens")), enabled: canUse });
  const [revoking, setRevoking] = useState<Token | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!canUse) {
    return (
      <Card id="tokens-title" title="API tokens" intro="Your role does not allow API tokens. Ask an administrator if a script of yours needs one." />
    );
  }
  const revoke = async () => {
    if (!revoking) return;
    setBusy(true);
    setError(null);
    try {
      await api.DELETE("/api/api-tokens/{id}", { params: { path: { id: revoking.id } } });
      toast.success(`“${revoking.name}” was revoked`);
      setRevoking(null);
      await queryClient.invalidateQueries({ queryKey: KEY });
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <CreateToken />
      <Card id="token-list-title" title="Your tokens" intro="A script sends one as “Authorization: Bearer <token>” and acts as you, within what you may do.">
        {tokens.isPending ? (
          <Loading />
        ) : tokens.isError ? (
          <p className="form-error" role="alert">The tokens could not be loaded: {tokens.error.message}</p>
        ) : tokens.data.length ? (
          <ul className="pane-list" aria-label="API tokens">
            {tokens.data.map((t) => (
              <li key={t.id}>
                <div className="pane-list-text">
                  <span className="pane-list-name">
                    {t.name}
                    {t.readOnly ? <span className="pane-tag">Read-only</span> : null}
                  </span>
                  <span className="pane-list-meta">
                    <code>{t.prefix}…</code> · {t.lastUsedAt ? <>last used <time dateTime={t.lastUsedAt} title={fullDate(t.lastUsedAt)}>{timeAgo(t.lastUsedAt)}</time> ({t.useCount} {t.useCount === 1 ? "use" : "uses"})</> : "never used"} ·{" "}
                    {t.expiresAt ? <>expires <time dateTime={t.expiresAt}>{fullDate(t.expiresAt)}</time></> : "never expires"}
                  </span>
                </div>
                <Button size="sm" onClick={() => setRevoking(t)} aria-label={`Revoke ${t.name}`}>
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted" style={{ margin: 0 }}>No tokens yet. Create one above for a script or another tool that reads or changes the wiki through its API.</p>
        )}
      </Card>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(o) => {
          if (!o) setRevoking(null);
          setError(null);
        }}
        title={`Revoke “${revoking?.name ?? ""}”?`}
        description="Anything still using this token is refused from now on. This cannot be undone; create a new token if you need one again."
        confirmLabel="Revoke token"
        busy={busy}
        error={error}
        onConfirm={() => void revoke()}
      />
    </>
  );
}

function CreateToken() {
  const [name, setName] = useState("");
  const [readOnly, setReadOnly] = useState(true);
  const [expiry, setExpiry] = useState<string>("90");
  const [error, setError] = useState<{ name?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const create = async () => {
    setBusy(true);
    setError({});
    try {
      const answer = await data(api.POST("/api/api-tokens", { body: { name, readOnly, expiresInDays: expiry ? Number(expiry) : null } }));
      setCreated({ name: answer.name, token: answer.token });
      setName("");
      toast.success(`Token “${answer.name}” created`);
      await queryClient.invalidateQueries({ queryKey: KEY });
    } catch (err) {
      const e = err as ApiError;
      setError(e.field === "name" ? { name: e.message } : { form: e.message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card id="token-new-title" title="Create an API token" intro="Give it a name that says where it is used, so you know what breaks when you revoke it.">
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
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={error.name} placeholder="e.g. Nightly backup script" required maxLength={TOKEN_NAME_MAX} />
        <label className="pane-check">
          <input type="checkbox" checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} /> Read-only (can read but never change anything)
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
        <FormError error={error.form} />
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={busy}>
            Create token
          </Button>
        </div>
      </form>
    </Card>
  );
}
