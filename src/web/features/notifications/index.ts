import { lazy } from "react";
// The list loads only when opened; the bell and the watch toggle are small and always there.
export const NotificationsScreen = lazy(() => import("./NotificationsScreen"));
export { NotificationBell } from "./NotificationBell";
export { WatchButton } from "./WatchButton";
export { useWatchMutation } from "./queries";
