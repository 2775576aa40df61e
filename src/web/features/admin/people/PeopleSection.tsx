/**
 * The admin area's People section (right users.manage): every account with its role, status,
 * two-factor, last use and sign-in failures, and a menu of what can be done to each. The owner's
 * row has no menu (nobody acts on the owner; the owner hands ownership on from someone else's).
 */
import { useMemo, useState } from "react";
import { useMe } from "../../../app/session";
import { fullDate, timeAgo } from "../../../lib/time";
import { AsyncList } from "../../../ui/AsyncList";
import { Avatar, colorFor } from "../../../ui/Avatar";
import { Card } from "../../../ui/SectionsFrame";
import { PersonActionDialog, PersonMenu, type PersonAction } from "./PersonActions";
import { usePeople, type Person } from "./queries";
import "./people.css";

/** Above this many people the list gets a search box. */
const SEARCH_FROM = 8;

const TIER_NAMES = ["Member", "Admin", "Owner"];

/** A time today as "6:01 PM", another day as "Nov 25, 6:01 PM". */
function shortWhen(iso: string): string {
  const d = new Date(iso);
  const today = d.toDateString() === new Date().toDateString();
  return d.toLocaleString(
    undefined,
    today ? { hour: "numeric", minute: "2-digit" } : { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" },
  );
}

export default function PeopleSection() {
  const me = useMe();
  const people = usePeople();
  const [query, setQuery] = useState("");
  const [action, setAction] = useState<PersonAction | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    const all = people.data ?? [];
    return q
      ? all.filter((p) => `${p.displayName} ${p.email} ${p.roleName} ${p.status === 1 ? "suspended" : "active"}`.toLowerCase().includes(q))
      : all;
  }, [people.data, query]);

  if (!me.data) return null;
  const myTier = me.data.role;
  return (
    <Card
      id="people-title"
      title="People"
      intro={
        "Everyone with an account. Open a person's actions to change their role, suspend them, or " +
        "help them back in when they are locked out or forgot their password."
      }
    >
      {notice ? (
        <p className="form-error people-notice" role="alert">
          {notice}
        </p>
      ) : null}
      <AsyncList query={people} what="The people" loadingLabel="Loading people…">
        {(items) => (
          <>
            {items.length > SEARCH_FROM ? (
              <div className="field people-search">
                <label htmlFor="people-search">Find a person</label>
                <input
                  id="people-search"
                  className="input"
                  type="search"
                  value={query}
                  onChange={(e) => setQuery(e.target.value)}
                  placeholder="Name, e-mail, role or status"
                  autoComplete="off"
                />
              </div>
            ) : null}
            {shown.length === 0 ? (
              <p className="muted" role="status">
                Nobody matches “{query.trim()}”. Try part of a name or an e-mail address.
              </p>
            ) : (
              <div className="table-wrap">
                <table className="pane-table people-table">
                  <caption className="visually-hidden">People with an account, {shown.length} shown</caption>
                  <thead>
                    <tr>
                      <th scope="col">Person</th>
                      <th scope="col">Role</th>
                      <th scope="col">Status</th>
                      <th scope="col">Two-factor</th>
                      <th scope="col">Last seen</th>
                      <th scope="col">Sign-in</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {shown.map((p) => (
                      <PersonRow
                        key={p.id}
                        person={p}
                        isMe={p.id === me.data!.id}
                        myTier={myTier}
                        iAmOwner={myTier >= 2}
                        onAction={(kind) => setAction({ kind, person: p })}
                        onNotice={setNotice}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <p id="people-owner-note" className="muted people-owner-note">
              {myTier >= 2
                ? "You are the owner: nobody can change your account here. To hand ownership to someone, " +
                  "choose Make owner in their actions; you then become an Administrator."
                : "Nobody can change the owner's account here; only the owner can hand ownership on."}
            </p>
          </>
        )}
      </AsyncList>
      <PersonActionDialog action={action} onClose={() => setAction(null)} myPermissions={me.data.permissions} myTier={myTier} />
    </Card>
  );
}

function PersonRow({
  person: p,
  isMe,
  myTier,
  iAmOwner,
  onAction,
  onNotice,
}: {
  person: Person;
  isMe: boolean;
  myTier: number;
  iAmOwner: boolean;
  onAction(kind: PersonAction["kind"]): void;
  onNotice(n: string | null): void;
}) {
  const locked = p.lockedUntil !== null;
  return (
    <tr className={p.status === 1 ? "people-suspended" : undefined}>
      <td data-label="Person">
        <div className="people-person">
          <Avatar name={p.displayName} color={colorFor(p.id)} size={32} />
          <div className="people-who">
            <span className="people-name">
              {p.displayName}
              {isMe ? <span className="pane-tag">You</span> : null}
            </span>
            <span className="people-email">{p.email}</span>
          </div>
        </div>
      </td>
      <td data-label="Role">
        {p.roleName}
        {p.roleName !== ["User", "Administrator", "Owner"][p.role] ? <span className="people-sub">{TIER_NAMES[p.role]} tier</span> : null}
      </td>
      <td data-label="Status">{p.status === 1 ? <span className="pane-bad">Suspended</span> : "Active"}</td>
      <td data-label="Two-factor">{p.twoFactorEnabled ? <span className="pane-ok">On</span> : "Off"}</td>
      <td data-label="Last seen" className="nowrap">
        {p.lastSeenAt ? (
          <time dateTime={p.lastSeenAt} title={fullDate(p.lastSeenAt)}>
            {timeAgo(p.lastSeenAt)}
          </time>
        ) : (
          <span className="muted">Not yet</span>
        )}
      </td>
      <td data-label="Sign-in" className="people-signin">
        {locked ? (
          <span className="pane-bad">
            Locked until{" "}
            <time dateTime={p.lockedUntil!} title={fullDate(p.lockedUntil!)}>
              {shortWhen(p.lockedUntil!)}
            </time>
            {p.lockScope === "address" ? <span className="people-sub">from some addresses</span> : null}
          </span>
        ) : p.failedSignIns > 0 ? (
          `${p.failedSignIns} wrong password${p.failedSignIns === 1 ? "" : "s"}`
        ) : (
          <span className="muted">No failures</span>
        )}
      </td>
      <td className="people-actions">
        {p.isOwner ? (
          <span className="muted people-why" aria-describedby="people-owner-note">
            No actions: owner
          </span>
        ) : p.role > myTier ? (
          <span className="muted people-why">Above your role's tier</span>
        ) : (
          <PersonMenu person={p} isMe={isMe} iAmOwner={iAmOwner} onAction={onAction} onNotice={onNotice} />
        )}
      </td>
    </tr>
  );
}
