/**
 * The instance settings through the typed client: the one read every card draws from, and a
 * card's save (only the fields that changed), guarded by the password confirmation when a
 * change widens access.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, data } from "../../../api/client";
import { keys } from "../../../api/keys";
import { queryClient } from "../../../api/query-client";
import type { AnswerOf } from "../../../api/types";

export type InstanceSettings = AnswerOf<"/api/admin/settings", "get">;
export const settingsKey = ["admin", "settings"] as const;

export const useSettings = () => useQuery({ queryKey: settingsKey, queryFn: () => data(api.GET("/api/admin/settings")) });

/** Runs a write again after the person confirmed their password, when the API asks (lib/reauth.tsx). */
type Guard = <T>(action: () => Promise<T>) => Promise<T>;

/** The changed settings saved; the answer is the settings as they now are, and a new name reaches the whole app. */
export const useSaveSettingsMutation = (guarded: Guard) =>
  useMutation({
    mutationFn: (body: Record<string, unknown>) => guarded(() => data(api.PUT("/api/admin/settings", { body: body as never }))),
    onSuccess: async (next, body) => {
      queryClient.setQueryData(settingsKey, next);
      if ("instanceName" in body) await queryClient.invalidateQueries({ queryKey: keys.instance });
    },
  });
