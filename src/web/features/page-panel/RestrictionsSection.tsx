/**
 * Who may view and who may edit this page, in plain words, then the restrictions themselves:
 * those set here (removable) and those inherited from parent pages (removed there). Adding one
 * names a person or group found by search.
 */
import { useMemo, useState } from "react";
import type { Page, Space } from "../../api/types";
import { Button } from "../../ui/Button";
import { EmptyState } from "../../ui/EmptyState";
import { FormError } from "../../ui/Field";
import { useAction } from "../../lib/mutation";
import { useGroups, useRestrictionMutation, useRestrictions, useUsers, type Restriction } from "./queries";

const OPS = ["view", "edit"] as const;

/** "Ana", "Ana and the Editors group", "Ana, Bo and the Editors group". */
export function namesOf(list: Restriction[]): string {
  const names = list.map((r) =>
    r.principalType === 1 ? `the ${r.principalName ?? "deleted"} group` : (r.principalName ?? "a deleted account"),
  );
  const unique = [...new Set(names)];
  return unique.length <= 1 ? (unique[0] ?? "") : `${unique.slice(0, -1).join(", ")} and ${unique.at(-1)}`;
}

export function summary(all: Restriction[], op: 0 | 1, spaceName: string): string {
  const verb = op === 0 ? "see" : "edit";
  const mine = all.filter((r) => r.operation === op && !r.inherited);
  const inherited = all.filter((r) => r.operation === op && r.inherited);
  if (!mine.length && !inherited.length)
    return op === 0
      ? `Everyone who can see the space ${spaceName} can see this page.`
      : `Everyone who can edit in ${spaceName} can edit this page.`;
  const parts = [];
  if (mine.length) parts.push(`Only ${namesOf(mine)} can ${verb} this page.`);
  if (inherited.length)
    parts.push(`${mine.length ? "A parent page also limits it" : "A parent page limits it"}: only ${namesOf(inherited)} can ${verb} it.`);
  return `${parts.join(" ")} Space administrators always can.`;
}

export function RestrictionsSection({ page, space }: { page: Page; space: Space }) {
  const list = useRestrictions(page.id);
  const users = useUsers();
  const groups = useGroups();
  const [query, setQuery] = useState("");
  const [op, setOp] = useState<0 | 1>(0);
  const change = useAction(useRestrictionMutation(page), {
    success: (_answer, c) => c.said,
    done: (_answer, c) => "operation" in c && setQuery(""),
  });
  const error = change.error;
  const candidates = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return [];
    const people = (users.data ?? []).map((u) => ({ type: 0 as const, id: u.id, name: u.displayName, detail: u.email }));
    const teams = (groups.data ?? []).map((g) => ({
      type: 1 as const,
      id: g.id,
      name: g.name,
      detail: `Group · ${g.memberCount} member${g.memberCount === 1 ? "" : "s"}`,
    }));
    return [...people, ...teams].filter((c) => c.name.toLowerCase().includes(q) || c.detail.toLowerCase().includes(q)).slice(0, 8);
  }, [query, users.data, groups.data]);
  const add = (c: { type: 0 | 1; id: string; name: string }) =>
    change.run({ principalType: c.type, principalId: c.id, operation: op, said: `${c.name} can ${OPS[op]} this page` });
  const remove = (r: Restriction) => change.run({ remove: r.id, said: "Restriction removed" });
  if (list.isPending) return <p className="muted">Loading restrictions…</p>;
  if (list.error) return <FormError error={list.error.message} />;
  const all = list.data;
  return (
    <div className="restrictions">
      <div className="restriction-summary" aria-live="polite">
        <p>{summary(all, 0, space.name)}</p>
        <p>{summary(all, 1, space.name)}</p>
      </div>
      {page.canEdit ? (
        <fieldset className="restriction-add">
          <legend>Add a restriction</legend>
          <div className="segmented" role="radiogroup" aria-label="What to restrict">
            {OPS.map((name, i) => (
              <label key={name}>
                <input type="radio" name="restrict-op" checked={op === i} onChange={() => setOp(i as 0 | 1)} /> Who can {name}
              </label>
            ))}
          </div>
          <label className="field-label" htmlFor="restrict-who">
            Person or group
          </label>
          <input
            id="restrict-who"
            className="input"
            type="search"
            placeholder="Search by name or email"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            autoComplete="off"
          />
          {query.trim() ? (
            candidates.length ? (
              <ul className="candidate-list" aria-label="Matches">
                {candidates.map((c) => (
                  <li key={`${c.type}-${c.id}`}>
                    <span>
                      {c.name} <span className="muted small">{c.detail}</span>
                    </span>
                    <Button size="sm" variant="secondary" onClick={() => void add(c)} aria-label={`Only ${c.name}: ${OPS[op]}`}>
                      Add
                    </Button>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted small">No person or group matches “{query}”.</p>
            )
          ) : (
            <p className="muted small">
              Naming someone here means only the people named can {OPS[op]} this page and the pages below it. Name yourself too, or you lose
              it.
            </p>
          )}
          <FormError error={error} />
        </fieldset>
      ) : null}
      {all.length === 0 ? (
        <EmptyState title="No restrictions">
          This page follows its space's permissions.{page.canEdit ? " Add a person or group above to limit who can see or edit it." : ""}
        </EmptyState>
      ) : (
        <ul className="restriction-list" aria-label="Restrictions">
          {all.map((r) => (
            <li key={r.id}>
              <span>
                {r.principalName ?? (r.principalType === 1 ? "Deleted group" : "Deleted account")}{" "}
                <span className="muted small">
                  {r.principalType === 1 ? "group" : "person"} · can {OPS[r.operation as 0 | 1]}
                  {r.inherited ? " · from a parent page" : ""}
                </span>
              </span>
              {!r.inherited && page.canEdit ? (
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => void remove(r)}
                  aria-label={`Remove ${r.principalName ?? "this"} (${OPS[r.operation as 0 | 1]})`}
                >
                  Remove
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
