import { useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { api, data } from "../../api/client";
import { queryClient } from "../../api/query-client";
import { refreshSession, safeRedirect, useInstance, useMe } from "../../app/session";
import { Button } from "../../ui/Button";
import { FormError, TextField } from "../../ui/Field";
import { AuthLayout } from "./AuthLayout";
import { useAuthForm } from "../../lib/useAuthForm";

export function SignInScreen() {
  const params = new URLSearchParams(useSearch());
  const redirect = safeRedirect(params.get("redirect"));
  const [, navigate] = useLocation();
  const me = useMe();
  const instance = useInstance();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const form = useAuthForm();

  if (me.data) {
    navigate(redirect, { replace: true });
    return null;
  }
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    void form.run(async () => {
      await data(api.POST("/api/auth/login", { body: { email, password } }));
      await refreshSession(queryClient);
      navigate(redirect, { replace: true });
    });
  };
  return (
    <AuthLayout title="Sign in" intro={params.get("ended") ? "Your session ended. Sign in to go back to where you were." : undefined}>
      <form onSubmit={submit} noValidate>
        <TextField
          label="E-mail"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={form.fieldError("email")}
          autoFocus
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={form.fieldError("password")}
        />
        <FormError error={form.formError} />
        <Button type="submit" variant="primary" busy={form.busy}>
          Sign in
        </Button>
      </form>
      <p className="auth-foot">
        {instance.data?.allowPublicRegistration ? (
          <>
            New here? <Link href="/register">Create an account</Link>
          </>
        ) : (
          "No account yet? Ask an administrator for an invite link."
        )}
      </p>
    </AuthLayout>
  );
}
