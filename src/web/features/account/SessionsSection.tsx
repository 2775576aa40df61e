/** Where you are signed in: this device marked; end one session or every other one. */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, data } from "../../api/client";
import { queryClient } from "../../api/query-client";
import type { AnswerOf } from "../../api/types";
import { fullDate, timeAgo } from "../../lib/time";
import { Loading } from "../../app/Loading";
import { Button } from "../../ui/Button";
import { ConfirmDialog } from "../../ui/Dialog";
import { toast } from "../../ui/toast";
import { Card } from "./SectionsFrame";

type Session = AnswerOf<"/api/auth/me/sessions", "get">[number];
const KEY = ["account", "sessions"] as const;

/** "Firefox on Linux" out of a user agent, enough to tell devices apart. */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return "An unknown device";
  const browser = /Edg\//.test(userAgent) ? "Edge" : /Firefox\//.test(userAgent) ? "Firefox" : /Chrom(e|ium)\//.test(userAgent) ? "Chrome" : /Safari\//.test(userAgent) ? "Safari" : /curl\//.test(userAgent) ? "curl" : "A browser";
  const os = /Android/.test(userAgent) ? "Android" : /iPhone|iPad/.test(userAgent) ? "iOS" : /Windows/.test(userAgent) ? "Windows" : /Mac OS X/.test(userAgent) ? "macOS" : /Linux/.test(userAgent) ? "Linux" : null;
  return os ? `${browser} on ${os}` : browser;
}

export function SessionsSection() {
  const sessions = useQuery({ queryKey: KEY, queryFn: () => data(api.GET("/api/auth/me/sessions")) });
  const [ending, setEnding] = useState<Session | "others" | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const others = (sessions.data ?? []).filter((s) => !s.current);
  const end = async () => {
    if (!ending) return;
    setBusy(true);
    setError(null);
    try {
      if (ending === "others") await api.DELETE("/api/auth/me/sessions/others");
      else await api.DELETE("/api/auth/me/sessions/{id}", { params: { path: { id: ending.id } } });
      toast.success(ending === "others" ? "Every other session was signed out" : `${deviceOf(ending.userAgent)} was signed out`);
      setEnding(null);
      await queryClient.invalidateQueries({ queryKey: KEY });
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
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
      {sessions.isPending ? (
        <Loading />
      ) : sessions.isError ? (
        <p className="form-error" role="alert">The sessions could not be loaded: {sessions.error.message}</p>
      ) : (
        <ul className="pane-list" aria-label="Sessions">
          {[...sessions.data].sort((a, b) => Number(b.current) - Number(a.current)).map((s) => (
            <li key={s.id}>
              <div className="pane-list-text">
                <span className="pane-list-name">
                  {deviceOf(s.userAgent)}
                  {s.current ? <span className="pane-tag">This device</span> : null}
                </span>
                <span className="pane-list-meta">
                  {s.ip ? `${s.ip} · ` : ""}signed in <time dateTime={s.createdAt} title={fullDate(s.createdAt)}>{timeAgo(s.createdAt)}</time> · last active{" "}
                  <time dateTime={s.lastSeenAt} title={fullDate(s.lastSeenAt)}>{timeAgo(s.lastSeenAt)}</time>
                </span>
              </div>
              {s.current ? null : (
                <Button size="sm" onClick={() => setEnding(s)} aria-label={`Sign out ${deviceOf(s.userAgent)}, last active ${timeAgo(s.lastSeenAt)}`}>
                  Sign out
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {sessions.data && !others.length ? <p className="muted" style={{ marginBottom: 0 }}>You are signed in on this device only.</p> : null}
      <ConfirmDialog
        open={ending !== null}
        onOpenChange={(o) => {
          if (!o) setEnding(null);
          setError(null);
        }}
        title={ending === "others" ? "Sign out every other session?" : "Sign out this session?"}
        description={
          ending === "others"
            ? `${others.length} other ${others.length === 1 ? "session is" : "sessions are"} signed out at once; anyone using them must sign in again. This device stays signed in.`
            : ending
              ? `${deviceOf(ending.userAgent)}${ending.ip ? ` (${ending.ip})` : ""} is signed out at once and must sign in again.`
              : ""
        }
        confirmLabel="Sign out"
        busy={busy}
        error={error}
        onConfirm={() => void end()}
      />
    </Card>
  );
}
