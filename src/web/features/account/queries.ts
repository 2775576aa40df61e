/** The account's own data: its sessions and API tokens, and the writes of the account screen. */
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import type { AnswerOf, BodyOf, Me } from "../../api/types";

export type Session = AnswerOf<"/api/auth/me/sessions", "get">[number];
export type Token = AnswerOf<"/api/api-tokens", "get">[number];

export const accountKeys = {
  sessions: ["account", "sessions"] as const,
  tokens: ["account", "tokens"] as const,
};

export const useSessions = () => useQuery({ queryKey: accountKeys.sessions, queryFn: () => data(api.GET("/api/auth/me/sessions")) });

export const useTokens = (enabled: boolean) =>
  useQuery({ queryKey: accountKeys.tokens, queryFn: () => data(api.GET("/api/api-tokens")), enabled });

/** The display name; the signed-in account's cached answer takes the new one at once. */
export const useDisplayNameMutation = () =>
  useMutation({
    mutationFn: (displayName: string) => data(api.PUT("/api/auth/me", { body: { displayName } })),
    onSuccess: (updated) => queryClient.setQueryData(keys.me, (old: Me | null | undefined) => (old ? { ...old, ...updated } : updated)),
  });

export const usePasswordMutation = () =>
  useMutation({ mutationFn: (body: BodyOf<"/api/auth/me/password", "put">) => data(api.PUT("/api/auth/me/password", { body })) });

/** Ends one session, or ("others") every session but this one. */
export const useEndSessionMutation = () =>
  useMutation({
    mutationFn: (ending: Session | "others") =>
      ending === "others"
        ? api.DELETE("/api/auth/me/sessions/others")
        : api.DELETE("/api/auth/me/sessions/{id}", { params: { path: { id: ending.id } } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions }),
  });

export const useCreateTokenMutation = () =>
  useMutation({
    mutationFn: (body: BodyOf<"/api/api-tokens", "post">) => data(api.POST("/api/api-tokens", { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.tokens }),
  });

export const useRevokeTokenMutation = () =>
  useMutation({
    mutationFn: (token: Token) => api.DELETE("/api/api-tokens/{id}", { params: { path: { id: token.id } } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.tokens }),
  });
