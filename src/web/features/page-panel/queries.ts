/** What the page panel reads: comments, attachments, restrictions, and the people to name. */
import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
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
  return useQuery({ queryKey: panelKeys.comments(pageId), queryFn: () => data(api.GET("/api/pages/{id}/comments", { params: { path: { id: pageId } } })), enabled });
}

export function useAttachments(pageId: string) {
  return useQuery({ queryKey: panelKeys.attachments(pageId), queryFn: () => data(api.GET("/api/pages/{id}/attachments", { params: { path: { id: pageId } } })) });
}

export function useRestrictions(pageId: string) {
  return useQuery({ queryKey: panelKeys.restrictions(pageId), queryFn: () => data(api.GET("/api/pages/{id}/restrictions", { params: { path: { id: pageId } } })) });
}

export function useWatch(pageId: string) {
  return useQuery({ queryKey: panelKeys.watch(pageId), queryFn: () => data(api.GET("/api/pages/{id}/watch", { params: { path: { id: pageId } } })) });
}

export function useUsers() {
  return useQuery({ queryKey: keys.users, queryFn: () => data(api.GET("/api/users")), staleTime: 60_000 });
}

export function useGroups() {
  return useQuery({ queryKey: panelKeys.groups, queryFn: () => data(api.GET("/api/groups")), staleTime: 60_000 });
}
