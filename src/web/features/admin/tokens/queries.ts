/** Everyone's API tokens through the typed client (right tokens.manage). */
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, data } from "../../../api/client";
import { queryClient } from "../../../api/query-client";
import type { AnswerOf } from "../../../api/types";

export type AdminToken = AnswerOf<"/api/admin/api-tokens", "get">[number];
export type TokenActivity = AnswerOf<"/api/admin/api-tokens/activity", "get">;
export type TokenSummary = AnswerOf<"/api/admin/api-tokens/summary", "get">;

const keys = {
  all: ["admin", "api-tokens"] as const,
  list: ["admin", "api-tokens", "list"] as const,
  activity: (id: string) => ["admin", "api-tokens", "activity", id] as const,
  summary: (days: number) => ["admin", "api-tokens", "summary", days] as const,
};

export const useAllTokens = () => useQuery({ queryKey: keys.list, queryFn: () => data(api.GET("/api/admin/api-tokens")) });

export const useTokenActivity = (tokenId: string | null) =>
  useQuery({
    queryKey: keys.activity(tokenId ?? ""),
    queryFn: () => data(api.GET("/api/admin/api-tokens/activity", { params: { query: { tokenId: tokenId!, take: 30 } } })),
    enabled: tokenId !== null,
  });

export const useTokenSummary = (days: number) =>
  useQuery({
    queryKey: keys.summary(days),
    queryFn: () => data(api.GET("/api/admin/api-tokens/summary", { params: { query: { days } } })),
  });

export async function revokeToken(id: string): Promise<void> {
  await data(api.DELETE("/api/admin/api-tokens/{id}", { params: { path: { id } } }));
  await queryClient.invalidateQueries({ queryKey: keys.all });
}

export const useRevokeTokenMutation = () => useMutation({ mutationFn: (token: AdminToken) => revokeToken(token.id) });
