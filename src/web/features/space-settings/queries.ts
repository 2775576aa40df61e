/**
 * The data of a space's settings: its grants (asked for only when the space says the person
 * administers it, `space.canAdmin`), the groups, the accounts, templates, webhooks.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, ApiError, data } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import type { AnswerOf, BodyOf, Space, Template } from "../../api/types";

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

/** Runs a write again after the person confirmed their password, when the API asks (lib/reauth.tsx). */
type Guard = <T>(action: () => Promise<T>) => Promise<T>;
const unguarded: Guard = (action) => action();

/** The space's name, description, icon and tree style, saved together. */
export const useSpaceMutation = (spaceKey: string) =>
  useMutation({
    mutationFn: (body: BodyOf<"/api/spaces/{key}", "put">) =>
      data(api.PUT("/api/spaces/{key}", { params: { path: { key: spaceKey } }, body })),
    onSuccess: spaceChanged,
  });

export const usePublicReadingMutation = (spaceKey: string, guarded: Guard) =>
  useMutation({
    mutationFn: ({ isPublic, publicComments }: { isPublic?: boolean; publicComments?: boolean; said: string }) =>
      guarded(() =>
        data(api.PUT("/api/admin/spaces/{key}/public", { params: { path: { key: spaceKey } }, body: { isPublic, publicComments } })),
      ),
    onSuccess: (answer) => spaceChanged(answer as Space),
  });

export const useExportsMutation = (spaceKey: string) =>
  useMutation({
    mutationFn: (body: BodyOf<"/api/spaces/{key}/exports", "put">) =>
      data(api.PUT("/api/spaces/{key}/exports", { params: { path: { key: spaceKey } }, body })),
    onSuccess: spaceChanged,
  });

/** Archives the space, or (`false`) brings it back. */
export const useArchiveMutation = (spaceKey: string) =>
  useMutation({
    mutationFn: (archive: boolean) =>
      data(api.POST(archive ? "/api/spaces/{key}/archive" : "/api/spaces/{key}/unarchive", { params: { path: { key: spaceKey } } })),
    onSuccess: spaceChanged,
  });

/** Deletes the space for good; its cached answer goes and the space list is read again. */
export const useDeleteSpaceMutation = (spaceKey: string) =>
  useMutation({
    mutationFn: (body: { confirmKey: string; password: string }) =>
      api.DELETE("/api/spaces/{key}", { params: { path: { key: spaceKey } }, body }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: keys.space(spaceKey) });
      return queryClient.invalidateQueries({ queryKey: keys.spaces });
    },
  });

/** A grant given or changed (`operation`), or taken away (`revoke`: the grant's id), with what the screen says once it is done. */
export type GrantChange = ({ principalType: number; principalId: string; operation: number } | { principalId: string; revoke: string }) & {
  said: string;
};

export const useGrantMutation = (spaceKey: string, guarded: Guard = unguarded) =>
  useMutation({
    mutationFn: (change: GrantChange): Promise<unknown> =>
      guarded<unknown>(() =>
        "revoke" in change
          ? api.DELETE("/api/spaces/{key}/permissions/{id}", { params: { path: { key: spaceKey, id: change.revoke } } })
          : data(
              api.POST("/api/spaces/{key}/permissions", {
                params: { path: { key: spaceKey } },
                body: { principalType: change.principalType, principalId: change.principalId, operation: change.operation },
              }),
            ),
      ),
    // The space (its key prefixes the grants') is asked again too: its canEdit and canAdmin follow the grants.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: keys.space(spaceKey) }),
        queryClient.invalidateQueries({ queryKey: keys.spaces }),
      ]),
  });

export const useCreateWebhookMutation = (spaceKey: string) =>
  useMutation({
    mutationFn: (body: BodyOf<"/api/spaces/{key}/webhooks", "post">) =>
      data(api.POST("/api/spaces/{key}/webhooks", { params: { path: { key: spaceKey } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.webhooks(spaceKey) }),
  });

const EMPTY_DOC = JSON.stringify({ type: "doc", content: [{ type: "paragraph" }] });

/** A template's details saved (`template` given) or a new one made; `fromPage` copies that page's content into it. */
export const useSaveTemplateMutation = (space: Space) =>
  useMutation({
    mutationFn: async ({
      template,
      name,
      description,
      fromPage,
    }: {
      template: Template | null;
      name: string;
      description: string;
      fromPage: string;
    }) => {
      const contentJson = fromPage
        ? (await data(api.GET("/api/pages/{id}", { params: { path: { id: fromPage } } }))).contentJson
        : undefined;
      if (template) {
        await data(
          api.PUT("/api/templates/{id}", {
            params: { path: { id: template.id } },
            body: { name, description, ...(contentJson ? { contentJson } : {}) },
          }),
        );
        return { created: null, copied: !!contentJson };
      }
      const created = await data(
        api.POST("/api/templates", { body: { spaceId: space.id, name, description, contentJson: contentJson ?? EMPTY_DOC } }),
      );
      return { created, copied: !!contentJson };
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.templates(space.id) }),
  });

export const useTemplateContentMutation = (spaceId: string, templateId: string) =>
  useMutation({
    mutationFn: (contentJson: string) =>
      data(api.PUT("/api/templates/{id}", { params: { path: { id: templateId } }, body: { contentJson } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.templates(spaceId) }),
  });

export const useDeleteTemplateMutation = (spaceId: string) =>
  useMutation({
    mutationFn: (template: Template) => api.DELETE("/api/templates/{id}", { params: { path: { id: template.id } } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.templates(spaceId) }),
  });

export const useWebhookSwitchMutation = (spaceKey: string) =>
  useMutation({
    mutationFn: ({ hook, enabled }: { hook: Webhook; enabled: boolean }) =>
      data(api.PUT("/api/spaces/{key}/webhooks/{id}", { params: { path: { key: spaceKey, id: hook.id } }, body: { enabled } })),
    onSuccess: (updated) =>
      queryClient.setQueryData<Webhook[]>(settingsKeys.webhooks(spaceKey), (list) => list?.map((h) => (h.id === updated.id ? updated : h))),
  });

export const useDeleteWebhookMutation = (spaceKey: string) =>
  useMutation({
    mutationFn: (hook: Webhook) =>
      data(api.DELETE("/api/spaces/{key}/webhooks/{id}", { params: { path: { key: spaceKey, id: hook.id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.webhooks(spaceKey) }),
  });

export const useRedeliverMutation = (spaceKey: string, hookId: string) =>
  useMutation({
    mutationFn: (d: Delivery) =>
      data(
        api.POST("/api/spaces/{key}/webhooks/{id}/deliveries/{deliveryId}/redeliver", {
          params: { path: { key: spaceKey, id: hookId, deliveryId: d.id } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.deliveries(spaceKey, hookId) }),
  });
