/** Everyone with an active account. */
import { useState } from "react";
import { Link } from "wouter";
import { Loading } from "../../app/Loading";
import { TextField } from "../../ui/Field";
import { Card } from "../account/SectionsFrame";
import { useDirectory } from "./queries";

export function PeopleList({ canInvite }: { canInvite: boolean }) {
  const people = useDirectory();
  const [filter, setFilter] = useState("");
  const f = filter.trim().toLowerCase();
  const shown = (people.data ?? []).filter((p) => !f || p.displayName.toLowerCase().includes(f) || p.email.toLowerCase().includes(f));
  return (
    <Card
      id="people-title"
      title={`People${people.data ? ` (${people.data.length})` : ""}`}
      intro="Everyone with an active account on this wiki."
      action={
        canInvite ? (
          <Link className="btn btn-primary btn-sm" href="/people/invites">
            Invite someone
          </Link>
        ) : null
      }
    >
      {people.isPending ? (
        <Loading />
      ) : people.isError ? (
        <p className="form-error" role="alert">The people could not be loaded: {people.error.message}</p>
      ) : (
        <>
          {people.data.length > 5 ? <TextField label="Find someone" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="Name or e-mail" /> : null}
          <ul className="pane-list" aria-label="People">
            {shown.map((p) => (
              <li key={p.id}>
                <div className="pane-list-text">
                  <span className="pane-list-name">{p.displayName}</span>
                  <span className="pane-list-meta">{p.email}</span>
                </div>
              </li>
            ))}
          </ul>
          {people.data.length === 1 ? <p className="muted" style={{ marginBottom: 0 }}>Only you so far. {canInvite ? "Invite the people you work with: each gets a link to register." : ""}</p> : null}
        </>
      )}
    </Card>
  );
}
