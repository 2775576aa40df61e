/**
 * Groups: create, rename, delete (custom ones), and their members added and removed. Built-in
 * groups (Everyone…) are shown but not changed.
 */
import { useState } from "react";
import { api, ApiError, data } from "../../api/client";
import { queryClient } from "../../api/query-client";

import { Loading } from "../../app/Loading";
import { Button } from "../../ui/Button";
import { FormError, TextField } from "../../ui/Field";
import { toast } from "../../ui/toast";
import { Card } from "../account/SectionsFrame";
import { GroupDetail } from "./GroupDetail";
import { peopleKeys, useGroups } from "./queries";
import { GROUP_NAME_MAX } from "../../../shared/limits";


export function GroupsSection({ canManage }: { canManage: boolean }) {
  const groups = useGroups();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      {canManage ? <NewGroup onCreated={setOpen} /> : null}
      <Card id="groups-title" title="Groups" intro="Give a group access to a space once, instead of each person. Everyone holds every account.">
        {groups.isPending ? (
          <Loading />
        ) : groups.isError ? (
          <p className="form-error" role="alert">The groups could not be loaded: {groups.error.message}</p>
        ) : (
          <ul className="pane-list" aria-label="Groups">
            {groups.data.map((g) => (
              <li key={g.id} style={{ display: "block" }}>
                <div style={{ display: "flex", alignItems: "center", gap: "var(--space-3)", flexWrap: "wrap" }}>
                  <div className="pane-list-text">
                    <span className="pane-list-name">
                      {g.name}
                      {g.builtIn ? <span className="pane-tag">Built in</span> : null}
                    </span>
                    <span className="pane-list-meta">
                      {g.memberCount} {g.memberCount === 1 ? "member" : "members"}
                      {g.description ? ` · ${g.description}` : ""}
                    </span>
                  </div>
                  {g.builtIn ? null : (
                    <Button size="sm" aria-expanded={open === g.id} onClick={() => setOpen(open === g.id ? null : g.id)} aria-label={`${open === g.id ? "Close" : canManage ? "Manage" : "Members of"} ${g.name}`}>
                      {open === g.id ? "Close" : canManage ? "Manage" : "Members"}
                    </Button>
                  )}
                </div>
                {open === g.id ? <GroupDetail group={g} canManage={canManage} onDeleted={() => setOpen(null)} /> : null}
              </li>
            ))}
          </ul>
        )}
        {groups.data && !groups.data.some((g) => !g.builtIn) ? <p className="muted" style={{ marginBottom: 0 }}>No groups of your own yet. Make one for a team, then give it access in a space's settings.</p> : null}
      </Card>
    </>
  );
}

function NewGroup({ onCreated }: { onCreated(id: string): void }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<{ name?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const create = async () => {
    setBusy(true);
    setError({});
    try {
      const g = await data(api.POST("/api/groups", { body: { name } }));
      setName("");
      toast.success(`Group “${g.name}” created`);
      await queryClient.invalidateQueries({ queryKey: peopleKeys.groups });
      onCreated(g.id);
    } catch (err) {
      const e = err as ApiError;
      setError(e.field === "name" || e.status === 409 ? { name: e.status === 409 ? "A group has that name already. Choose another." : e.message } : { form: e.message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card id="new-group-title" title="Create a group">
      <form
        className="pane-row"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <TextField label="Group name" value={name} onChange={(e) => setName(e.target.value)} error={error.name} placeholder="e.g. Support team" required maxLength={GROUP_NAME_MAX} />
        <Button type="submit" variant="primary" busy={busy}>
          Create group
        </Button>
      </form>
      <FormError error={error.form} />
    </Card>
  );
}
