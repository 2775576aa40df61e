import { Link, useSearch } from "wouter";
import { useInstance } from "../../app/session";
import { AuthLayout } from "./AuthLayout";
import { RegisterForm } from "./RegisterForm";

/** Joining from an invite link (/register?invite=…), or freely when registration is open. */
export function RegisterScreen() {
  const invite = new URLSearchParams(useSearch()).get("invite") ?? undefined;
  const instance = useInstance();
  const open = instance.data?.allowPublicRegistration;
  if (!invite && !open) {
    return (
      <AuthLayout title="Invite needed" intro="This wiki is invite-only. Ask an administrator for an invite link, then open it here.">
        <p className="auth-foot">
          Already have an account? <Link href="/login">Sign in</Link>
        </p>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Create your account" intro={invite ? "You were invited to this wiki. Choose your name and a password." : undefined}>
      <RegisterForm inviteToken={invite} submitLabel="Create account" />
      <p className="auth-foot">
        Already have an account? <Link href="/login">Sign in</Link>
      </p>
    </AuthLayout>
  );
}
