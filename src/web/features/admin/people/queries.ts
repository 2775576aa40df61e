/** Administering people through the typed client: the accounts, and the roles one may give. */
import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../../api/client";
import { queryClient } from "../../../api/query-client";
import type { AnswerOf } from "../../../api/types";

export type Person = AnswerOf<"/api/admin/users", "get">[number];
export type ResetLink = AnswerOf<"/api/admin/users/{userId}/reset-password", "post">;

export const adminPeopleKeys = {
  people: ["admin", "people"] as const,
  roles: ["admin", "people", "roles"] as const,
};

export const usePeople = () => useQuery({ queryKey: adminPeopleKeys.people, queryFn: () => data(api.GET("/api/admin/users")) });

export interface RoleChoice {
  id: string;
  name: string;
  tier: number;
  description: string;
}

/** The built-in roles one can give here (the Owner tier moves only by transferring ownership). */
export const BUILT_IN_CHOICES: RoleChoice[] = [
  { id: "00000000-0000-7000-8000-000000000001", name: "User", tier: 0, description: "Reads and writes in the spaces they are given" },
  { id: "00000000-0000-7000-8000-000000000002", name: "Administrator", tier: 1, description: "Runs the instance day to day" },
];

/**
 * Every role below the Owner tier, custom ones included, when the account may read the roles
 * (roles.manage); otherwise the two built-in ones.
 */
export function useRoleChoices(canReadRoles: boolean) {
  return useQuery({
    queryKey: [...adminPeopleKeys.roles, canReadRoles],
    queryFn: async (): Promise<RoleChoice[]> => {
      if (!canReadRoles) return BUILT_IN_CHOICES;
      const answer = await data(api.GET("/api/admin/roles"));
      return answer.roles.filter((r) => r.tier < 2).map((r) => ({ id: r.id, name: r.name, tier: r.tier, description: r.description }));
    },
  });
}

export const refreshPeople = () => queryClient.invalidateQueries({ queryKey: adminPeopleKeys.people });

const userPath = (userId: string) => ({ params: { path: { userId } } });

export const peopleApi = {
  setRole: (userId: string, roleId: string) => data(api.PUT("/api/admin/users/{userId}/role", { ...userPath(userId), body: { roleId } })),
  setStatus: (userId: string, status: number) =>
    data(api.PUT("/api/admin/users/{userId}/status", { ...userPath(userId), body: { status } })),
  resetLink: (userId: string) => data(api.POST("/api/admin/users/{userId}/reset-password", userPath(userId))),
  revokeSessions: (userId: string) => data(api.POST("/api/admin/users/{userId}/revoke-sessions", userPath(userId))),
  revokeTokens: (userId: string) => data(api.POST("/api/admin/users/{userId}/revoke-tokens", userPath(userId))),
  unlock: (userId: string) => api.POST("/api/admin/users/{userId}/unlock", userPath(userId)),
  disableTwoFactor: (userId: string) => api.POST("/api/admin/users/{userId}/disable-two-factor", userPath(userId)),
  transferOwnership: (userId: string) => data(api.POST("/api/admin/users/{userId}/transfer-ownership", userPath(userId))),
};
