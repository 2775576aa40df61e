/** Roles and the rights matrix through the typed client. */
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, data } from "../../../api/client";
import { queryClient } from "../../../api/query-client";
import type { AnswerOf, BodyOf } from "../../../api/types";

export type RolesAnswer = AnswerOf<"/api/admin/roles", "get">;
export type Role = RolesAnswer["roles"][number];
export type RightInfo = RolesAnswer["rights"][number];

export const rolesKey = ["admin", "roles"] as const;

export const useRoles = () => useQuery({ queryKey: rolesKey, queryFn: () => data(api.GET("/api/admin/roles")) });

/** After a change: the matrix, and the people section's role names and counts. */
export const refreshRoles = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: rolesKey }),
    queryClient.invalidateQueries({ queryKey: ["admin", "people"] }),
    queryClient.invalidateQueries({ queryKey: ["me"] }),
  ]);

export const TIER_NAMES = ["Member", "Admin", "Owner"] as const;

/** How the matrix names an area (the server's keys are one word each). */
export const AREA_LABELS: Record<string, string> = {
  people: "People",
  roles: "Roles",
  settings: "Settings",
  branding: "Branding",
  security: "Security",
  tokens: "API tokens",
  dashboard: "Dashboard",
  spaces: "Spaces",
  content: "Content",
  backups: "Backups",
  audit: "Audit log",
};

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const useCreateRoleMutation = () =>
  useMutation({
    mutationFn: (body: BodyOf<"/api/admin/roles", "post">) => data(api.POST("/api/admin/roles", { body })),
    onSuccess: () => refreshRoles(),
  });

export const useRenameRoleMutation = (roleId: string) =>
  useMutation({
    mutationFn: (body: BodyOf<"/api/admin/roles/{roleId}", "put">) =>
      data(api.PUT("/api/admin/roles/{roleId}", { params: { path: { roleId } }, body })),
    onSuccess: () => refreshRoles(),
  });

/** The roles marked as reviewed (the dashboard stops asking for a while). */
export const useReviewRolesMutation = () =>
  useMutation({ mutationFn: () => data(api.POST("/api/admin/roles/review")), onSuccess: () => refreshRoles() });
