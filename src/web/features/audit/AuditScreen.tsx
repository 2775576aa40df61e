/**
 * The audit log (/audit), for those with the right audit.view: the entries newest first, paged
 * with the API's cursor (X-Next-Before); filtered by what they are about (asked of the server),
 * and by who and when (among the entries loaded: the API filters by target only); and "Verify
 * the chain". Loaded lazily, when first opened.
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "../../api/client";
import type { AnswerOf } from "../../api/types";
import { Loading } from "../../app/Loading";
import { useMe } from "../../app/session";
import { fullDate } from "../../lib/time";
import { useTitle } from "../../lib/title";
import { Button } from "../../ui/Button";
import { EmptyState } from "../../ui/EmptyState";
import { TextField } from "../../ui/Field";
import { Card } from "../account/SectionsFrame";
import { VerifyChain } from "./VerifyChain";

type Entry = AnswerOf<"/api/audit", "get">[number];
const TARGETS = ["page", "space", "user", "session", "token", "invite", "group", "setting", "webhook", "comment", "attachment"] as const;
const PAGE_SIZE = 50;

export default function AuditScreen() {
  useTitle("Audit log");
  const me = useMe();
  const allowed = !!me.data?.permissions.includes("audit.view");
  const [target, setTarget] = useState("");
  const [who, setWho] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const log = useInfiniteQuery({
    queryKey: ["audit", target],
    enabled: allowed,
    initialPageParam: undefined as number | undefined,
    queryFn: async ({ pageParam }) => {
      const { data, response } = await api.GET("/api/audit", { params: { query: { take: PAGE_SIZE, ...(target ? { targetType: target } : {}), ...(pageParam ? { before: pageParam } : {}) } } });
      const next = response.headers.get("X-Next-Before");
      return { entries: data ?? [], next: next ? Number(next) : undefined };
    },
    getNextPageParam: (last) => last.next,
  });
  if (!me.data) return null;
  if (!allowed) {
    return (
      <main id="main" className="main-column">
        <EmptyState title="Only those allowed read the audit log">Your role does not include reading the audit log. Ask an administrator if you need to know who changed something.</EmptyState>
      </main>
    );
  }
  const loaded = log.data?.pages.flatMap((p) => p.entries) ?? [];
  const w = who.trim().toLowerCase();
  const shown = loaded.filter(
    (e) => (!w || (e.actorName ?? "cairn").toLowerCase().includes(w) || e.action.includes(w)) && (!from || e.createdAt.slice(0, 10) >= from) && (!to || e.createdAt.slice(0, 10) <= to),
  );
  const filtered = !!(w || from || to);
  return (
    <main id="main" className="main-column full-width panes">
      <h1 className="panes-title">Audit log</h1>
      <div className="panes-body audit-body">
      <VerifyChain />
      <Card id="audit-entries" title="Entries" intro="Everything done on this wiki that matters for security, newest first. Entries about spaces and pages you cannot see are left out.">
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
          <TextField label="Who or what" type="search" value={who} onChange={(e) => setWho(e.target.value)} placeholder="A name or an action" />
          <TextField label="From" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
          <TextField label="To" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </form>
        {log.isPending ? (
          <Loading />
        ) : log.isError ? (
          <p className="form-error" role="alert">The audit log could not be loaded: {log.error.message}</p>
        ) : shown.length ? (
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
          <p className="muted">{filtered || target ? "No entry matches these filters. Clear a filter or load older entries." : "Nothing is logged yet."}</p>
        )}
        <p className="muted audit-count" aria-live="polite">
          {filtered ? `${shown.length} of the ${loaded.length} entries loaded match.` : `${loaded.length} entries loaded.`}
          {log.hasNextPage ? "" : loaded.length ? " That is all of them." : ""}
        </p>
        {log.hasNextPage ? (
          <Button onClick={() => void log.fetchNextPage()} busy={log.isFetchingNextPage}>
            Load older entries
          </Button>
        ) : null}
      </Card>
      </div>
    </main>
  );
}

function Row({ e }: { e: Entry }) {
  const name = typeof e.details.name === "string" ? e.details.name : typeof e.details.title === "string" ? e.details.title : typeof e.details.pageTitle === "string" ? e.details.pageTitle : typeof e.details.email === "string" ? e.details.email : null;
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
