/** Creating, renaming, deleting and resetting a role: one dialog each, errors shown where the person acted. */
import { useState } from "react";
import { api, data } from "../../../api/client";
import { Button } from "../../../ui/Button";
import { ConfirmDialog, Dialog, DialogActions } from "../../../ui/Dialog";
import { FormError, TextField } from "../../../ui/Field";
import { toast } from "../../../ui/toast";
import { useAction } from "../../../lib/mutation";
import { useAuthForm } from "../../../lib/useAuthForm";
import { useReauth } from "../../../lib/reauth";
import { plural, refreshRoles, TIER_NAMES, useCreateRoleMutation, useRenameRoleMutation, type Role } from "./queries";
import { ROLE_DESCRIPTION_MAX, ROLE_NAME_MAX } from "../../../../common/limits";

export type RoleAction =
  | { kind: "create" }
  | { kind: "rename"; role: Role }
  | { kind: "delete"; role: Role }
  | { kind: "reset"; role: Role };

export function RoleActionDialog({
  action,
  roles,
  viewerTier,
  onClose,
}: {
  action: RoleAction | null;
  roles: Role[];
  viewerTier: number;
  onClose(): void;
}) {
  if (!action) return null;
  if (action.kind === "create") return <CreateRole roles={roles} viewerTier={viewerTier} onClose={onClose} />;
  if (action.kind === "rename") return <RenameRole role={action.role} onClose={onClose} />;
  if (action.kind === "delete") return <DeleteRole role={action.role} onClose={onClose} />;
  return <ResetRole role={action.role} onClose={onClose} />;
}

function CreateRole({ roles, viewerTier, onClose }: { roles: Role[]; viewerTier: number; onClose(): void }) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [tier, setTier] = useState(0);
  const [copyFrom, setCopyFrom] = useState("");
  const creation = useAction(useCreateRoleMutation(), { success: (role) => `Role “${role.name}” created`, done: onClose });
  const { busy } = creation;
  const submit = () => creation.run({ name, description, tier, ...(copyFrom ? { copyFrom } : {}) });
  const at = creation.fieldError;
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title="New role"
      description="A role is a set of instance rights. Give it to people in People; tick its rights in the matrix."
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={ROLE_NAME_MAX}
          required
          autoFocus
          error={at("name")}
          hint={`Up to ${ROLE_NAME_MAX} characters; not the name of another role.`}
        />
        <TextField
          label="Description (optional)"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          maxLength={ROLE_DESCRIPTION_MAX}
          error={at("description")}
        />
        <div className="field">
          <label htmlFor="role-tier">Tier</label>
          <select id="role-tier" className="input" value={tier} onChange={(e) => setTier(Number(e.target.value))}>
            <option value={0}>Member: an ordinary account with extra rights</option>
            <option value={1} disabled={viewerTier < 1}>
              Admin: counts as an administrator (groups, last-administrator rule)
            </option>
          </select>
          <p className="field-hint">{at("tier") ?? "A custom role cannot be of the Owner tier; the tier cannot change later."}</p>
        </div>
        <div className="field">
          <label htmlFor="role-copy">Start with the rights of</label>
          <select id="role-copy" className="input" value={copyFrom} onChange={(e) => setCopyFrom(e.target.value)}>
            <option value="">No rights (tick them in the matrix)</option>
            {roles.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name} ({plural(r.permissions.length, "right")})
              </option>
            ))}
          </select>
          {at("copyFrom") ? (
            <p className="field-error" role="alert">
              {at("copyFrom")}
            </p>
          ) : null}
        </div>
        <FormError error={["name", "description", "tier", "copyFrom"].some((f) => at(f)) ? null : creation.error} />
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>
            Create role
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

function RenameRole({ role, onClose }: { role: Role; onClose(): void }) {
  const [name, setName] = useState(role.name);
  const [description, setDescription] = useState(role.description);
  const saving = useAction(useRenameRoleMutation(role.id), { success: "Role saved", done: onClose });
  const { busy } = saving;
  const submit = () => saving.run(role.builtIn ? { description } : { name, description });
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={role.builtIn ? `Describe ${role.name}` : `Rename ${role.name}`}
      description={role.builtIn ? "Built-in roles keep their names; their description can change." : undefined}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {role.builtIn ? null : (
          <TextField
            label="Name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={ROLE_NAME_MAX}
            required
            autoFocus
            error={saving.fieldError("name")}
          />
        )}
        <TextField
          label="Description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          maxLength={ROLE_DESCRIPTION_MAX}
          autoFocus={role.builtIn}
          error={saving.fieldError("description")}
        />
        <FormError error={saving.fieldError("name") || saving.fieldError("description") ? null : saving.error} />
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

function DeleteRole({ role, onClose }: { role: Role; onClose(): void }) {
  const action = useAuthForm();
  const confirm = () =>
    action.run(async () => {
      await data(api.DELETE("/api/admin/roles/{roleId}", { params: { path: { roleId: role.id } } }));
      toast.success(`Role “${role.name}” deleted`);
      await refreshRoles();
      onClose();
    });
  return (
    <ConfirmDialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Delete the role ${role.name}?`}
      description={
        `The role “${role.name}” and its ${plural(role.permissions.length, "right")} go for good. Nobody ` +
        `holds it now; used or expired invites that named it are removed with it.`
      }
      confirmLabel={`Delete ${role.name}`}
      busy={action.busy}
      error={action.error?.message ?? null}
      onConfirm={() => void confirm()}
    />
  );
}

function ResetRole({ role, onClose }: { role: Role; onClose(): void }) {
  const action = useAuthForm();
  const { guarded, dialog } = useReauth();
  const added = (role.defaults ?? []).filter((r) => !role.permissions.includes(r));
  const removed = role.permissions.filter((r) => !(role.defaults ?? []).includes(r));
  const confirm = () =>
    action.run(async () => {
      await guarded(() => data(api.POST("/api/admin/roles/{roleId}/reset", { params: { path: { roleId: role.id } } })));
      toast.success(`${role.name} is back to its default rights`);
      await refreshRoles();
      onClose();
    });
  return (
    <>
      <ConfirmDialog
        open
        onOpenChange={(o) => !o && onClose()}
        title={`Reset ${role.name} to its defaults?`}
        description={
          added.length || removed.length
            ? `${role.name} (${TIER_NAMES[role.tier]}) goes back to Cairn's default rights: ` +
              `${removed.length ? `it loses ${removed.join(", ")}` : ""}${removed.length && added.length ? "; " : ""}` +
              `${added.length ? `it gets ${added.join(", ")}` : ""}. ${plural(role.accounts, "person", "people")} hold it.`
            : `${role.name} already holds exactly its default rights; resetting changes nothing.`
        }
        confirmLabel={`Reset ${role.name}`}
        busy={action.busy}
        error={action.error?.message ?? null}
        onConfirm={() => void confirm()}
      />
      {dialog}
    </>
  );
}
