/**
 * Notifications and watches through the typed client. The unread count polls every 30 s and
 * again when the window gets focus, so the bell follows while the app stays open.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { queryClient } from "../../api/query-client";
import type { AnswerOf } from "../../api/types";

export type Notification = AnswerOf<"/api/notifications", "get">[number];

export const notificationKeys = {
  all: ["notifications"] as const,
  unread: ["notifications", "unread"] as const,
  list: ["notifications", "list"] as const,
  watch: (kind: "page" | "space", id: string) => ["watch", kind, id] as const,
};

export const POLL_MS = 30_000;

export function useUnreadCount(enabled: boolean) {
  return useQuery({
    queryKey: notificationKeys.unread,
    queryFn: async () => (await data(api.GET("/api/notifications/unread-count"))).count,
    enabled,
    refetchInterval: POLL_MS,
    refetchOnWindowFocus: "always",
  });
}

export function useNotifications() {
  return useQuery({
    queryKey: notificationKeys.list,
    queryFn: () => data(api.GET("/api/notifications", { params: { query: { take: 100 } } })),
    refetchInterval: POLL_MS,
    refetchOnWindowFocus: "always",
  });
}

const refresh = () => queryClient.invalidateQueries({ queryKey: notificationKeys.all });

export function useMarkRead() {
  return useMutation({
    mutationFn: (id: string) => api.POST("/api/notifications/{id}/read", { params: { path: { id } } }),
    onSettled: refresh,
  });
}

export function useMarkAllRead() {
  return useMutation({ mutationFn: () => api.POST("/api/notifications/read-all"), onSettled: refresh });
}

/** Whether the signed-in person watches a page (by id) or a space (by key). */
export function useWatch(kind: "page" | "space", id: string, enabled: boolean) {
  return useQuery({
    queryKey: notificationKeys.watch(kind, id),
    queryFn: async () =>
      (kind === "page"
        ? await data(api.GET("/api/pages/{id}/watch", { params: { path: { id } } }))
        : await data(api.GET("/api/spaces/{key}/watch", { params: { path: { key: id } } }))
      ).watching,
    enabled,
  });
}

export async function setWatch(kind: "page" | "space", id: string, watching: boolean): Promise<boolean> {
  const answer =
    kind === "page"
      ? await data(
          watching
            ? api.POST("/api/pages/{id}/watch", { params: { path: { id } } })
            : api.DELETE("/api/pages/{id}/watch", { params: { path: { id } } }),
        )
      : await data(
          watching
            ? api.POST("/api/spaces/{key}/watch", { params: { path: { key: id } } })
            : api.DELETE("/api/spaces/{key}/watch", { params: { path: { key: id } } }),
        );
  queryClient.setQueryData(notificationKeys.watch(kind, id), answer.watching);
  // The page panel's details read the same state with its watcher count: fetch it afresh.
  if (kind === "page") void queryClient.invalidateQueries({ queryKey: ["page", id, "watch"], exact: true });
  return answer.watching;
}

/** Watching a page or a space switched on or off; answers whether it is watched now. */
export const useWatchMutation = (kind: "page" | "space", id: string) =>
  useMutation({ mutationFn: (on: boolean) => setWatch(kind, id, on) });
