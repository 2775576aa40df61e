/**
 * The data of a space's settings: its grants (asked for only when the space says the person
 * administers it, `space.canAdmin`), the groups, the accounts, templates, webhooks.
 */
import { useQuery } from "@tanstack/react-query";
import { api, ApiError, data } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import type { AnswerOf, Space } from "../../api/types";

export type Grant = AnswerOf<"/api/spaces/{key}/permissions", "get">[number];
export type Group = AnswerOf<"/api/groups", "get">[number];
export type Webhook = AnswerOf<"/api/spaces/{key}/webhooks", "get">[number];
export type Delivery = AnswerOf<"/api/spaces/{key}/webhooks/{id}/deliveries", "get">[number];
export type WebhookEvent = AnswerOf<"/api/webhooks/events", "get">[number];

export const settingsKeys = {
  grants: (key: string) => ["space", key, "grants"] as const,
  groups: ["groups"] as const,
  webhooks: (key: string) => ["space", key, "webhooks"] as const,
  deliveries: (key: string, id: string) => ["space", key, "webhooks", id] as const,
  webhookEvents: ["webhook-events"] as const,
};

/** The event types a webhook can subscribe to, with their plain words (the server's catalogue). */
export function useWebhookEvents() {
  return useQuery({ queryKey: settingsKeys.webhookEvents, queryFn: () => data(api.GET("/api/webhooks/events")), staleTime: Infinity });
}

export const OPERATIONS = ["View", "Edit", "Admin"] as const;

export function useGrants(spaceKey: string, enabled = true) {
  return useQuery({
    queryKey: settingsKeys.grants(spaceKey),
    queryFn: () => data(api.GET("/api/spaces/{key}/permissions", { params: { path: { key: spaceKey } } })),
    enabled,
    // A 403 (the person lost Admin since the space was read) is an answer, not a failure to retry.
    retry: false,
  });
}

export function useGroups() {
  return useQuery({ queryKey: settingsKeys.groups, queryFn: () => data(api.GET("/api/groups")), staleTime: 60_000 });
}

export function useUsers() {
  return useQuery({ queryKey: keys.users, queryFn: () => data(api.GET("/api/users")), staleTime: 60_000 });
}

/** After the space changed: the answer in its cache, and the lists that show it refreshed. */
export function spaceChanged(space: Space): void {
  queryClient.setQueryData(keys.space(space.key), space);
  void queryClient.invalidateQueries({ queryKey: keys.spaces });
}

/** The words to show for a failed call: the server's own detail, else a plain fallback. */
export function problemText(err: unknown, fallback = "That did not work. Try again in a moment."): string {
  if (err instanceof ApiError) return err.message || fallback;
  return fallback;
}
