/** One custom group opened: rename it, add and remove members, delete it. */
import { useState } from "react";
import { ApiError } from "../../api/client";
import { Loading } from "../../app/Loading";
import { Button } from "../../ui/Button";
import { ConfirmDialog } from "../../ui/Dialog";
import { FormError, TextField } from "../../ui/Field";
import { errorText, useAction } from "../../lib/mutation";
import type { Group } from "./queries";
import { useDirectory, useGroupChangeMutation, useMembers, type GroupChange } from "./queries";
import { GROUP_NAME_MAX } from "../../../common/limits";

export function GroupDetail({ group, canManage, onDeleted }: { group: Group; canManage: boolean; onDeleted(): void }) {
  const members = useMembers(group.id);
  const people = useDirectory();
  const [name, setName] = useState(group.name);
  const [adding, setAdding] = useState("");
  const [deleting, setDeleting] = useState(false);
  const change = useAction(useGroupChangeMutation(group.id), {
    failure: (err) => (err instanceof ApiError && err.status === 409 ? "A group has that name already. Choose another." : errorText(err)),
    success: (_answer, c) => doneText(c, group.name),
  });
  const error = change.error;
  const busy = change.pending ? (change.pending.kind === "remove" ? change.pending.userId : change.pending.kind) : null;
  const memberIds = new Set((members.data ?? []).map((m) => m.id));
  const candidates = (people.data ?? []).filter((p) => !memberIds.has(p.id));
  return (
    <div
      className="group-detail"
      style={{ padding: "var(--space-3) 0 var(--space-2)", display: "flex", flexDirection: "column", gap: "var(--space-3)" }}
    >
      {canManage ? (
        <form
          className="pane-row"
          onSubmit={(e) => {
            e.preventDefault();
            void change.run({ kind: "rename", name });
          }}
        >
          <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={GROUP_NAME_MAX} />
          <Button type="submit" busy={busy === "rename"} disabled={name.trim() === group.name || !name.trim()}>
            Rename
          </Button>
        </form>
      ) : null}
      {canManage ? (
        <form
          className="pane-row"
          onSubmit={(e) => {
            e.preventDefault();
            const who = candidates.find((p) => p.id === adding);
            if (!who) return change.setError("Choose someone to add.");
            void change.run({ kind: "add", userId: who.id, name: who.displayName }).then((ok) => ok && setAdding(""));
          }}
        >
          <div className="field">
            <label htmlFor={`add-${group.id}`}>Add a member</label>
            <select id={`add-${group.id}`} className="input" value={adding} onChange={(e) => setAdding(e.target.value)}>
              <option value="">{candidates.length ? "Choose a person…" : "Everyone is a member already"}</option>
              {candidates.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.displayName} ({p.email})
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" busy={busy === "add"} disabled={!adding}>
            Add
          </Button>
        </form>
      ) : null}
      <FormError error={error} />
      {members.isPending ? (
        <Loading />
      ) : members.data?.length ? (
        <ul className="pane-list" aria-label={`Members of ${group.name}`} style={{ margin: 0 }}>
          {members.data.map((m) => (
            <li key={m.id}>
              <div className="pane-list-text">
                <span>{m.displayName}</span>
                <span className="pane-list-meta">{m.email}</span>
              </div>
              {canManage ? (
                <Button
                  size="sm"
                  variant="ghost"
                  busy={busy === m.id}
                  aria-label={`Remove ${m.displayName} from ${group.name}`}
                  onClick={() => void change.run({ kind: "remove", userId: m.id, name: m.displayName })}
                >
                  Remove
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted" style={{ margin: 0 }}>
          No members yet.{canManage ? " Add the people of this group above." : ""}
        </p>
      )}
      {canManage ? (
        <div>
          <Button size="sm" variant="danger" onClick={() => setDeleting(true)}>
            Delete group
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete “${group.name}”?`}
        description={
          `Its ${group.memberCount} ${group.memberCount === 1 ? "member loses" : "members lose"} the access ` +
          `given to the group in every space; their accounts stay. This cannot be undone.`
        }
        confirmLabel="Delete group"
        busy={busy === "delete"}
        error={error}
        onConfirm={() =>
          void change.run({ kind: "delete" }).then((ok) => {
            if (ok) {
              setDeleting(false);
              onDeleted();
            }
          })
        }
      />
    </div>
  );
}

/** The toast once a change is done, in the words of the change. */
function doneText(change: GroupChange, group: string): string {
  if (change.kind === "rename") return `Renamed to “${change.name.trim()}”`;
  if (change.kind === "add") return `${change.name} added to ${group}`;
  if (change.kind === "remove") return `${change.name} removed from ${group}`;
  return `Group “${group}” deleted`;
}
