/**
 * Who can join (allowPublicRegistration, invite links made at once) and how open spaces are
 * (allowPublicSpaces; new spaces are open to the team by design). The choices go through
 * PUT /api/admin/settings and POST /api/admin/invites; the step records that they were made.
 */
import { useState, type ReactNode } from "react";
import { ApiError } from "../../api/client";
import { Loading } from "../../app/Loading";
import { Button } from "../../ui/Button";
import { TextField } from "../../ui/Field";
import { Copy } from "../../ui/icons";
import { copyText } from "../../lib/clipboard";
import { useAction } from "../../lib/mutation";
import { useAuthForm } from "../../lib/useAuthForm";
import { useReauth } from "../../lib/reauth";
import { useCreateInviteMutation } from "../people/queries";
import { saveSettings, useSettings, type LooseSettings } from "./queries";
import { StepForm, useWizard } from "./wizard";

function WithSettings({ children }: { children(settings: LooseSettings): ReactNode }) {
  const settings = useSettings();
  if (settings.isPending) return <Loading />;
  if (settings.isError)
    return (
      <p className="form-error" role="alert">
        The settings could not be loaded: {settings.error.message}. Reload the page to try again.
      </p>
    );
  return <>{children(settings.data)}</>;
}

/** Saves one setting (asking for the password when widening access needs it), then records the step. */
function useSaveThenAdvance(settings: LooseSettings) {
  const wizard = useWizard();
  const reauth = useReauth();
  const save = async (wanted: Record<string, unknown>) => {
    await reauth.guarded(() => saveSettings(settings, wanted));
    await wizard.advance(false);
  };
  return { save, dialog: reauth.dialog };
}

function Choice({
  name,
  value,
  checked,
  onChange,
  title,
  children,
}: {
  name: string;
  value: string;
  checked: boolean;
  onChange(): void;
  title: string;
  children: ReactNode;
}) {
  return (
    <label className={`setup-choice${checked ? " is-checked" : ""}`}>
      <input type="radio" name={name} value={value} checked={checked} onChange={onChange} />
      <span>
        <strong>{title}</strong>
        <span className="muted">{children}</span>
      </span>
    </label>
  );
}

export function RegistrationStep() {
  return <WithSettings>{(s) => <RegistrationForm settings={s} />}</WithSettings>;
}

function RegistrationForm({ settings }: { settings: LooseSettings }) {
  const form = useAuthForm();
  const [open, setOpen] = useState(settings.allowPublicRegistration);
  const { save, dialog } = useSaveThenAdvance(settings);
  return (
    <StepForm
      form={form}
      outside={dialog}
      onContinue={() => save({ allowPublicRegistration: open })}
      intro={<p>Decide how people get an account. You can change this later in Administration → Settings.</p>}
    >
      <fieldset className="setup-choices">
        <legend>Who can create an account</legend>
        <Choice name="registration" value="invite" checked={!open} onChange={() => setOpen(false)} title="Invite only (recommended)">
          People join with a link you or an administrator make. Nobody else can sign up.
        </Choice>
        <Choice name="registration" value="open" checked={open} onChange={() => setOpen(true)} title="Anyone who can reach this address">
          Fine on a private network; on the open internet, strangers could sign up and read your open spaces.
        </Choice>
      </fieldset>
      <InviteNow />
    </StepForm>
  );
}

/** Make invite links now: an e-mail is optional (without one, the link works for anyone, once). */
function InviteNow() {
  const [email, setEmail] = useState("");
  const [links, setLinks] = useState<Array<{ url: string; who: string }>>([]);
  const inviting = useAction(useCreateInviteMutation(), {
    failure: (err) => (err instanceof ApiError ? err.message : "Cairn could not be reached. Check your connection and try again."),
    done: (answer) => {
      setLinks((l) => [...l, { url: window.location.origin + answer.path, who: answer.email ?? "Anyone with the link" }]);
      setEmail("");
    },
  });
  const { busy, error } = inviting;
  const invite = () => inviting.run({ email: email.trim() || null });
  return (
    <section className="setup-invite" aria-labelledby="setup-invite-title">
      <h2 id="setup-invite-title">Invite people now (optional)</h2>
      <p className="muted">Each link works once and for 7 days. Send it yourself: this wiki does not send e-mail yet.</p>
      <div className="setup-invite-row">
        <TextField
          label="Their e-mail (optional)"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={error}
          onKeyDown={(e) => {
            // Enter here makes a link rather than leaving the step.
            if (e.key === "Enter") {
              e.preventDefault();
              void invite();
            }
          }}
        />
        <Button onClick={() => void invite()} busy={busy}>
          Make invite link
        </Button>
      </div>
      {links.length ? (
        <ul className="setup-links" aria-label="Invite links made">
          {links.map((l) => (
            <li key={l.url}>
              <span className="setup-link-who">{l.who}</span>
              <code className="setup-link-url">{l.url}</code>
              <Button size="sm" onClick={() => void copyText(l.url, "Invite link")} aria-label={`Copy the invite link for ${l.who}`}>
                <Copy size={14} aria-hidden="true" /> Copy
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export function PermissionsStep() {
  return <WithSettings>{(s) => <PermissionsForm settings={s} />}</WithSettings>;
}

function PermissionsForm({ settings }: { settings: LooseSettings }) {
  const form = useAuthForm();
  const [publicSpaces, setPublicSpaces] = useState(settings.allowPublicSpaces);
  const { save, dialog } = useSaveThenAdvance(settings);
  return (
    <StepForm
      form={form}
      outside={dialog}
      onContinue={() => save({ allowPublicSpaces: publicSpaces })}
      intro={
        <>
          <p>
            <strong>A new space is open to everyone signed in</strong>: they can read and edit it, and its creator administers it. This
            suits most small teams.
          </p>
          <p>
            To keep a space to a few people, open the space's <em>Settings → Permissions</em> and remove the “Everyone” group; then add the
            people or groups who should see it.
          </p>
        </>
      }
    >
      <fieldset className="setup-choices">
        <legend>Reading without an account</legend>
        <Choice
          name="public"
          value="off"
          checked={!publicSpaces}
          onChange={() => setPublicSpaces(false)}
          title="Only people signed in (recommended)"
        >
          Every page needs an account.
        </Choice>
        <Choice name="public" value="on" checked={publicSpaces} onChange={() => setPublicSpaces(true)} title="Allow public spaces">
          A space administrator may then publish a space so anyone with the address can read it, without signing in.
        </Choice>
      </fieldset>
    </StepForm>
  );
}
