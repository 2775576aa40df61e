/**
 * Your notifications, newest first: who did what where, each linked to the page (following a
 * link marks it read); mark one or all read. Loaded lazily, when first opened.
 */
import { useState } from "react";
import { Link } from "wouter";
import { fullDate, timeAgo } from "../../lib/time";
import { useTitle } from "../../lib/title";
import { AsyncList } from "../../ui/AsyncList";
import { Button } from "../../ui/Button";
import { EmptyState } from "../../ui/EmptyState";
import { toast } from "../../ui/toast";
import { describe } from "./describe";
import { CheckCheck } from "./icons";
import { useMarkAllRead, useMarkRead, useNotifications, type Notification } from "./queries";
import "./notifications.css";

export default function NotificationsScreen() {
  useTitle("Notifications");
  const list = useNotifications();
  const markAll = useMarkAllRead();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const all = list.data ?? [];
  const shown = unreadOnly ? all.filter((n) => !n.readAt) : all;
  const unread = all.filter((n) => !n.readAt).length;
  return (
    <main id="main" className="main-column">
      <div className="notif-head">
        <h1>Notifications</h1>
        <Button
          size="sm"
          disabled={!unread}
          busy={markAll.isPending}
          onClick={() =>
            markAll.mutate(undefined, {
              onSuccess: () => toast.success("All notifications marked read"),
              onError: (e) => toast.error((e as Error).message),
            })
          }
        >
          <CheckCheck size={15} aria-hidden="true" /> Mark all read
        </Button>
      </div>
      <AsyncList query={list} what="The notifications">
        {() =>
          !all.length ? (
            <EmptyState title="Nothing to tell you yet">
              You are told here when someone edits or comments on a page you watch, mentions you, or creates a page in a space you watch.
              Pages you create or edit are watched for you; use Watch at the top of a page or a space for others.
            </EmptyState>
          ) : (
            <>
              <div className="notif-filter" role="group" aria-label="Show">
                <Button
                  size="sm"
                  variant={unreadOnly ? "ghost" : "secondary"}
                  aria-pressed={!unreadOnly}
                  onClick={() => setUnreadOnly(false)}
                >
                  All ({all.length})
                </Button>
                <Button
                  size="sm"
                  variant={unreadOnly ? "secondary" : "ghost"}
                  aria-pressed={unreadOnly}
                  onClick={() => setUnreadOnly(true)}
                >
                  Unread ({unread})
                </Button>
              </div>
              {shown.length ? (
                <ul className="notif-list" aria-label="Notifications">
                  {shown.map((n) => (
                    <Entry key={n.id} n={n} />
                  ))}
                </ul>
              ) : (
                <p className="muted">Everything is read. New notifications appear here as they come.</p>
              )}
            </>
          )
        }
      </AsyncList>
    </main>
  );
}

function Entry({ n }: { n: Notification }) {
  const markRead = useMarkRead();
  const d = describe(n);
  const read = () => {
    if (!n.readAt) markRead.mutate(n.id);
  };
  return (
    <li className={n.readAt ? undefined : "notif-unread"}>
      <span className="notif-dot" aria-hidden="true" />
      <div className="notif-text">
        <p>
          {n.readAt ? null : <span className="visually-hidden">Unread: </span>}
          {d.who} {d.what}{" "}
          {d.where ? (
            d.href ? (
              <Link href={d.href} onClick={read}>
                {d.where}
              </Link>
            ) : (
              <strong>{d.where}</strong>
            )
          ) : null}
          {d.space ? <span className="muted"> in {d.space}</span> : null}
        </p>
        {d.excerpt ? <p className="notif-excerpt">“{d.excerpt}”</p> : null}
        <time className="notif-when" dateTime={n.createdAt} title={fullDate(n.createdAt)}>
          {timeAgo(n.createdAt)}
        </time>
      </div>
      {n.readAt ? null : (
        <Button
          size="sm"
          variant="ghost"
          onClick={read}
          busy={markRead.isPending}
          aria-label={`Mark read: ${d.who} ${d.what} ${d.where ?? ""}`.trim()}
        >
          Mark read
        </Button>
      )}
    </li>
  );
}
