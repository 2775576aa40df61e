import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import type { TreeNode } from "../../api/types";

/** A space's page tree (GET /api/pages/tree), whole: the sidebar renders it lazily. */
export function useTree(spaceId: string | undefined) {
  return useQuery({
    queryKey: keys.tree(spaceId ?? ""),
    queryFn: () => data(api.GET("/api/pages/tree", { params: { query: { spaceId: spaceId! } } })),
    enabled: !!spaceId,
  });
}

/** The chain of pages from the top of the tree down to `id` (itself included), or [] if absent. */
export function ancestorsOf(tree: TreeNode[] | undefined, id: string): TreeNode[] {
  if (!tree) return [];
  const walk = (nodes: TreeNode[], path: TreeNode[]): TreeNode[] | null => {
    for (const n of nodes) {
      const here = [...path, n];
      if (n.id === id) return here;
      const found = walk(n.children, here);
      if (found) return found;
    }
    return null;
  };
  return walk(tree, []) ?? [];
}
