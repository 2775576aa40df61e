/** Where you are signed in: this device marked; end one session or every other one. */
import { useState } from "react";
import { useAction } from "../../lib/mutation";
import { fullDate, timeAgo } from "../../lib/time";
import { AsyncList } from "../../ui/AsyncList";
import { Button } from "../../ui/Button";
import { ConfirmDialog } from "../../ui/Dialog";
import { Card } from "../../ui/SectionsFrame";
import { useEndSessionMutation, useSessions, type Session } from "./queries";

/** "Firefox on Linux" out of a user agent, enough to tell devices apart. */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return "An unknown device";
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Firefox\//.test(userAgent)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : /curl\//.test(userAgent)
            ? "curl"
            : "A browser";
  const os = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
      ? "iOS"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /Mac OS X/.test(userAgent)
          ? "macOS"
          : /Linux/.test(userAgent)
            ? "Linux"
            : null;
  return os ? `${browser} on ${os}` : browser;
}

export function SessionsSection() {
  const sessions = useSessions();
  const [ending, setEnding] = useState<Session | "others" | null>(null);
  const endSession = useAction(useEndSessionMutation(), {
    success: (_answer, ended) =>
      ended === "others" ? "Every other session was signed out" : `${deviceOf(ended.userAgent)} was signed out`,
    done: () => setEnding(null),
  });
  const others = (sessions.data ?? []).filter((s) => !s.current);
  const end = () => ending && endSession.run(ending);
  return (
    <Card
      id="sessions-title"
      title="Where you are signed in"
      intro="Each browser you signed in from. Sign out one you do not recognise, or every one but this."
      action={
        others.length ? (
          <Button size="sm" onClick={() => setEnding("others")}>
            Sign out all others
          </Button>
        ) : null
      }
    >
      <AsyncList query={sessions} what="The sessions">
        {(items) => (
          <ul className="pane-list" aria-label="Sessions">
            {[...items]
              .sort((a, b) => Number(b.current) - Number(a.current))
              .map((s) => (
                <li key={s.id}>
                  <div className="pane-list-text">
                    <span className="pane-list-name">
                      {deviceOf(s.userAgent)}
                      {s.current ? <span className="pane-tag">This device</span> : null}
                    </span>
                    <span className="pane-list-meta">
                      {s.ip ? `${s.ip} · ` : ""}signed in{" "}
                      <time dateTime={s.createdAt} title={fullDate(s.createdAt)}>
                        {timeAgo(s.createdAt)}
                      </time>{" "}
                      · last active{" "}
                      <time dateTime={s.lastSeenAt} title={fullDate(s.lastSeenAt)}>
                        {timeAgo(s.lastSeenAt)}
                      </time>
                    </span>
                  </div>
                  {s.current ? null : (
                    <Button
                      size="sm"
                      onClick={() => setEnding(s)}
                      aria-label={`Sign out ${deviceOf(s.userAgent)}, last active ${timeAgo(s.lastSeenAt)}`}
                    >
                      Sign out
                    </Button>
                  )}
                </li>
              ))}
          </ul>
        )}
      </AsyncList>
      {sessions.data && !others.length ? (
        <p className="muted" style={{ marginBottom: 0 }}>
          You are signed in on this device only.
        </p>
      ) : null}
      <ConfirmDialog
        open={ending !== null}
        onOpenChange={(o) => {
          if (!o) setEnding(null);
          endSession.setError(null);
        }}
        title={ending === "others" ? "Sign out every other session?" : "Sign out this session?"}
        description={
          ending === "others"
            ? `${others.length} other ${others.length === 1 ? "session is" : "sessions are"} signed out at ` +
              `once; anyone using them must sign in again. This device stays signed in.`
            : ending
              ? `${deviceOf(ending.userAgent)}${ending.ip ? ` (${ending.ip})` : ""} is signed out at once and must sign in again.`
              : ""
        }
        confirmLabel="Sign out"
        busy={endSession.busy}
        error={endSession.error}
        onConfirm={() => void end()}
      />
    </Card>
  );
}
