/** The steps that only explain: welcome and the owner's account. */
import { Link } from "wouter";
import { useMe } from "../../app/session";
import { useAuthForm } from "../../lib/useAuthForm";
import { StepForm } from "./wizard";

export function WelcomeStep() {
  const form = useAuthForm();
  return (
    <StepForm
      form={form}
      intro={
        <>
          <p>
            Your account is ready and you own this wiki. A few short steps set it up for your team: its name, who may join, how open new
            spaces are, backups, and your first space.
          </p>
          <p>Each choice can be changed later in Administration, and a step you are not ready for can be skipped.</p>
        </>
      }
      continueLabel="Start"
    />
  );
}

export function AccountStep() {
  const form = useAuthForm();
  const me = useMe();
  return (
    <StepForm
      form={form}
      intro={
        <p>
          You are the <strong>owner</strong>: you hold every right, including restoring backups and handing ownership to someone else. There
          is always exactly one owner.
        </p>
      }
    >
      <dl className="setup-facts">
        <dt>Name</dt>
        <dd>{me.data?.displayName}</dd>
        <dt>E-mail</dt>
        <dd>{me.data?.email}</dd>
      </dl>
      <p className="muted setup-note">
        Change your name or password at any time in <Link href="/settings/profile">your settings</Link>.
      </p>
    </StepForm>
  );
}
