/**
 * The bell in the top bar: the number of unread notifications (polled every 30 s and on focus)
 * and the way to the list. Small, so it rides in the main bundle; the list itself loads lazily.
 */
import { useEffect } from "react";
import { Link } from "wouter";
import { Bell } from "./icons";
import { useUnreadCount } from "./queries";
import "./notifications.css";

export function NotificationBell() {
  const unread = useUnreadCount(true);
  const { refetch } = unread;
  // TanStack refetches on visibilitychange only; coming back from another window counts too.
  useEffect(() => {
    const onFocus = () => void refetch();
    window.addEventListener("focus", onFocus);
    return () => window.removeEventListener("focus", onFocus);
  }, [refetch]);
  const count = unread.data ?? 0;
  const label = count ? `Notifications, ${count} unread` : "Notifications";
  return (
    <Link href="/notifications" className="btn btn-ghost btn-icon bell" aria-label={label} title={label}>
      <Bell size={18} aria-hidden="true" />
      {count ? (
        <span className="bell-count" aria-hidden="true">
          {count > 99 ? "99+" : count}
        </span>
      ) : null}
    </Link>
  );
}
