import { useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { api, data } from "../../api/client";
import { toast } from "../../ui/toast";
import { Button } from "../../ui/Button";
import { FormError, TextField } from "../../ui/Field";
import { AuthLayout } from "./AuthLayout";
import { useAuthForm } from "../../lib/useAuthForm";
import { PASSWORD_MIN } from "../../../common/limits";

/**
 * /reset-password?token=…: a one-time link an administrator made. The new password is set
 * (POST /api/auth/recover/token), every session of the account ends, and the person signs in.
 */
export function ResetPasswordScreen() {
  const token = new URLSearchParams(useSearch()).get("token") ?? "";
  const [, navigate] = useLocation();
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [mismatch, setMismatch] = useState<string | null>(null);
  const form = useAuthForm();
  if (!token) {
    return (
      <AuthLayout title="Reset link needed" intro="Open the password reset link an administrator gave you. It works once, for 24 hours.">
        <p className="auth-foot">
          Remember your password? <Link href="/login">Sign in</Link>
        </p>
      </AuthLayout>
    );
  }
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setMismatch(null);
    if (password !== again) {
      setMismatch("The two passwords differ. Type the same password twice.");
      return;
    }
    void form.run(async () => {
      await data(api.POST("/api/auth/recover/token", { body: { token, newPassword: password } }));
      toast.success("Your password was changed. Sign in with it now.");
      navigate("/login", { replace: true });
    });
  };
  const linkError = form.fieldError("token");
  return (
    <AuthLayout
      title="Choose a new password"
      intro="Set the password you will sign in with from now on. Any device still signed in to your account is signed out."
    >
      {linkError ? (
        <p className="form-error" role="alert">
          This link does not work any more: it may have expired or been used already. Ask an administrator for a new one.
        </p>
      ) : null}
      <form onSubmit={submit} noValidate>
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={form.fieldError("newPassword")}
          hint={`At least ${PASSWORD_MIN} characters. A few unrelated words are easy to remember and hard to guess.`}
          autoFocus
        />
        <TextField
          label="The same password again"
          type="password"
          autoComplete="new-password"
          required
          value={again}
          onChange={(e) => setAgain(e.target.value)}
          error={mismatch}
        />
        <FormError error={form.formError} />
        <Button type="submit" variant="primary" busy={form.busy}>
          Set password
        </Button>
      </form>
      <p className="auth-foot">
        Remember your password? <Link href="/login">Sign in</Link>
      </p>
    </AuthLayout>
  );
}
