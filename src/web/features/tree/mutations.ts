/**
 * Moves in the tree: the cached tree changes at once (model.ts), the server is asked, and on a
 * refusal the tree goes back as it was with the server's reason in a toast. Both spaces' trees
 * are read again afterwards.
 */
import { useMutation } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import type { TreeNode } from "../../api/types";
import { toast } from "../../ui/toast";
import { moveInTree, removeFromTree } from "./model";

export interface MoveRequest {
  id: string;
  title: string;
  fromSpaceId: string;
  toSpaceId: string;
  parentId: string | null;
  index: number;
  /** Said to screen readers when the move is done ("Moved X under Y"). */
  announce?: string;
}

let announcer: ((text: string) => void) | null = null;
export function setAnnouncer(fn: ((text: string) => void) | null): void {
  announcer = fn;
}

export function useMovePage() {
  return useMutation({
    mutationFn: (m: MoveRequest) =>
      data(
        api.PUT("/api/pages/{id}/move", {
          params: { path: { id: m.id } },
          body: { parentPageId: m.parentId, index: m.index, ...(m.toSpaceId !== m.fromSpaceId ? { spaceId: m.toSpaceId } : {}) },
        }),
      ),
    onMutate: async (m) => {
      const key = keys.tree(m.fromSpaceId);
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<TreeNode[]>(key);
      if (before)
        queryClient.setQueryData(
          key,
          m.toSpaceId === m.fromSpaceId ? moveInTree(before, m.id, m.parentId, m.index) : removeFromTree(before, m.id),
        );
      return { before };
    },
    onError: (err, m, ctx) => {
      if (ctx?.before) queryClient.setQueryData(keys.tree(m.fromSpaceId), ctx.before);
      toast.error(`“${m.title}” was not moved: ${err.message}`);
    },
    onSuccess: (_page, m) => announcer?.(m.announce ?? `Moved ${m.title}`),
    onSettled: (_p, _e, m) => {
      void queryClient.invalidateQueries({ queryKey: keys.tree(m.fromSpaceId) });
      if (m.toSpaceId !== m.fromSpaceId) void queryClient.invalidateQueries({ queryKey: keys.tree(m.toSpaceId) });
      void queryClient.invalidateQueries({ queryKey: keys.page(m.id) });
    },
  });
}

/** One change from a tree row's menu: the page to the trash, its emoji, or a copy (with the pages below it or not). */
export type RowChange = { kind: "trash" } | { kind: "emoji"; emoji: string | null } | { kind: "copy"; includeChildren: boolean };

export function useRowChangeMutation(spaceId: string, pageId: string) {
  return useMutation({
    mutationFn: async (change: RowChange) => {
      const path = { id: pageId };
      if (change.kind === "trash") return void (await data(api.DELETE("/api/pages/{id}", { params: { path } })));
      if (change.kind === "emoji")
        return void (await data(api.PUT("/api/pages/{id}/emoji", { params: { path }, body: { emoji: change.emoji } })));
      return data(api.POST("/api/pages/{id}/copy", { params: { path }, body: { includeChildren: change.includeChildren } }));
    },
    onSuccess: (_answer, change) => {
      void queryClient.invalidateQueries({ queryKey: keys.tree(spaceId) });
      if (change.kind === "trash") void queryClient.invalidateQueries({ queryKey: keys.recent(spaceId) });
      if (change.kind === "emoji") void queryClient.invalidateQueries({ queryKey: keys.page(pageId) });
    },
  });
}
