/**
 * Groups: create, rename, delete (custom ones), and their members added and removed. Built-in
 * groups (Everyone…) are shown but not changed.
 */
import { useState } from "react";
import { ApiError } from "../../api/client";

import { AsyncList } from "../../ui/AsyncList";
import { Button } from "../../ui/Button";
import { FormError, TextField } from "../../ui/Field";
import { Card } from "../../ui/SectionsFrame";
import { GroupDetail } from "./GroupDetail";
import { errorText, useAction } from "../../lib/mutation";
import { useCreateGroupMutation, useGroups } from "./queries";
import { GROUP_NAME_MAX } from "../../../common/limits";

export function GroupsSection({ canManage }: { canManage: boolean }) {
  const groups = useGroups();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      {canManage ? <NewGroup onCreated={setOpen} /> : null}
      <Card
        id="groups-title"
        title="Groups"
        intro="Give a group access to a space once, instead of each person. Everyone holds every account."
      >
        <AsyncList query={groups} what="The groups">
          {(items) => (
            <ul className="pane-list" aria-label="Groups">
              {items.map((g) => (
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
                      <Button
                        size="sm"
                        aria-expanded={open === g.id}
                        onClick={() => setOpen(open === g.id ? null : g.id)}
                        aria-label={`${open === g.id ? "Close" : canManage ? "Manage" : "Members of"} ${g.name}`}
                      >
                        {open === g.id ? "Close" : canManage ? "Manage" : "Members"}
                      </Button>
                    )}
                  </div>
                  {open === g.id ? <GroupDetail group={g} canManage={canManage} onDeleted={() => setOpen(null)} /> : null}
                </li>
              ))}
            </ul>
          )}
        </AsyncList>
        {groups.data && !groups.data.some((g) => !g.builtIn) ? (
          <p className="muted" style={{ marginBottom: 0 }}>
            No groups of your own yet. Make one for a team, then give it access in a space's settings.
          </p>
        ) : null}
      </Card>
    </>
  );
}

function NewGroup({ onCreated }: { onCreated(id: string): void }) {
  const [name, setName] = useState("");
  const creation = useAction(useCreateGroupMutation(), {
    failure: (err) => (err instanceof ApiError && err.status === 409 ? "A group has that name already. Choose another." : errorText(err)),
    fieldOf: (err) => (err.field === "name" || err.status === 409 ? "name" : undefined),
    success: (g) => `Group “${g.name}” created`,
    done: (g) => {
      setName("");
      onCreated(g.id);
    },
  });
  return (
    <Card id="new-group-title" title="Create a group">
      <form
        className="pane-row"
        onSubmit={(e) => {
          e.preventDefault();
          void creation.run(name);
        }}
      >
        <TextField
          label="Group name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={creation.fieldError("name")}
          placeholder="e.g. Support team"
          required
          maxLength={GROUP_NAME_MAX}
        />
        <Button type="submit" variant="primary" busy={creation.busy}>
          Create group
        </Button>
      </form>
      <FormError error={creation.formError} />
    </Card>
  );
}
