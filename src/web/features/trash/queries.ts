/** A space's trash: its pages, one restored, one deleted for good. */
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import type { TrashEntry } from "../../api/types";

export const useTrash = (spaceId: string) =>
  useQuery({ queryKey: keys.trash(spaceId), queryFn: () => data(api.GET("/api/pages/trash", { params: { query: { spaceId } } })) });

/** The trash, the tree and the recent pages all change when a page comes back or goes for good. */
function refresh(spaceId: string): void {
  void queryClient.invalidateQueries({ queryKey: keys.trash(spaceId) });
  void queryClient.invalidateQueries({ queryKey: keys.tree(spaceId) });
  void queryClient.invalidateQueries({ queryKey: keys.recent(spaceId) });
}

export const useRestorePageMutation = (spaceId: string) =>
  useMutation({
    mutationFn: (entry: TrashEntry) => data(api.POST("/api/pages/{id}/restore", { params: { path: { id: entry.id } } })),
    onSuccess: () => refresh(spaceId),
  });

/** Deleting for good asks for the password each time (a recent confirmation), then purges. */
export const usePurgePageMutation = (spaceId: string) =>
  useMutation({
    mutationFn: async ({ entry, password }: { entry: TrashEntry; password: string }) => {
      await data(api.POST("/api/auth/reauth", { body: { password } }));
      await api.DELETE("/api/pages/{id}/purge", { params: { path: { id: entry.id } } });
    },
    onSuccess: () => refresh(spaceId),
  });
