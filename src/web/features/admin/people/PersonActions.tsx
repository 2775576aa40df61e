/**
 * What can be done to one person: the row's menu, and the dialog each action opens. Actions
 * that take something away confirm first, naming what happens; a role change, a reset link,
 * turning off two-factor and handing on ownership ask for the password when it was not
 * confirmed lately.
 */
import { useEffect, useState } from "react";
import { ApiError } from "../../../api/client";
import { queryClient } from "../../../api/query-client";
import { refreshSession } from "../../../app/session";
import { Ellipsis } from "../../../ui/icons";
import { Button } from "../../../ui/Button";
import { ConfirmDialog, Dialog, DialogActions } from "../../../ui/Dialog";
import { FormError } from "../../../ui/Field";
import { Menu, MenuItem, MenuSeparator } from "../../../ui/Menu";
import { toast } from "../../../ui/toast";
import { copyText } from "../../../lib/clipboard";
import { useTask } from "../../../lib/mutation";
import { useReauth } from "../../../lib/reauth";
import { peopleApi, refreshPeople, useRoleChoices, type Person, type ResetLink } from "./queries";

export type PersonAction = { kind: "role" | "suspend" | "reset" | "sessions" | "tokens" | "twoFactor" | "transfer"; person: Person };

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function PersonMenu({
  person: p,
  isMe,
  iAmOwner,
  onAction,
  onNotice,
}: {
  person: Person;
  isMe: boolean;
  iAmOwner: boolean;
  onAction(kind: PersonAction["kind"]): void;
  onNotice(n: string | null): void;
}) {
  const direct = async (work: () => Promise<unknown>, done: string) => {
    onNotice(null);
    try {
      await work();
      await refreshPeople();
      toast.success(done);
    } catch (err) {
      onNotice(`${p.displayName}: ${message(err)}`);
    }
  };
  return (
    <Menu
      label={`Actions for ${p.displayName}`}
      trigger={
        <Button
          size="sm"
          variant="ghost"
          className="people-actions-button"
          aria-label={`Actions for ${p.displayName}`}
          title={`Actions for ${p.displayName}`}
        >
          <Ellipsis aria-hidden="true" />
          <span className="people-actions-text">Actions</span>
        </Button>
      }
    >
      <MenuItem onSelect={() => onAction("role")}>Change role…</MenuItem>
      <MenuItem onSelect={() => onAction("reset")}>Make a password reset link…</MenuItem>
      {p.lockedUntil !== null || p.failedSignIns > 0 ? (
        <MenuItem onSelect={() => void direct(() => peopleApi.unlock(p.id), `${p.displayName} can sign in again from every address`)}>
          Unlock sign-in
        </MenuItem>
      ) : null}
      <MenuItem onSelect={() => onAction("sessions")}>Sign out everywhere…</MenuItem>
      <MenuItem onSelect={() => onAction("tokens")}>Revoke API tokens…</MenuItem>
      {p.twoFactorEnabled ? <MenuItem onSelect={() => onAction("twoFactor")}>Turn off two-factor…</MenuItem> : null}
      {p.status === 1 ? (
        <MenuItem onSelect={() => void direct(() => peopleApi.setStatus(p.id, 0), `${p.displayName} is active again and can sign in`)}>
          Reactivate
        </MenuItem>
      ) : !isMe ? (
        <MenuItem danger onSelect={() => onAction("suspend")}>
          Suspend…
        </MenuItem>
      ) : null}
      {iAmOwner && p.status === 0 && !isMe ? (
        <>
          <MenuSeparator />
          <MenuItem danger onSelect={() => onAction("transfer")}>
            Make owner…
          </MenuItem>
        </>
      ) : null}
    </Menu>
  );
}

