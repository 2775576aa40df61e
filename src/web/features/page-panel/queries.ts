/** What the page panel reads (comments, attachments, restrictions, the people to name) and writes. */
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import type { AnswerOf } from "../../api/types";

export type Comment = AnswerOf<"/api/pages/{id}/comments", "get">[number];
export type Attachment = AnswerOf<"/api/pages/{id}/attachments", "get">[number];
export type Restriction = AnswerOf<"/api/pages/{id}/restrictions", "get">[number];
export type Group = AnswerOf<"/api/groups", "get">[number];

export const panelKeys = {
  comments: (pageId: string) => ["page", pageId, "comments"] as const,
  attachments: (pageId: string) => ["page", pageId, "attachments"] as const,
  restrictions: (pageId: string) => ["page", pageId, "restrictions"] as const,
  watch: (pageId: string) => ["page", pageId, "watch"] as const,
  groups: ["groups"] as const,
};

export function useComments(pageId: string, enabled = true) {
  return useQuery({
    queryKey: panelKeys.comments(pageId),
    queryFn: () => data(api.GET("/api/pages/{id}/comments", { params: { path: { id: pageId } } })),
    enabled,
  });
}

export function useAttachments(pageId: string) {
  return useQuery({
    queryKey: panelKeys.attachments(pageId),
    queryFn: () => data(api.GET("/api/pages/{id}/attachments", { params: { path: { id: pageId } } })),
  });
}

export function useRestrictions(pageId: string) {
  return useQuery({
    queryKey: panelKeys.restrictions(pageId),
    queryFn: () => data(api.GET("/api/pages/{id}/restrictions", { params: { path: { id: pageId } } })),
  });
}

export function useWatch(pageId: string) {
  return useQuery({
    queryKey: panelKeys.watch(pageId),
    queryFn: () => data(api.GET("/api/pages/{id}/watch", { params: { path: { id: pageId } } })),
  });
}

export function useUsers() {
  return useQuery({ queryKey: keys.users, queryFn: () => data(api.GET("/api/users")), staleTime: 60_000 });
}

export function useGroups() {
  return useQuery({ queryKey: panelKeys.groups, queryFn: () => data(api.GET("/api/groups")), staleTime: 60_000 });
}

/** One change to a page's comments: a new comment or reply, an edit, a deletion, a thread resolved or reopened. */
export type CommentChange =
  | { kind: "post"; body: string; anchorJson?: string | null; parentCommentId?: string }
  | { kind: "edit"; id: string; body: string }
  | { kind: "delete"; id: string }
  | { kind: "resolve" | "reopen"; id: string };

export const useCommentMutation = (pageId: string) =>
  useMutation({
    mutationFn: (change: CommentChange): Promise<Comment | unknown> => {
      if (change.kind === "post") {
        const body = {
          body: change.body,
          ...(change.parentCommentId ? { parentCommentId: change.parentCommentId } : { anchorJson: change.anchorJson ?? null }),
        };
        return data(api.POST("/api/pages/{id}/comments", { params: { path: { id: pageId } }, body }));
      }
      const path = { id: change.id };
      if (change.kind === "edit") return data(api.PUT("/api/comments/{id}", { params: { path }, body: { body: change.body } }));
      if (change.kind === "delete") return data(api.DELETE("/api/comments/{id}", { params: { path } }));
      return data(api.POST(change.kind === "resolve" ? "/api/comments/{id}/resolve" : "/api/comments/{id}/reopen", { params: { path } }));
    },
    // A new top-level comment opens at once: its list is read again without waiting.
    onSuccess: (_answer, change) => {
      const refreshed = queryClient.invalidateQueries({ queryKey: panelKeys.comments(pageId) });
      return change.kind === "post" && !change.parentCommentId ? undefined : refreshed;
    },
  });

/**
 * A restriction added (who, and view or edit) or removed, with the words said once done; the tree
 * shows restricted pages, so it is read again too.
 */
export const useRestrictionMutation = (page: { id: string; spaceId: string }) =>
  useMutation({
    mutationFn: (
      change: ({ principalType: 0 | 1; principalId: string; operation: 0 | 1 } | { remove: string }) & { said: string },
    ): Promise<unknown> =>
      "remove" in change
        ? data(
            api.DELETE("/api/pages/{id}/restrictions/{restrictionId}", { params: { path: { id: page.id, restrictionId: change.remove } } }),
          )
        : data(
            api.POST("/api/pages/{id}/restrictions", {
              params: { path: { id: page.id } },
              body: { principalType: change.principalType, principalId: change.principalId, operation: change.operation },
            }),
          ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: panelKeys.restrictions(page.id) });
      void queryClient.invalidateQueries({ queryKey: keys.tree(page.spaceId) });
    },
  });

export const useDeleteAttachmentMutation = (pageId: string) =>
  useMutation({
    mutationFn: (file: Attachment) => data(api.DELETE("/api/attachments/{id}", { params: { path: { id: file.id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: panelKeys.attachments(pageId) }),
  });
