/** The limits in force (rate limits, lockout, the detectors' thresholds) and the accounts locked now, with unlock. */
import { Link } from "wouter";
import { useMe } from "../../../app/session";
import { fullDate } from "../../../lib/time";
import { AsyncList } from "../../../ui/AsyncList";
import { Button } from "../../../ui/Button";
import { Card } from "../../../ui/SectionsFrame";
import { useAction } from "../../../lib/mutation";
import { useLimits, useUnlockMutation, type Limits } from "./queries";

const seconds = (s: number) => (s % 3600 === 0 ? `${s / 3600} h` : s % 60 === 0 ? `${s / 60} min` : `${s} s`);

function figures(s: Limits["settings"]): Array<[string, string]> {
  return [
    ["Requests per minute without signing in", `${s.anonymousRateLimitPerMinute} per address`],
    ["Wrong passwords per minute", `${s.loginRateLimitPerMinute} per address`],
    ["New API tokens per hour", `${s.tokenMintLimitPerHour} per account`],
    ["Wrong passwords before a lockout", String(s.lockoutThreshold)],
    ["First lockout lasts", seconds(s.lockoutBaseSeconds)],
    ["Longest lockout", seconds(s.lockoutMaxSeconds)],
    [
      "Locked for every address after",
      `${s.lockoutAccountFailures} wrong passwords from ${s.lockoutAccountAddresses} ` +
        `addresses in ${seconds(s.lockoutAccountWindowSeconds)}`,
    ],
  ];
}

export function LimitsCard() {
  const limits = useLimits();
  const me = useMe();
  const canUnlock = !!me.data?.permissions.includes("users.manage");
  const canChange = !!me.data?.permissions.includes("settings.manage");
  const unlocking = useAction(useUnlockMutation(), { success: (_answer, { email }) => `${email} can sign in again` });
  const busy = unlocking.pending?.userId ?? null;
  const error = unlocking.error && unlocking.failedWith ? { userId: unlocking.failedWith.userId, message: unlocking.error } : null;
  const unlock = (userId: string, email: string) => unlocking.run({ userId, email });
  return (
    <Card
      id="security-limits"
      title="Limits and lockouts"
      intro={
        <>
          How much an address or account may try before Cairn slows it down.{" "}
          {canChange ? (
            <>
              Change these figures in <Link href="/admin/settings">Settings</Link>.
            </>
          ) : (
            "An administrator who may change settings can change these figures."
          )}
        </>
      }
    >
      <AsyncList query={limits} what="The limits">
        {(answer) => (
          <>
            <dl className="sec-figures">
              {figures(answer.settings).map(([label, value]) => (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
            <h3 className="sec-subhead">Locked now</h3>
            {answer.lockouts.length ? (
              <ul className="pane-list" aria-label="Accounts locked now">
                {answer.lockouts.map((l) => (
                  <li key={`${l.userId}-${l.address ?? "all"}`}>
                    <div className="pane-list-text">
                      <span className="pane-list-name">{l.email}</span>
                      <span className="pane-list-meta">
                        {l.address ? `from ${l.address}` : "from every address"} · until <time dateTime={l.until}>{fullDate(l.until)}</time>
                      </span>
                      {error?.userId === l.userId ? (
                        <p className="form-error" role="alert" style={{ margin: "var(--space-1) 0 0" }}>
                          {error.message}
                        </p>
                      ) : null}
                    </div>
                    {canUnlock ? (
                      <Button
                        size="sm"
                        busy={busy === l.userId}
                        onClick={() => void unlock(l.userId, l.email)}
                        aria-label={`Unlock ${l.email}`}
                      >
                        Unlock
                      </Button>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted" style={{ margin: 0 }}>
                No account is locked. After {answer.settings.lockoutThreshold} wrong passwords from one address, the account is locked for
                that address for a while and listed here.
              </p>
            )}
            <h3 className="sec-subhead">What raises an alert</h3>
            <ul className="sec-detectors muted" style={{ margin: 0, paddingLeft: "1.2em" }}>
              {answer.detectors.map((d) => (
                <li key={d.name}>
                  {d.description} (within {d.windowMinutes} minutes)
                </li>
              ))}
            </ul>
          </>
        )}
      </AsyncList>
    </Card>
  );
}
