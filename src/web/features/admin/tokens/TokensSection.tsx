/**
 * Everyone's API tokens (/admin/tokens, right tokens.manage): requests made with tokens per day,
 * every token with its owner and last use, one token's activity, and revoking a token (confirmed
 * naming the token and its owner). Loaded when first opened.
 */
import { useState } from "react";
import { Link } from "wouter";
import { Loading } from "../../../app/Loading";
import { fullDate, timeAgo } from "../../../lib/time";
import { AsyncList } from "../../../ui/AsyncList";
import { Button } from "../../../ui/Button";
import { ConfirmDialog } from "../../../ui/Dialog";
import { Card } from "../../../ui/SectionsFrame";
import { DayBars } from "../../../ui/DayBars";
import { plural } from "../../../lib/format";
import { useAction } from "../../../lib/mutation";
import { TokenActivityDialog } from "./TokenActivityDialog";
import { useAllTokens, useRevokeTokenMutation, useTokenSummary, type AdminToken } from "./queries";
import "../dashboard/dashboard.css";
import "./tokens.css";

const SUMMARY_DAYS = 30;
const STATE_LABEL = { active: "Active", expired: "Expired", revoked: "Revoked" } as const;

export default function TokensSection() {
  return (
    <>
      <SummaryCard />
      <TokensCard />
    </>
  );
}

function SummaryCard() {
  const summary = useTokenSummary(SUMMARY_DAYS);
  return (
    <Card
      id="tokens-summary"
      title="Token use"
      intro={`Requests made with API tokens in the last ${SUMMARY_DAYS} days, counted per day (up to a minute behind).`}
    >
      <AsyncList query={summary} what="The token summary">
        {(answer) => (
          <>
            <p className="tok-totals">
              {plural(answer.totals.requests, "request")} · {plural(answer.totals.created, "token")} created ·{" "}
              {answer.totals.revoked.toLocaleString("en")} revoked
            </p>
            {answer.totals.requests ? (
              <DayBars
                days={answer.days.map((d) => ({ day: d.day, value: d.requests }))}
                label={`Requests made with tokens, last ${SUMMARY_DAYS} days`}
                unit="request"
              />
            ) : (
              <p className="dash-empty">No script or tool used a token in the last {SUMMARY_DAYS} days.</p>
            )}
          </>
        )}
      </AsyncList>
    </Card>
  );
}

function TokensCard() {
  const tokens = useAllTokens();
  const [showAll, setShowAll] = useState(false);
  const [revoking, setRevoking] = useState<AdminToken | null>(null);
  const [viewing, setViewing] = useState<AdminToken | null>(null);
  const revocation = useAction(useRevokeTokenMutation(), {
    success: (_answer, token) => `"${token.name}" is revoked`,
    done: () => setRevoking(null),
  });
  const { busy, error, setError } = revocation;
  const revoke = () => revoking && revocation.run(revoking);
  const all = tokens.data ?? [];
  const shown = showAll ? all : all.filter((t) => t.state === "active");
  const hidden = all.length - shown.length;
  return (
    <Card
      id="tokens-all"
      title="Every API token"
      intro={
        "Tokens let scripts and tools act as the person who made them. Revoke one that " +
        "leaked or that nobody uses: it stops working at once."
      }
    >
      {all.length && (hidden || showAll) ? (
        <label className="tok-toggle">
          <input type="checkbox" checked={showAll} onChange={(e) => setShowAll(e.target.checked)} /> Show revoked and expired (
          {plural(all.filter((t) => t.state !== "active").length, "token")})
        </label>
      ) : null}
      {tokens.isPending ? (
        <Loading />
      ) : tokens.isError ? (
        <p className="form-error" role="alert">
          The tokens could not be loaded: {tokens.error.message}
        </p>
      ) : shown.length ? (
        <ul className="pane-list" aria-label="API tokens">
          {shown.map((t) => (
            <li key={t.id}>
              <div className="pane-list-text">
                <span className="pane-list-name">
                  {t.name} <code className="tok-prefix">{t.prefix}…</code>
                  {t.readOnly ? <span className="tok-badge">Read-only</span> : null}
                  {t.state !== "active" ? <span className="tok-badge tok-badge-off">{STATE_LABEL[t.state]}</span> : null}
                </span>
                <span>
                  {t.owner.displayName} <span className="pane-list-meta">{t.owner.email}</span>
                </span>
                <span className="pane-list-meta">
                  {t.lastUsedAt ? (
                    <>
                      last used <When at={t.lastUsedAt} /> ({plural(t.useCount, "request")})
                    </>
                  ) : (
                    "never used"
                  )}{" "}
                  · made <When at={t.createdAt} />
                  {t.expiresAt && t.state === "active" ? (
                    <>
                      {" "}
                      · expires <time dateTime={t.expiresAt}>{fullDate(t.expiresAt)}</time>
                    </>
                  ) : null}
                  {t.revokedAt ? (
                    <>
                      {" "}
                      · revoked <When at={t.revokedAt} />
                    </>
                  ) : null}
                </span>
              </div>
              <div className="tok-actions">
                <Button size="sm" onClick={() => setViewing(t)} aria-label={`Activity of ${t.name} (${t.owner.displayName})`}>
                  Activity
                </Button>
                {t.state === "active" ? (
                  <Button
                    size="sm"
                    variant="danger"
                    onClick={() => setRevoking(t)}
                    aria-label={`Revoke ${t.name} (${t.owner.displayName})`}
                  >
                    Revoke
                  </Button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      ) : all.length ? (
        <p className="dash-empty">
          Every token is revoked or expired: nothing can act through one now. Tick “Show revoked and expired” to see them.
        </p>
      ) : (
        <p className="dash-empty">
          Nobody has made an API token yet. People make their own under <Link href="/account/tokens">Account → API tokens</Link>, to let a
          script read or write as them; they all appear here.
        </p>
      )}
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(o) => {
          if (!o) setRevoking(null);
          setError(null);
        }}
        title={`Revoke “${revoking?.name ?? ""}”?`}
        description={
          revoking
            ? `${revoking.owner.displayName}'s token (${revoking.prefix}…) stops working at once: every script or tool ` +
              `using it is refused from its next request. This cannot be undone; they can make a new one.`
            : ""
        }
        confirmLabel="Revoke token"
        busy={busy}
        error={error}
        onConfirm={() => void revoke()}
      />
      <TokenActivityDialog token={viewing} onClose={() => setViewing(null)} />
    </Card>
  );
}

export function When({ at }: { at: string }) {
  return (
    <time dateTime={at} title={fullDate(at)}>
      {timeAgo(at)}
    </time>
  );
}
