/**
 * The audit log (the admin area's section /admin/audit), for those with the right audit.view: the entries newest first, paged
 * with the API's cursor (X-Next-Before); filtered by the server by what they are about, who did
 * it, which action and when, so a filter reaches entries of any age; and "Verify the chain".
 * Loaded lazily, when first opened.
 */
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import type { AnswerOf } from "../../api/types";
import { useMe } from "../../app/session";
import { fullDate } from "../../lib/time";
import { AsyncList } from "../../ui/AsyncList";
import { Button } from "../../ui/Button";
import { EmptyState } from "../../ui/EmptyState";
import { TextField } from "../../ui/Field";
import { Card } from "../../ui/SectionsFrame";
import { AUDIT_ACTIONS } from "./actions";
import { VerifyChain } from "./VerifyChain";

type Entry = AnswerOf<"/api/audit", "get">[number];
const TARGETS = ["page", "space", "user", "session", "token", "invite", "group", "setting", "webhook", "comment", "attachment"] as const;
const PAGE_SIZE = 50;

/** A date picked in the browser, as the instant its local day starts or ends (the API takes instants). */
const dayEdge = (date: string, edge: "start" | "end") =>
  new Date(`${date}T${edge === "start" ? "00:00:00.000" : "23:59:59.999"}`).toISOString();

export function AuditSection() {
  const me = useMe();
  const allowed = !!me.data?.permissions.includes("audit.view");
  const [target, setTarget] = useState("");
  const [who, setWho] = useState("");
  const [action, setAction] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const people = useQuery({ queryKey: keys.users, queryFn: () => data(api.GET("/api/users")), staleTime: 60_000, enabled: allowed });
  const filters = {
    ...(target ? { targetType: target } : {}),
    ...(who ? { actorId: who } : {}),
    ...(action ? { action } : {}),
    ...(from ? { from: dayEdge(from, "start") } : {}),
    ...(to ? { to: dayEdge(to, "end") } : {}),
  };
  const log = useInfiniteQuery({
    queryKey: ["audit", filters],
    enabled: allowed,
    initialPageParam: undefined as number | undefined,
    queryFn: async ({ pageParam }) => {
      const { data, error, response } = await api.GET("/api/audit", {
        params: { query: { take: PAGE_SIZE, ...filters, ...(pageParam ? { before: pageParam } : {}) } },
      });
      if (error) throw new Error((error as { detail?: string }).detail ?? `HTTP ${response.status}`);
      const next = response.headers.get("X-Next-Before");
      return { entries: data ?? [], next: next ? Number(next) : undefined };
    },
    getNextPageParam: (last) => last.next,
  });
  if (!me.data) return null;
  if (!allowed) {
    return (
      <EmptyState title="Only those allowed read the audit log">
        Your role does not include reading the audit log. Ask an administrator if you need to know who changed something.
      </EmptyState>
    );
  }
  const shown = log.data?.pages.flatMap((p) => p.entries) ?? [];
  const filtered = Object.keys(filters).length > 0;
  const users = [...(people.data ?? [])].sort((a, b) => a.displayName.localeCompare(b.displayName));
  return (
    <div className="audit-body panes-body">
      <VerifyChain />
      <Card
        id="audit-entries"
        title="Entries"
        intro={
          "Everything done on this wiki that matters for security, newest first. " +
          "Entries about spaces and pages you cannot see are left out."
        }
      >
        <form className="pane-row audit-filters" role="search" aria-label="Filter the entries" onSubmit={(e) => e.preventDefault()}>
          <div className="field">
            <label htmlFor="audit-target">About</label>
            <select id="audit-target" className="input" value={target} onChange={(e) => setTarget(e.target.value)}>
              <option value="">Anything</option>
              {TARGETS.map((t) => (
                <option key={t} value={t}>
                  {t[0]!.toUpperCase() + t.slice(1)}s
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="audit-who">Who</label>
            <select id="audit-who" className="input" value={who} onChange={(e) => setWho(e.target.value)}>
              <option value="">Anyone</option>
              {users.map((u) => (
                <option key={u.id} value={u.id}>
                  {u.displayName}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="audit-action">What</label>
            <select id="audit-action" className="input" value={action} onChange={(e) => setAction(e.target.value)}>
              <option value="">Any action</option>
              {Object.entries(AUDIT_ACTIONS).map(([kind, actions]) => (
                <optgroup key={kind} label={kind[0]!.toUpperCase() + kind.slice(1)}>
                  <option value={`${kind}.`}>All {kind} actions</option>
                  {actions.map((a) => (
                    <option key={a} value={a}>
                      {a}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </div>
          <TextField label="From" type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} />
          <TextField label="To" type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} />
        </form>
        <AsyncList query={log} what="The audit log">
          {() =>
            shown.length ? (
              <div className="table-wrap" tabIndex={0} role="region" aria-label="Audit entries">
                <table className="pane-table">
                  <thead>
                    <tr>
                      <th scope="col">#</th>
                      <th scope="col">When</th>
                      <th scope="col">Who</th>
                      <th scope="col">What</th>
                      <th scope="col">About</th>
                      <th scope="col">From</th>
                    </tr>
                  </thead>
                  <tbody>
                    {shown.map((e) => (
                      <Row key={e.id} e={e} />
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <p className="muted">{filtered ? "No entry matches these filters." : "Nothing is logged yet."}</p>
            )
          }
        </AsyncList>
        <p className="muted audit-count" aria-live="polite">
          {shown.length ? `${shown.length} ${filtered ? "matching " : ""}${shown.length === 1 ? "entry" : "entries"} shown.` : ""}
          {log.hasNextPage ? "" : shown.length ? " That is all of them." : ""}
        </p>
        {log.hasNextPage ? (
          <Button onClick={() => void log.fetchNextPage()} busy={log.isFetchingNextPage}>
            Load older entries
          </Button>
        ) : null}
      </Card>
    </div>
  );
}

function Row({ e }: { e: Entry }) {
  const name =
    typeof e.details.name === "string"
      ? e.details.name
      : typeof e.details.title === "string"
        ? e.details.title
        : typeof e.details.pageTitle === "string"
          ? e.details.pageTitle
          : typeof e.details.email === "string"
            ? e.details.email
            : null;
  return (
    <tr>
      <td className="nowrap">{e.sequence}</td>
      <td className="nowrap">
        <time dateTime={e.createdAt}>{fullDate(e.createdAt)}</time>
      </td>
      <td>{e.actorName ?? "Cairn"}</td>
      <td>
        <code>{e.action}</code>
      </td>
      <td>
        {e.targetType}
        {name ? `: ${name}` : ""}
      </td>
      <td className="nowrap">{e.ip ?? "—"}</td>
    </tr>
  );
}
