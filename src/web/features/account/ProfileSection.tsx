/** The display name, and a new password (the other sessions end; this one stays signed in). */
import { useState } from "react";
import type { Me } from "../../api/types";
import { useAction } from "../../lib/mutation";
import { Button } from "../../ui/Button";
import { FormError, TextField } from "../../ui/Field";
import { Card } from "../../ui/SectionsFrame";
import { useDisplayNameMutation, usePasswordMutation } from "./queries";
import { DISPLAY_NAME_MAX, PASSWORD_MIN } from "../../../common/limits";

export function ProfileSection({ me }: { me: Me }) {
  const [name, setName] = useState(me.displayName);
  const save = useAction(useDisplayNameMutation(), { success: "Display name saved" });
  return (
    <Card
      id="profile-name"
      title="Profile"
      intro="How you appear to others: beside your edits and comments, and when someone mentions you."
    >
      <form
        className="pane-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save.run(name);
        }}
      >
        <TextField
          label="Display name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={save.error}
          autoComplete="name"
          required
          maxLength={DISPLAY_NAME_MAX}
        />
        <TextField label="E-mail" value={me.email} readOnly hint="Your e-mail is how you sign in; an administrator can change it." />
        <p className="muted" style={{ margin: 0, fontSize: "0.875rem" }}>
          Role: {me.roleName}
        </p>
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={save.busy} disabled={name.trim() === me.displayName}>
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
  const [mismatch, setMismatch] = useState<string | null>(null);
  const change = useAction(usePasswordMutation(), {
    success: "Password changed. Your other sessions were signed out.",
    done: () => {
      setCurrent("");
      setNext("");
      setAgain("");
    },
  });
  const wrong = change.problem?.code === "invalid_credentials" || change.fieldError("currentPassword") !== null;
  const errors = {
    current: wrong ? "That is not your current password." : undefined,
    next: change.fieldError("newPassword") ?? undefined,
    again: mismatch ?? undefined,
    form: change.error && !wrong && change.problem?.field !== "newPassword" ? change.error : undefined,
  };
  const save = () => {
    setMismatch(null);
    if (next !== again) {
      change.setError(null);
      return setMismatch("The two new passwords differ. Type the same one twice.");
    }
    void change.run({ currentPassword: current, newPassword: next });
  };
  return (
    <Card
      id="password-title"
      title="Change your password"
      intro="Your other sessions are signed out when it changes; this one stays signed in."
    >
      <form
        className="pane-form"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          error={errors.current}
          required
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          value={next}
          onChange={(e) => setNext(e.target.value)}
          error={errors.next}
          hint={`At least ${PASSWORD_MIN} characters, not a common one; a few words are easy to remember.`}
          required
        />
        <TextField
          label="New password again"
          type="password"
          autoComplete="new-password"
          value={again}
          onChange={(e) => setAgain(e.target.value)}
          error={errors.again}
          required
        />
        <FormError error={errors.form} />
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={change.busy}>
            Change password
          </Button>
        </div>
      </form>
    </Card>
  );
}
