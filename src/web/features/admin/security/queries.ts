/** Security administration through the typed client: overview, alerts, events, blocks, limits. */
import { useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import { api, data } from "../../../api/client";
import { queryClient } from "../../../api/query-client";
import type { AnswerOf, BodyOf } from "../../../api/types";

export type Overview = AnswerOf<"/api/admin/security/overview", "get">;
export type SecurityAlert = AnswerOf<"/api/admin/security/alerts", "get">[number];
export type SecurityEvent = AnswerOf<"/api/admin/security/events", "get">["events"][number];
export type Block = AnswerOf<"/api/admin/security/blocks", "get">["blocks"][number];
export type Limits = AnswerOf<"/api/admin/security/limits", "get">;

export const securityKeys = {
  all: ["admin", "security"] as const,
  overview: ["admin", "security", "overview"] as const,
  alerts: (status: number | null) => ["admin", "security", "alerts", status] as const,
  events: (kind: string, severity: number) => ["admin", "security", "events", kind, severity] as const,
  blocks: ["admin", "security", "blocks"] as const,
  limits: ["admin", "security", "limits"] as const,
};

export const useOverview = () =>
  useQuery({ queryKey: securityKeys.overview, queryFn: () => data(api.GET("/api/admin/security/overview")) });

export const useAlerts = (status: number | null) =>
  useQuery({
    queryKey: securityKeys.alerts(status),
    queryFn: () => data(api.GET("/api/admin/security/alerts", { params: { query: status === null ? {} : { status } } })),
  });

const EVENTS_PAGE = 25;

export const useEvents = (kind: string, severity: number) =>
  useInfiniteQuery({
    queryKey: securityKeys.events(kind, severity),
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam }) =>
      data(
        api.GET("/api/admin/security/events", {
          params: {
            query: {
              take: EVENTS_PAGE,
              ...(kind ? { kind } : {}),
              ...(severity ? { severity } : {}),
              ...(pageParam ? { before: pageParam } : {}),
            },
          },
        }),
      ),
    getNextPageParam: (last) => last.nextBefore ?? undefined,
  });

export const useBlocks = () => useQuery({ queryKey: securityKeys.blocks, queryFn: () => data(api.GET("/api/admin/security/blocks")) });

export const useLimits = () => useQuery({ queryKey: securityKeys.limits, queryFn: () => data(api.GET("/api/admin/security/limits")) });

/** After any change here every figure may move (an alert resolved is an event too). */
export const refreshSecurity = () => queryClient.invalidateQueries({ queryKey: securityKeys.all });

export const SEVERITY_LABEL = ["Info", "Warning", "Critical"] as const;
export const STATUS_LABEL = ["Open", "Acknowledged", "Resolved"] as const;

/** An alert acknowledged or resolved, with the note when one was written. */
export const useMoveAlertMutation = () =>
  useMutation({
    mutationFn: ({ alert, to, note }: { alert: SecurityAlert; to: "acknowledge" | "resolve"; note: string }) =>
      data(
        api.POST(to === "acknowledge" ? "/api/admin/security/alerts/{id}/acknowledge" : "/api/admin/security/alerts/{id}/resolve", {
          params: { path: { id: alert.id } },
          body: note ? { note } : {},
        }),
      ),
    onSuccess: () => refreshSecurity(),
  });

export const useAddBlockMutation = () =>
  useMutation({
    mutationFn: (body: BodyOf<"/api/admin/security/blocks", "post">) => data(api.POST("/api/admin/security/blocks", { body })),
    onSuccess: () => refreshSecurity(),
  });

export const useRemoveBlockMutation = () =>
  useMutation({
    mutationFn: (block: Block) => api.DELETE("/api/admin/security/blocks/{id}", { params: { path: { id: block.id } } }),
    onSuccess: () => refreshSecurity(),
  });

export const useUnlockMutation = () =>
  useMutation({
    mutationFn: ({ userId }: { userId: string; email: string }) =>
      api.POST("/api/admin/users/{userId}/unlock", { params: { path: { userId } } }),
    onSuccess: () => refreshSecurity(),
  });
