/** The display name, and a new password (the other sessions end; this one stays signed in). */
import { useState } from "react";
import { api, ApiError, data } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import type { Me } from "../../api/types";
import { Button } from "../../ui/Button";
import { FormError, TextField } from "../../ui/Field";
import { toast } from "../../ui/toast";
import { Card } from "./SectionsFrame";
import { DISPLAY_NAME_MAX, PASSWORD_MIN } from "../../../shared/limits";

export function ProfileSection({ me }: { me: Me }) {
  const [name, setName] = useState(me.displayName);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const updated = await data(api.PUT("/api/auth/me", { body: { displayName: name } }));
      queryClient.setQueryData(keys.me, (old: Me | null | undefined) => (old ? { ...old, ...updated } : updated));
      toast.success("Display name saved");
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card id="profile-name" title="Profile" intro="How you appear to others: beside your edits and comments, and when someone mentions you.">
      <form
        className="pane-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <TextField label="Display name" value={name} onChange={(e) => setName(e.target.value)} error={error} autoComplete="name" required maxLength={DISPLAY_NAME_MAX} />
        <TextField label="E-mail" value={me.email} readOnly hint="Your e-mail is how you sign in; an administrator can change it." />
        <p className="muted" style={{ margin: 0, fontSize: "0.875rem" }}>
          Role: {me.roleName}
        </p>
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={busy} disabled={name.trim() === me.displayName}>
            Save name
          </Button>
        </div>
      </form>
    </Card>
  );
}

export function PasswordSection() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [again, setAgain] = useState("");
  const [errors, setErrors] = useState<{ current?: string; next?: string; again?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (next !== again) return setErrors({ again: "The two new passwords differ. Type the same one twice." });
    setBusy(true);
    setErrors({});
    try {
      await data(api.PUT("/api/auth/me/password", { body: { currentPassword: current, newPassword: next } }));
      setCurrent("");
      setNext("");
      setAgain("");
      toast.success("Password changed. Your other sessions were signed out.");
    } catch (err) {
      const e = err as ApiError;
      if (e.code === "invalid_credentials" || e.field === "currentPassword") setErrors({ current: "That is not your current password." });
      else if (e.field === "newPassword") setErrors({ next: e.message });
      else setErrors({ form: e.message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card id="password-title" title="Change your password" intro="Your other sessions are signed out when it changes; this one stays signed in.">
      <form
        className="pane-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <TextField label="Current password" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} error={errors.current} required />
        <TextField label="New password" type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} error={errors.next} hint={`At least ${PASSWORD_MIN} characters, not a common one; a few words are easy to remember.`} required />
        <TextField label="New password again" type="password" autoComplete="new-password" value={again} onChange={(e) => setAgain(e.target.value)} error={errors.again} required />
        <FormError error={errors.form} />
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={busy}>
            Change password
          </Button>
        </div>
      </form>
    </Card>
  );
}