/** The dialog of the action chosen in a row's menu (one at a time). */
export function PersonActionDialog({
  action,
  onClose,
  myPermissions,
  myTier,
}: {
  action: PersonAction | null;
  onClose(): void;
  myPermissions: readonly string[];
  myTier: number;
}) {
  const { guarded, dialog } = useReauth();
  // Each action is named by its toast, said once it is done.
  const task = useTask({ quiet: reauthCancelled, failure: message, done: onClose, success: (_answer, t) => t.what });
  const { busy, error, setError } = task;
  useEffect(() => setError(null), [action]);
  if (!action) return dialog;
  const p = action.person;
  const close = (open: boolean) => !open && !busy && onClose();
  const run = (work: () => Promise<unknown>, done: string, after?: () => Promise<unknown>) =>
    task.run({
      what: done,
      work: async () => {
        await guarded(work);
        await refreshPeople();
        await after?.();
      },
    });
  const confirm = (
    title: string,
    description: string,
    label: string,
    work: () => Promise<unknown>,
    done: string,
    after?: () => Promise<unknown>,
  ) => (
    <ConfirmDialog
      open
      onOpenChange={close}
      title={title}
      description={description}
      confirmLabel={label}
      busy={busy}
      error={error}
      onConfirm={() => void run(work, done, after)}
    />
  );
  const name = p.displayName;
  let body;
  switch (action.kind) {
    case "role":
      body = (
        <RoleDialog
          person={p}
          myPermissions={myPermissions}
          myTier={myTier}
          busy={busy}
          error={error}
          onClose={close}
          onSave={(roleId, roleName) =>
            void run(
              () => peopleApi.setRole(p.id, roleId),
              `${name} is now ${roleName}`,
              () => queryClient.invalidateQueries({ queryKey: ["me"] }),
            )
          }
        />
      );
      break;
    case "reset":
      body = <ResetDialog person={p} guarded={guarded} onClose={onClose} />;
      break;
    case "suspend":
      body = confirm(
        `Suspend ${name}?`,
        `${name} is signed out of every device at once, their API tokens stop working, and they cannot ` +
          `sign in until someone reactivates them. Their pages and comments stay.`,
        `Suspend ${name}`,
        () => peopleApi.setStatus(p.id, 1),
        `${name} is suspended and signed out`,
      );
      break;
    case "sessions":
      body = confirm(
        `Sign ${name} out everywhere?`,
        `Every browser where ${name} is signed in is signed out at once. They can sign in ` +
          `again with their password; their API tokens keep working.`,
        "Sign out everywhere",
        () => peopleApi.revokeSessions(p.id),
        `${name} is signed out everywhere`,
      );
      break;
    case "tokens":
      body = confirm(
        `Revoke ${name}'s API tokens?`,
        `Every API token ${name} made stops working for good, so scripts that use them ` +
          `fail until ${name} makes new ones. This cannot be undone.`,
        "Revoke every token",
        () => peopleApi.revokeTokens(p.id),
        `${name}'s API tokens are revoked`,
      );
      break;
    case "twoFactor":
      body = confirm(
        `Turn off ${name}'s two-factor sign-in?`,
        `${name} signs in with their password alone until they set up two-factor again. Do this ` +
          `only when you know it is really them who lost their authenticator.`,
        "Turn off two-factor",
        () => peopleApi.disableTwoFactor(p.id),
        `${name}'s two-factor sign-in is off`,
      );
      break;
    case "transfer":
      body = confirm(
        `Make ${name} the owner?`,
        `${name} becomes the owner of this wiki, with every right. You become an Administrator, and ` +
          `only ${name} can hand ownership back. There is only ever one owner.`,
        `Make ${name} the owner`,
        () => peopleApi.transferOwnership(p.id),
        `${name} is now the owner; you are an Administrator`,
        () => refreshSession(queryClient),
      );
      break;
  }
  return (
    <>
      {body}
      {dialog}
    </>
  );
}

function RoleDialog({
  person: p,
  myPermissions,
  myTier,
  busy,
  error,
  onClose,
  onSave,
}: {
  person: Person;
  myPermissions: readonly string[];
  myTier: number;
  busy: boolean;
  error: string | null;
  onClose(open: boolean): void;
  onSave(roleId: string, roleName: string): void;
}) {
  const choices = useRoleChoices(myPermissions.includes("roles.manage"));
  const [roleId, setRoleId] = useState(p.roleId);
  const allowed = (choices.data ?? []).filter((r) => r.tier <= myTier);
  const chosen = allowed.find((r) => r.id === roleId);
  return (
    <Dialog
      open
      onOpenChange={onClose}
      title={`Change ${p.displayName}'s role`}
      description="The new role's rights apply from their very next click. You may be asked for your password first."
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (chosen) onSave(chosen.id, chosen.name);
        }}
      >
        <div className="field">
          <label htmlFor="person-role">Role</label>
          <select
            id="person-role"
            className="input"
            value={roleId}
            onChange={(e) => setRoleId(e.target.value)}
            disabled={choices.isPending}
            aria-describedby="person-role-note"
          >
            {allowed.some((r) => r.id === p.roleId) ? null : <option value={p.roleId}>{p.roleName} (current)</option>}
            {allowed.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
                {r.id === p.roleId ? " (current)" : ""}
              </option>
            ))}
          </select>
          <p id="person-role-note" className="field-hint">
            {chosen?.description ||
              (choices.isError
                ? "The roles could not be loaded; the built-in ones are offered."
                : "Ownership is not a role you give here: the owner hands it on with Make owner.")}
          </p>
        </div>
        <FormError error={error} />
        <DialogActions>
          <Button onClick={() => onClose(false)}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy} disabled={!chosen || roleId === p.roleId}>
            Save role
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** Makes the one-time link when asked (after the password, when it was not confirmed lately), then shows it (once) with a copy button. */
function ResetDialog({
  person: p,
  guarded,
  onClose,
}: {
  person: Person;
  guarded<T>(action: () => Promise<T>): Promise<T>;
  onClose(): void;
}) {
  const [link, setLink] = useState<ResetLink | null>(null);
  const making = useTask({ quiet: reauthCancelled, failure: message, success: `Reset link for ${p.displayName} made` });
  const { busy, error } = making;
  const url = link ? (link.url ?? window.location.origin + link.path) : "";
  const make = () => making.run({ what: "reset-link", work: async () => setLink(await guarded(() => peopleApi.resetLink(p.id))) });
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Password reset link for ${p.displayName}`}
      description={
        link
          ? "Copy the link now and give it to them: it is shown only this once."
          : "A link that lets them choose a new password. It works once, for 24 hours; their current password " +
            "keeps working until they use it. You may be asked for your password first."
      }
    >
      {link ? (
        <div className="people-link" role="status">
          <code aria-label="Reset link">{url}</code>
          <p className="field-hint">
            Works until {new Date(link.expiresAt).toLocaleString()}. {link.emailed ? "It was also e-mailed to them." : link.emailStatus}
          </p>
          <DialogActions>
            <Button onClick={onClose}>Done</Button>
            <Button variant="primary" onClick={() => void copyText(url, "Reset link")}>
              Copy link
            </Button>
          </DialogActions>
        </div>
      ) : (
        <>
          <FormError error={error} />
          <DialogActions>
            <Button onClick={onClose}>Cancel</Button>
            <Button variant="primary" busy={busy} onClick={() => void make()}>
              Make reset link
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}

const reauthCancelled = (err: unknown) => err instanceof ApiError && err.code === "reauth_cancelled";
