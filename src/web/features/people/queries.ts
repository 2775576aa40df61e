/** People, invites and groups through the typed client. */
import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import type { AnswerOf } from "../../api/types";

export const peopleKeys = {
  invites: ["people", "invites"] as const,
  groups: ["people", "groups"] as const,
  members: (id: string) => ["people", "groups", id, "members"] as const,
};

export const useDirectory = () => useQuery({ queryKey: keys.users, queryFn: () => data(api.GET("/api/users")) });
export const useInvites = () => useQuery({ queryKey: peopleKeys.invites, queryFn: () => data(api.GET("/api/admin/invites")) });
/** The roles and spaces this person's invites may give (GET /api/admin/invites/options). */
export const useInviteOptions = () => useQuery({ queryKey: [...peopleKeys.invites, "options"], queryFn: () => data(api.GET("/api/admin/invites/options")) });
export const useInviteEmailStatus = () => useQuery({ queryKey: [...peopleKeys.invites, "email"], queryFn: () => data(api.GET("/api/admin/invites/email")), staleTime: 5 * 60_000 });
export const useGroups = () => useQuery({ queryKey: peopleKeys.groups, queryFn: () => data(api.GET("/api/groups")) });
export const useMembers = (id: string) => useQuery({ queryKey: peopleKeys.members(id), queryFn: () => data(api.GET("/api/groups/{id}/members", { params: { path: { id } } })) });

export type Group = AnswerOf<"/api/groups", "get">[number];
