/** Every space for administrators (right spaces.manage) through the typed client. */
import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../../api/client";
import { keys as appKeys } from "../../../api/keys";
import { queryClient } from "../../../api/query-client";
import type { AnswerOf } from "../../../api/types";

export type AdminSpace = AnswerOf<"/api/admin/spaces", "get">[number];

const key = ["admin", "spaces"] as const;

export const useAllSpaces = () => useQuery({ queryKey: key, queryFn: () => data(api.GET("/api/admin/spaces")) });

const refresh = () =>
  Promise.all([queryClient.invalidateQueries({ queryKey: key }), queryClient.invalidateQueries({ queryKey: appKeys.spaces })]);

/** Gives the caller an explicit Admin grant on the space (audited). */
export async function recoverAccess(spaceKey: string): Promise<void> {
  await data(api.POST("/api/admin/spaces/{key}/recover-access", { params: { path: { key: spaceKey } } }));
  await refresh();
}

/** Makes the space readable by anyone, or not (needs a recent password confirmation). */
export async function setPublic(spaceKey: string, isPublic: boolean): Promise<{ warning?: string | null }> {
  const answer = await data(api.PUT("/api/admin/spaces/{key}/public", { params: { path: { key: spaceKey } }, body: { isPublic } }));
  await refresh();
  return answer as { warning?: string | null };
}
