/** People, invites and groups through the typed client. */
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import type { AnswerOf, BodyOf } from "../../api/types";

export const peopleKeys = {
  invites: ["people", "invites"] as const,
  groups: ["people", "groups"] as const,
  members: (id: string) => ["people", "groups", id, "members"] as const,
};

export const useDirectory = () => useQuery({ queryKey: keys.users, queryFn: () => data(api.GET("/api/users")) });
export const useInvites = () => useQuery({ queryKey: peopleKeys.invites, queryFn: () => data(api.GET("/api/admin/invites")) });
/** The roles and spaces this person's invites may give (GET /api/admin/invites/options). */
export const useInviteOptions = () =>
  useQuery({ queryKey: [...peopleKeys.invites, "options"], queryFn: () => data(api.GET("/api/admin/invites/options")) });
export const useInviteEmailStatus = () =>
  useQuery({ queryKey: [...peopleKeys.invites, "email"], queryFn: () => data(api.GET("/api/admin/invites/email")), staleTime: 5 * 60_000 });
export const useGroups = () => useQuery({ queryKey: peopleKeys.groups, queryFn: () => data(api.GET("/api/groups")) });
export const useMembers = (id: string) =>
  useQuery({ queryKey: peopleKeys.members(id), queryFn: () => data(api.GET("/api/groups/{id}/members", { params: { path: { id } } })) });

export type Group = AnswerOf<"/api/groups", "get">[number];
export type Invite = AnswerOf<"/api/admin/invites", "get">[number];

export const useCreateGroupMutation = () =>
  useMutation({
    mutationFn: (name: string) => data(api.POST("/api/groups", { body: { name } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleKeys.groups }),
  });

/** One change to a custom group: its name, a member added or removed, or the group deleted. */
export type GroupChange =
  | { kind: "rename"; name: string }
  | { kind: "add"; userId: string; name: string }
  | { kind: "remove"; userId: string; name: string }
  | { kind: "delete" };

export const useGroupChangeMutation = (groupId: string) =>
  useMutation({
    mutationFn: (change: GroupChange): Promise<unknown> => {
      const path = { id: groupId };
      if (change.kind === "rename") return data(api.PUT("/api/groups/{id}", { params: { path }, body: { name: change.name } }));
      if (change.kind === "add") return api.POST("/api/groups/{id}/members", { params: { path }, body: { userId: change.userId } });
      if (change.kind === "remove")
        return api.DELETE("/api/groups/{id}/members/{userId}", { params: { path: { ...path, userId: change.userId } } });
      return api.DELETE("/api/groups/{id}", { params: { path } });
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: peopleKeys.members(groupId) }),
        queryClient.invalidateQueries({ queryKey: peopleKeys.groups }),
      ]),
  });

export const useCreateInviteMutation = () =>
  useMutation({
    mutationFn: (body: BodyOf<"/api/admin/invites", "post">) => data(api.POST("/api/admin/invites", { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleKeys.invites }),
  });

export const useWithdrawInviteMutation = () =>
  useMutation({
    mutationFn: (invite: Invite) => api.DELETE("/api/admin/invites/{id}", { params: { path: { id: invite.id } } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleKeys.invites }),
  });
