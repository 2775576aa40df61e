/**
 * Who may view, edit or administer the space: the Everyone group first (with "Make private" in
 * one action), then each person and group granted, then a search to add one. Every change is
 * saved at once and confirmed with a toast.
 */
import { useMemo, useState } from "react";
import type { Space } from "../../api/types";
import { useMe } from "../../app/session";
import { Button } from "../../ui/Button";
import { FormError } from "../../ui/Field";
import { Lock, Globe, X } from "../../ui/icons";
import { useAction } from "../../lib/mutation";
import { OPERATIONS, problemText, useGrantMutation, useGroups, useUsers, type Grant } from "./queries";
import { useReauth } from "../../lib/reauth";

interface Principal {
  type: 0 | 1;
  id: string;
  name: string;
  detail: string;
}

export function AccessSection({ space, grants }: { space: Space; grants: Grant[] }) {
  const groups = useGroups();
  const users = useUsers();
  const me = useMe().data;
  const { guarded, dialog } = useReauth();
  const change = useAction(useGrantMutation(space.key, guarded), { failure: (err) => problemText(err), success: (_answer, c) => c.said });
  const busy = change.pending?.principalId ?? null;
  const error = change.error;
  const everyoneGroup = groups.data?.find((g) => g.builtIn && g.name === "Everyone");
  const everyone = grants.find((g) => g.principalType === 1 && g.principalId === everyoneGroup?.id);
  const others = grants.filter((g) => g !== everyone);
  const grant = (p: { principalType: number; principalId: string }, operation: number, name: string) =>
    change.run({
      principalType: p.principalType,
      principalId: p.principalId,
      operation,
      said: `${name} can ${OPERATIONS[operation]!.toLowerCase()} the space`,
    });
  const revoke = (g: Grant, said: string) => change.run({ principalId: g.principalId, revoke: g.id, said });

  const candidates = useMemo<Principal[]>(() => {
    const granted = new Set(grants.map((g) => `${g.principalType}:${g.principalId}`));
    const people = (users.data ?? []).map((u) => ({ type: 0 as const, id: u.id, name: u.displayName, detail: u.email }));
    const teams = (groups.data ?? [])
      .filter((g) => g.id !== everyoneGroup?.id)
      .map((g) => ({
        type: 1 as const,
        id: g.id,
        name: g.name,
        detail: `Group · ${g.memberCount} member${g.memberCount === 1 ? "" : "s"}`,
      }));
    return [...people, ...teams].filter((p) => !granted.has(`${p.type}:${p.id}`));
  }, [grants, users.data, groups.data, everyoneGroup?.id]);

  return (
    <>
      <section className="settings-card" aria-labelledby="access-everyone">
        <h2 id="access-everyone">Everyone signed in</h2>
        <div className="access-everyone">
          {everyone ? <Globe aria-hidden="true" /> : <Lock aria-hidden="true" />}
          <p>
            {everyone
              ? `Every account of this wiki can ${OPERATIONS[everyone.operation]!.toLowerCase()} ${space.name}.`
              : `${space.name} is private: only the people and groups below can see it.`}
          </p>
        </div>
        {everyoneGroup ? (
          <div className="access-actions">
            <label className="access-op">
              <span className="visually-hidden">What everyone signed in may do</span>
              <select
                className="input"
                value={everyone ? String(everyone.operation) : "none"}
                disabled={busy !== null}
                onChange={(e) =>
                  e.target.value === "none"
                    ? everyone && void revoke(everyone, `${space.name} is private now`)
                    : void grant({ principalType: 1, principalId: everyoneGroup.id }, Number(e.target.value), "Everyone")
                }
              >
                <option value="none">No access</option>
                {OPERATIONS.slice(0, 2).map((op, i) => (
                  <option key={op} value={i}>
                    {op}
                  </option>
                ))}
              </select>
            </label>
            {everyone ? (
              <Button onClick={() => void revoke(everyone, `${space.name} is private now`)} busy={busy === everyone.principalId}>
                <Lock aria-hidden="true" size={16} /> Make private
              </Button>
            ) : null}
          </div>
        ) : null}
        {space.isPublic ? (
          <p className="field-hint">Public reading is on: visitors without an account can still read it (General › Public reading).</p>
        ) : null}
      </section>
      <section className="settings-card" aria-labelledby="access-people">
        <h2 id="access-people">People and groups</h2>
        <p className="muted">View reads pages; Edit also writes them; Admin also changes these settings.</p>
        <AddPrincipal
          candidates={candidates}
          onAdd={(p, op) => void grant({ principalType: p.type, principalId: p.id }, op, p.name)}
          busy={busy !== null}
        />
        <FormError error={error} />
        {others.length === 0 ? (
          <p className="muted">Nobody has been given access by name yet.</p>
        ) : (
          <ul className="access-list">
            {others.map((g) => {
              const name = g.principalName ?? (g.principalType === 0 ? "A deleted account" : "A deleted group");
              return (
                <li key={g.id}>
                  <span className="access-name">
                    <span>
                      {name}
                      {g.principalType === 0 && g.principalId === me?.id ? <span className="muted"> (you)</span> : null}
                    </span>
                    <span className="access-kind muted">{g.principalType === 1 ? "Group" : "Person"}</span>
                  </span>
                  <select
                    className="input access-select"
                    aria-label={`What ${name} may do`}
                    value={g.operation}
                    disabled={busy !== null}
                    onChange={(e) => void grant(g, Number(e.target.value), name)}
                  >
                    {OPERATIONS.map((op, i) => (
                      <option key={op} value={i}>
                        {op}
                      </option>
                    ))}
                  </select>
                  <Button
                    variant="ghost"
                    size="sm"
                    className="btn-icon"
                    aria-label={`Remove ${name}`}
                    title={`Remove ${name}`}
                    onClick={() => void revoke(g, `${name} no longer has access`)}
                    busy={busy === g.principalId}
                  >
                    <X size={16} aria-hidden="true" />
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      {dialog}
    </>
  );
}

function AddPrincipal({
  candidates,
  onAdd,
  busy,
}: {
  candidates: Principal[];
  onAdd(p: Principal, operation: number): void;
  busy: boolean;
}) {
  const [q, setQ] = useState("");
  const [operation, setOperation] = useState(0);
  const hits = q.trim() ? candidates.filter((c) => `${c.name} ${c.detail}`.toLowerCase().includes(q.trim().toLowerCase())).slice(0, 8) : [];
  return (
    <div className="access-add">
      <div className="access-add-row">
        <label className="access-search">
          <span className="visually-hidden">Find a person or group</span>
          <input
            className="input"
            type="search"
            placeholder="Find a person or group to add"
            value={q}
            onChange={(e) => setQ(e.target.value)}
          />
        </label>
        <label>
          <span className="visually-hidden">Access to give</span>
          <select className="input" value={operation} onChange={(e) => setOperation(Number(e.target.value))}>
            {OPERATIONS.map((op, i) => (
              <option key={op} value={i}>
                {op}
              </option>
            ))}
          </select>
        </label>
      </div>
      {q.trim() ? (
        hits.length ? (
          <ul className="access-hits" aria-label="Matches">
            {hits.map((h) => (
              <li key={`${h.type}:${h.id}`}>
                <span className="access-name">
                  {h.name}
                  <span className="access-kind muted">{h.detail}</span>
                </span>
                <Button size="sm" disabled={busy} onClick={() => (onAdd(h, operation), setQ(""))}>
                  Add with {OPERATIONS[operation]}
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">Nobody matches “{q.trim()}”. Try part of a name or an email address.</p>
        )
      ) : null}
    </div>
  );
}
