/**
 * E-mail: Cairn does not send mail yet, so the SMTP settings are only stored for later (a server
 * without them gets the explanation and a skip). E-mail is not switched on here (nothing could send it yet): the step is
 * recorded done only when an administrator already turned it on with a host, otherwise skipped.
 */
import { useState } from "react";
import { ApiError } from "../../api/client";
import { Loading } from "../../app/Loading";
import { TextField } from "../../ui/Field";
import { useAuthForm } from "../auth/useAuthForm";
import { saveSettings, useSettings, type LooseSettings } from "./queries";
import { StepForm, useWizard } from "./wizard";

const INTRO = <p>With e-mail, Cairn can send invites, password resets and notifications itself. Without it, you copy invite links and send them yourself, which works well for a small team.</p>;

export function EmailStep() {
  const settings = useSettings();
  const form = useAuthForm();
  if (settings.isPending) return <Loading />;
  if (settings.isError) return <p className="form-error" role="alert">The settings could not be loaded: {settings.error.message}. Reload the page to try again.</p>;
  if (!("smtpHost" in settings.data)) {
    return (
      <StepForm
        form={form}
        skipOnly
        intro={
          <>
            {INTRO}
            <p>
              <strong>Sending e-mail is not available yet.</strong> Skip this step; the mail server settings will appear in Administration → Settings when it is.
            </p>
          </>
        }
      />
    );
  }
  return <SmtpForm settings={settings.data} />;
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

function SmtpForm({ settings }: { settings: LooseSettings }) {
  const wizard = useWizard();
  const form = useAuthForm();
  const [host, setHost] = useState(str(settings.smtpHost));
  const [port, setPort] = useState(String(settings.smtpPort ?? 587));
  const [username, setUsername] = useState(str(settings.smtpUsername));
  const [password, setPassword] = useState("");
  const [from, setFrom] = useState(str(settings.smtpFromAddress));
  const onContinue = async () => {
    const wanted: Record<string, unknown> = { smtpHost: host.trim(), smtpPort: Number(port), smtpUsername: username.trim(), smtpFromAddress: from.trim() };
    if (password) wanted.smtpPassword = password;
    await saveSettings(settings, wanted);
    try {
      await wizard.advance(false);
    } catch (err) {
      // Stored for later without a working mail server: recorded as skipped.
      if (err instanceof ApiError && err.status === 409 && err.body.step === "email") await wizard.advance(true);
      else throw err;
    }
  };
  return (
    <StepForm
      form={form}
      onContinue={onContinue}
      continueLabel="Save and continue"
      intro={
        <>
          {INTRO}
          <p>Cairn does not send mail yet: what you enter is kept for when it does. Your provider's help pages list these values.</p>
        </>
      }
    >
      <div className="setup-grid">
        <TextField label="Mail server (SMTP host)" value={host} onChange={(e) => setHost(e.target.value)} error={form.fieldError("smtpHost")} placeholder="smtp.example.com" autoFocus />
        <TextField label="Port" inputMode="numeric" value={port} onChange={(e) => setPort(e.target.value)} error={form.fieldError("smtpPort")} hint="Usually 587 or 465" />
        <TextField label="Username" autoComplete="off" value={username} onChange={(e) => setUsername(e.target.value)} error={form.fieldError("smtpUsername")} />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={form.fieldError("smtpPassword")}
          hint={settings.smtpPasswordSet ? "A password is stored; leave empty to keep it." : undefined}
        />
      </div>
      <TextField label="Send as (from address)" type="email" value={from} onChange={(e) => setFrom(e.target.value)} error={form.fieldError("smtpFromAddress")} placeholder="wiki@example.com" />
    </StepForm>
  );
}
