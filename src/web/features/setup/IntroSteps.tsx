/** The steps that only explain: welcome, the owner's account, and the ones not built yet. */
import { Link } from "wouter";
import { useMe } from "../../app/session";
import { useAuthForm } from "../auth/useAuthForm";
import { StepForm } from "./wizard";

export function WelcomeStep() {
  const form = useAuthForm();
  return (
    <StepForm
      form={form}
      intro={
        <>
          <p>Your account is ready and you own this wiki. A few short steps set it up for your team: its name, who may join, how open new spaces are, and your first space.</p>
          <p>Each step can be changed later in Administration. Steps for features that are not ready yet can be skipped.</p>
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
          You are the <strong>owner</strong>: you hold every right, including restoring backups and handing ownership to someone else. There is always exactly one owner.
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

export function BackupsStep() {
  const form = useAuthForm();
  return (
    <StepForm
      form={form}
      skipOnly
      intro={
        <>
          <p>Everything in Cairn lives in one data directory: a SQLite database and the uploaded files. Copying that directory while Cairn is stopped is a complete backup.</p>
          <p>
            <strong>Scheduled backups are coming</strong> in a later release: Cairn will copy itself on a schedule, keep a number of copies and restore one from the browser. Until then,
            skip this step and back up the data directory with your usual tools.
          </p>
        </>
      }
    />
  );
}

export function TwoFactorStep() {
  const form = useAuthForm();
  return (
    <StepForm
      form={form}
      skipOnly
      intro={
        <>
          <p>Two-factor sign-in asks for a code from an app on your phone as well as your password, so a stolen password alone cannot open your account.</p>
          <p>
            <strong>It is not available yet.</strong> When it arrives, you can turn it on in your settings, and administrators can require it for everyone who runs the wiki. Skip this
            step for now; a long, unique password is the best protection meanwhile.
          </p>
        </>
      }
    />
  );
}
