/** The first-run wizard's progress (GET /api/setup, the owner only) and the calls that move it. */
import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { queryClient } from "../../api/query-client";
import type { AnswerOf } from "../../api/types";

export type SetupState = AnswerOf<"/api/setup", "get">;
export type SetupStep = SetupState["steps"][number];
export type StepKey = SetupStep["key"];

export const setupKeys = { setup: ["setup"] as const, settings: ["admin", "settings"] as const };

export function useSetup(enabled = true) {
  return useQuery({ queryKey: setupKeys.setup, queryFn: () => data(api.GET("/api/setup")), enabled });
}

/** Marks a step done (its evidence must be there) or skipped; the answer is the whole wizard. */
export async function recordStep(key: StepKey, skipped: boolean): Promise<SetupState> {
  const state = await data(api.POST("/api/setup/steps/{key}", { params: { path: { key } }, body: { skipped } }));
  queryClient.setQueryData(setupKeys.setup, state);
  return state;
}

export async function completeSetup(): Promise<SetupState> {
  const state = await data(api.POST("/api/setup/complete"));
  queryClient.setQueryData(setupKeys.setup, state);
  return state;
}

/**
 * The instance settings as the settings API answers them, read as a record: the wizard saves
 * a handful of keys by name (saveSettings sends only those that changed).
 */
export type LooseSettings = Record<string, unknown> & {
  instanceName: string;
  allowPublicRegistration: boolean;
  allowPublicSpaces: boolean;
};

export function useSettings() {
  return useQuery({
    queryKey: setupKeys.settings,
    queryFn: async () => (await data(api.GET("/api/admin/settings"))) as unknown as LooseSettings,
  });
}

/** PUT /api/admin/settings with only what changed (nothing sent when nothing did). */
export async function saveSettings(current: LooseSettings, wanted: Record<string, unknown>): Promise<void> {
  const changed = Object.fromEntries(Object.entries(wanted).filter(([k, v]) => current[k] !== v));
  if (Object.keys(changed).length === 0) return;
  const next = await data(api.PUT("/api/admin/settings", { body: changed as never }));
  queryClient.setQueryData(setupKeys.settings, next);
}
