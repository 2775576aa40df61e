import { useQuery } from "@tanstack/react-query";
import { Link, useSearch } from "wouter";
import { api, ApiError, data } from "../../api/client";
import { Loading } from "../../app/Loading";
import { useInstance } from "../../app/session";
import { AuthLayout } from "./AuthLayout";
import { RegisterForm } from "./RegisterForm";

type InviteDetails = Awaited<ReturnType<typeof readInvite>>;

const readInvite = (token: string) => data(api.GET("/api/auth/invite", { params: { query: { token } } }));

/** Joining from an invite link (/register?invite=…), or freely when registration is open. */
export function RegisterScreen() {
  const invite = new URLSearchParams(useSearch()).get("invite") ?? undefined;
  const instance = useInstance();
  const open = instance.data?.allowPublicRegistration;
  // What the link gives, and the address it is for (only a valid token answers).
  const details = useQuery({
    queryKey: ["invite", invite],
    queryFn: () => readInvite(invite!),
    enabled: !!invite,
    retry: false,
    staleTime: Infinity,
  });
  const signIn = (
    <p className="auth-foot">
      Already have an account? <Link href="/login">Sign in</Link>
    </p>
  );
  if (!invite && !open) {
    return (
      <AuthLayout title="Invite needed" intro="This wiki is invite-only. Ask an administrator for an invite link, then open it here.">
        {signIn}
      </AuthLayout>
    );
  }
  if (invite && details.isPending) return <Loading />;
  if (invite && details.error) {
    const gone = details.error instanceof ApiError && details.error.status === 404;
    return (
      <AuthLayout
        title={gone ? "This invite link does not work" : "The invite could not be read"}
        intro={
          gone
            ? "It may have expired, been used already or been withdrawn. Ask the person who invited you for a new link."
            : `${details.error.message} Reload the page to try again.`
        }
      >
        {signIn}
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Create your account" intro={details.data ? invitation(details.data) : undefined}>
      <RegisterForm inviteToken={invite} invitedEmail={details.data?.email} submitLabel="Create account" />
      {signIn}
    </AuthLayout>
  );
}

const OPERATION_WORDS = ["view", "edit", "administer"];

/** "Olive invited you to join as User. You can edit Engineering. Choose your name and a password." */
function invitation(d: InviteDetails): string {
  const who = d.invitedBy ? `${d.invitedBy} invited you` : "You were invited";
  const spaces = d.spaces.map((s) => `${OPERATION_WORDS[s.operation] ?? "view"} ${s.name}`);
  const access = spaces.length ? ` You can ${listed(spaces)}.` : "";
  return `${who} to join this wiki as ${d.roleName}.${access} Choose your name and a password.`;
}

const listed = (items: string[]) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);
