/**
 * The backups section's data through the typed client: the list (with the policy, the restore
 * state and the point-in-time coverage), long work as jobs polled until they end, the policy,
 * restores and the off-machine targets.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, data } from "../../../api/client";
import { queryClient } from "../../../api/query-client";
import type { AnswerOf, BodyOf } from "../../../api/types";
import type { paths } from "../../../api/schema";

type Json<R> = R extends { content: { "application/json": infer J } } ? J : never;
/** What a path answers with 202 (long work: a job). */
type Accepted<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: { 202: infer R } } ? Json<R> : never;

export type BackupList = AnswerOf<"/api/admin/backups", "get">;
export type Backup = BackupList["backups"][number];
export type Policy = BackupList["policy"];
export type PolicyPreview = AnswerOf<"/api/admin/backups/policy/preview", "post">;
export type RestorePreview = AnswerOf<"/api/admin/backups/{label}/restore-preview", "get">;
export type Job = AnswerOf<"/api/admin/backups/jobs/{id}", "get">;
export type Targets = AnswerOf<"/api/admin/backups/targets", "get">;
export type TargetSlot = "directory" | "s3";
export type TargetBody = BodyOf<"/api/admin/backups/targets/{slot}", "put">;
export type ProbeReport = AnswerOf<"/api/admin/backups/targets/{slot}/test", "post">;
type Confirm = BodyOf<"/api/admin/backups/restore/undo", "post">;

const key = ["admin", "backups"] as const;
const targetsKey = ["admin", "backups", "targets"] as const;

export const useBackups = (includeRemoved: boolean) =>
  useQuery({
    queryKey: [...key, { includeRemoved }],
    queryFn: () => data(api.GET("/api/admin/backups", { params: { query: { includeRemoved } } })),
    // A restore started elsewhere (another tab, another administrator) is followed here.
    refetchInterval: (q) => (q.state.data?.restore.running ? 2000 : false),
  });

export const refreshBackups = () => queryClient.invalidateQueries({ queryKey: key });

/** A job, polled twice a second until it ends. */
export const useJob = (id: string | null) =>
  useQuery({
    queryKey: [...key, "job", id],
    queryFn: () => data(api.GET("/api/admin/backups/jobs/{id}", { params: { path: { id: id! } } })),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data && q.state.data.state !== "running" ? false : 500),
    staleTime: 0,
  });

/** Long work answers 202 with its job (every such route shares the one answer shape). */
type JobAnswer = Accepted<"/api/admin/backups/run", "post">;
const jobOf = async (call: Promise<{ data?: unknown; error?: unknown }>): Promise<Job> => ((await data(call)) as JobAnswer).job;

export const runBackup = () => jobOf(api.POST("/api/admin/backups/run"));

/** Removes a backup by hand (any kind): its copy goes, its manifest stays listed as removed. */
export async function removeBackup(label: string): Promise<void> {
  await data(api.DELETE("/api/admin/backups/{label}", { params: { path: { label } } }));
  await refreshBackups();
}

export async function savePolicy(policy: Policy): Promise<void> {
  await data(api.PUT("/api/admin/backups/policy", { body: policy }));
  await refreshBackups();
}

export const previewPolicy = (policy: Policy): Promise<PolicyPreview> =>
  data(api.POST("/api/admin/backups/policy/preview", { body: policy }));

/** What restoring `label` (at a point in time, or as it was) would lose. */
export const useRestorePreview = (label: string | null, at: string | null) =>
  useQuery({
    queryKey: [...key, "restore-preview", label, at],
    queryFn: () =>
      data(api.GET("/api/admin/backups/{label}/restore-preview", { params: { path: { label: label! }, query: at ? { at } : {} } })),
    enabled: label !== null,
    staleTime: 0,
    retry: false,
  });

/** Restores into a scratch copy (as taken, or at a moment) and checks it; swaps nothing. */
export const testRestore = (label: string, at: string | null) =>
  jobOf(api.POST("/api/admin/backups/{label}/restore-test", { params: { path: { label }, query: at ? { at } : {} } }));

export const startRestore = (label: string, body: { confirmLabel: string; password: string; at?: string }) =>
  jobOf(api.POST("/api/admin/backups/{label}/restore", { params: { path: { label } }, body }));

export const undoRestore = (body: Confirm) => jobOf(api.POST("/api/admin/backups/restore/undo", { body }));

export async function discardKept(body: Confirm): Promise<void> {
  await data(api.POST("/api/admin/backups/restore/discard-kept", { body }));
  await refreshBackups();
}

export async function cancelRestore(): Promise<void> {
  await data(api.POST("/api/admin/backups/restore/cancel"));
  await refreshBackups();
}

export const refreshTargets = () => queryClient.invalidateQueries({ queryKey: targetsKey });

export const useTargets = () => useQuery({ queryKey: targetsKey, queryFn: () => data(api.GET("/api/admin/backups/targets")) });

export async function saveTarget(slot: TargetSlot, body: TargetBody): Promise<void> {
  await data(api.PUT("/api/admin/backups/targets/{slot}", { params: { path: { slot } }, body }));
  await queryClient.invalidateQueries({ queryKey: targetsKey });
}

export async function removeTarget(slot: TargetSlot): Promise<void> {
  await data(api.DELETE("/api/admin/backups/targets/{slot}", { params: { path: { slot } } }));
  await queryClient.invalidateQueries({ queryKey: targetsKey });
}

export const testTarget = (slot: TargetSlot): Promise<ProbeReport> =>
  data(api.POST("/api/admin/backups/targets/{slot}/test", { params: { path: { slot } } }));

export const copyToTarget = (slot: TargetSlot) => jobOf(api.POST("/api/admin/backups/targets/{slot}/copy", { params: { path: { slot } } }));

/** Runs a write again after the person confirmed their password, when the API asks (lib/reauth.tsx). */
type Guard = <T>(action: () => Promise<T>) => Promise<T>;

export const useRunBackupMutation = () => useMutation({ mutationFn: () => runBackup() });

export const useSavePolicyMutation = (guarded: Guard) => useMutation({ mutationFn: (policy: Policy) => guarded(() => savePolicy(policy)) });

export const useStartRestoreMutation = (label: string) =>
  useMutation({ mutationFn: (body: { confirmLabel: string; password: string; at?: string }) => startRestore(label, body) });
