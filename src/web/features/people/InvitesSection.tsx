/** Invite by e-mail (the register link shown once, with a copy button); pending invites, withdrawn. */
import { useState } from "react";
import { fullDate, timeAgo } from "../../lib/time";
import { AsyncList } from "../../ui/AsyncList";
import { Button } from "../../ui/Button";
import { ConfirmDialog } from "../../ui/Dialog";
import { FormError, TextField } from "../../ui/Field";
import { Card } from "../../ui/SectionsFrame";
import { copyText } from "../../lib/clipboard";
import { useAction } from "../../lib/mutation";
import { InviteAccessFields, type SpaceChoice } from "./InviteAccessFields";
import { useCreateInviteMutation, useInviteEmailStatus, useInvites, useWithdrawInviteMutation, type Invite } from "./queries";
import "./invites.css";

export function InvitesSection() {
  const invites = useInvites();
  const [withdrawing, setWithdrawing] = useState<Invite | null>(null);
  const withdrawal = useAction(useWithdrawInviteMutation(), {
    success: (_answer, invite) => `The invite${invite.email ? ` for ${invite.email}` : ""} was withdrawn`,
    done: () => setWithdrawing(null),
  });
  const withdraw = () => withdrawing && withdrawal.run(withdrawing);
  return (
    <>
      <NewInvite />
      <Card id="pending-title" title="Pending invites" intro="Links sent but not used yet. A link works once, until it expires.">
        <AsyncList
          query={invites}
          what="The invites"
          empty={
            <p className="muted" style={{ margin: 0 }}>
              No invites are waiting. New ones appear here until they are used.
            </p>
          }
        >
          {(items) => (
            <ul className="pane-list" aria-label="Pending invites">
              {items.map((i) => (
                <li key={i.id}>
                  <div className="pane-list-text">
                    <span className="pane-list-name">{i.email ?? "Anyone with the link"}</span>
                    <span className="pane-list-meta">{whatItGives(i)}</span>
                    <span className="pane-list-meta">
                      sent{" "}
                      <time dateTime={i.createdAt} title={fullDate(i.createdAt)}>
                        {timeAgo(i.createdAt)}
                      </time>{" "}
                      · expires <time dateTime={i.expiresAt}>{fullDate(i.expiresAt)}</time>
                    </span>
                  </div>
                  <Button
                    size="sm"
                    onClick={() => setWithdrawing(i)}
                    aria-label={`Withdraw the invite for ${i.email ?? "anyone with the link"}`}
                  >
                    Withdraw
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </AsyncList>
      </Card>
      <ConfirmDialog
        open={withdrawing !== null}
        onOpenChange={(o) => {
          if (!o) setWithdrawing(null);
          withdrawal.setError(null);
        }}
        title="Withdraw this invite?"
        description={
          `The link sent${withdrawing?.email ? ` to ${withdrawing.email}` : ""} ` +
          `stops working at once. You can invite them again later.`
        }
        confirmLabel="Withdraw invite"
        busy={withdrawal.busy}
        error={withdrawal.error}
        onConfirm={() => void withdraw()}
      />
    </>
  );
}

const OPERATION_WORDS = ["view", "edit", "administer"];

/** "User · can edit Engineering, can view Operations": the role and spaces an invite gives. */
function whatItGives(invite: Invite): string {
  const spaces = invite.spaces.map((s) => `can ${OPERATION_WORDS[s.operation] ?? "view"} ${s.spaceName}`);
  return [invite.roleName, ...spaces].join(" · ");
}

function NewInvite() {
  const [email, setEmail] = useState("");
  const [days, setDays] = useState("7");
  const [roleId, setRoleId] = useState("");
  const [spaces, setSpaces] = useState<SpaceChoice>({});
  const [link, setLink] = useState<{ url: string; email: string | null; emailSent: boolean } | null>(null);
  const creation = useAction(useCreateInviteMutation(), {
    success: (answer) => (answer.email ? `${answer.email} is invited` : "Invite link made"),
    done: (answer) => {
      setLink({ url: window.location.origin + answer.path, email: answer.email, emailSent: answer.emailSent });
      setEmail("");
      setSpaces({});
    },
  });
  // Whether invites can be e-mailed (not until e-mail sending exists), so the card can say so.
  const emailStatus = useInviteEmailStatus();
  const notMailed = emailStatus.data && !emailStatus.data.enabled;
  const mailed = notMailed
    ? ` ${emailStatus.data?.reason ?? "Invites cannot be e-mailed yet: give each link to the person yourself."}`
    : "";
  const invite = () => {
    const grants = Object.entries(spaces).map(([spaceId, operation]) => ({ spaceId, operation }));
    return creation.run({
      email: email.trim() || null,
      expiresInDays: Number(days),
      sendEmail: !!email.trim(),
      ...(roleId ? { roleId } : {}),
      ...(grants.length ? { spaces: grants } : {}),
    });
  };
  return (
    <Card id="invite-title" title="Invite someone" intro={`They get a link to register; it works once.${mailed}`}>
      {link ? (
        <div className="pane-secret" role="status">
          <p>
            <strong>The invite link{link.email ? ` for ${link.email}` : ""}</strong>
            {link.emailSent
              ? " was e-mailed to them. You can also pass it on yourself:"
              : ": copy it now and send it to them; it is shown only this once."}
          </p>
          <code aria-label="Invite link">{link.url}</code>
          <Button size="sm" variant="primary" onClick={() => void copyText(link.url, "Invite link")}>
            Copy link
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setLink(null)}>
            Done
          </Button>
        </div>
      ) : null}
      <form
        className="pane-form"
        onSubmit={(e) => {
          e.preventDefault();
          void invite();
        }}
      >
        <TextField
          label="E-mail"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={creation.fieldError("email")}
          placeholder="name@example.com"
          hint="Leave empty for a link anyone can use once."
          autoComplete="off"
        />
        <div className="field">
          <label htmlFor="invite-days">The link works for</label>
          <select id="invite-days" className="input pane-select" value={days} onChange={(e) => setDays(e.target.value)}>
            <option value="1">1 day</option>
            <option value="7">7 days</option>
            <option value="30">30 days</option>
          </select>
        </div>
        <InviteAccessFields roleId={roleId} onRole={setRoleId} spaces={spaces} onSpaces={setSpaces} />
        <FormError error={creation.formError} />
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={creation.busy}>
            Make invite link
          </Button>
        </div>
      </form>
    </Card>
  );
}
