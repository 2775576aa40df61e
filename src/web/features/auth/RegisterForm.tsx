import { useState } from "react";
import { useLocation } from "wouter";
import { api, data } from "../../api/client";
import { queryClient } from "../../api/query-client";
import { refreshSession } from "../../app/session";
import { Button } from "../../ui/Button";
import { FormError, TextField } from "../../ui/Field";
import { useAuthForm } from "../../lib/useAuthForm";
import { PASSWORD_MIN } from "../../../common/limits";

/**
 * Name, e-mail and password; POST /api/auth/register (with an invite when there is one; the
 * setup code when asked). An invite for one address fills it in and keeps it (the server takes
 * no other for that invite).
 */
export function RegisterForm({
  inviteToken,
  invitedEmail,
  submitLabel,
  then = "/",
  askSetupCode = false,
}: {
  inviteToken?: string;
  invitedEmail?: string | null;
  submitLabel: string;
  then?: string;
  askSetupCode?: boolean;
}) {
  const [, navigate] = useLocation();
  const [displayName, setName] = useState("");
  const [email, setEmail] = useState(invitedEmail ?? "");
  const [password, setPassword] = useState("");
  const [setupCode, setSetupCode] = useState("");
  const form = useAuthForm();
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    void form.run(async () => {
      await data(
        api.POST("/api/auth/register", {
          body: { email, displayName, password, ...(inviteToken ? { inviteToken } : {}), ...(askSetupCode ? { setupCode } : {}) },
        }),
      );
      await refreshSession(queryClient);
      navigate(then, { replace: true });
    });
  };
  return (
    <form onSubmit={submit} noValidate>
      <TextField
        label="Your name"
        autoComplete="name"
        required
        value={displayName}
        onChange={(e) => setName(e.target.value)}
        error={form.fieldError("displayName")}
        autoFocus
      />
      <TextField
        label="E-mail"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        readOnly={!!invitedEmail}
        hint={invitedEmail ? "The invite is for this address; you sign in with it." : undefined}
        error={form.fieldError("email")}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={form.fieldError("password")}
        hint={`At least ${PASSWORD_MIN} characters. A few unrelated words are easy to remember and hard to guess.`}
      />
      {askSetupCode && (
        <TextField
          label="Setup code"
          autoComplete="one-time-code"
          spellCheck={false}
          required
          value={setupCode}
          onChange={(e) => setSetupCode(e.target.value)}
          error={form.fieldError("setupCode")}
          hint={
            "This server can be reached from other machines, so the owner account needs the code Cairn printed in " +
            "its log when it started. To see it again, run cairn setup-code on the server."
          }
        />
      )}
      <FormError error={form.formError} />
      <Button type="submit" variant="primary" busy={form.busy}>
        {submitLabel}
      </Button>
    </form>
  );
}
