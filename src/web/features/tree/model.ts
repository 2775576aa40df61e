/**
 * The page tree as the sidebar draws it: the open branches flattened into rows (what the
 * virtual list renders and the arrow keys walk), and a move applied to a copy of the tree (the
 * optimistic answer while the server's is on its way). Pure functions, tested on their own.
 */
import type { TreeNode } from "../../api/types";

export interface Row {
  node: TreeNode;
  level: number;
  parentId: string | null;
  /** Position among its siblings, from 1 (aria-posinset), and how many siblings (aria-setsize). */
  posInSet: number;
  setSize: number;
  expanded: boolean;
}

export function flatten(tree: TreeNode[], open: ReadonlySet<string>): Row[] {
  const rows: Row[] = [];
  const walk = (nodes: TreeNode[], level: number, parentId: string | null) => {
    nodes.forEach((node, i) => {
      const expanded = node.children.length > 0 && open.has(node.id);
      rows.push({ node, level, parentId, posInSet: i + 1, setSize: nodes.length, expanded });
      if (expanded) walk(node.children, level + 1, node.id);
    });
  };
  walk(tree, 1, null);
  return rows;
}

/** The node and its parent's id, or undefined. */
export function locate(
  tree: TreeNode[],
  id: string,
  parentId: string | null = null,
): { node: TreeNode; parentId: string | null; siblings: TreeNode[]; index: number } | undefined {
  for (let i = 0; i < tree.length; i++) {
    if (tree[i].id === id) return { node: tree[i], parentId, siblings: tree, index: i };
    const found = locate(tree[i].children, id, tree[i].id);
    if (found) return found;
  }
  return undefined;
}

/** Every page below `id` (not itself). */
export function descendantIds(node: TreeNode): string[] {
  return node.children.flatMap((c) => [c.id, ...descendantIds(c)]);
}

const without = (nodes: TreeNode[], id: string): TreeNode[] =>
  nodes.filter((n) => n.id !== id).map((n) => ({ ...n, children: without(n.children, id) }));

/** The tree with `id` moved under `parentId` (null: the top) at `index` among its new siblings. */
export function moveInTree(tree: TreeNode[], id: string, parentId: string | null, index: number): TreeNode[] {
  const found = locate(tree, id);
  if (!found || id === parentId || (parentId && descendantIds(found.node).includes(parentId))) return tree;
  const rest = without(tree, id);
  const insert = (nodes: TreeNode[]) => {
    const copy = [...nodes];
    copy.splice(Math.max(0, Math.min(index, copy.length)), 0, found.node);
    return copy.map((n, i) => ({ ...n, position: i }));
  };
  if (parentId === null) return insert(rest);
  const place = (nodes: TreeNode[]): TreeNode[] =>
    nodes.map((n) => (n.id === parentId ? { ...n, children: insert(n.children) } : { ...n, children: place(n.children) }));
  return place(rest);
}

/** The tree without `id` and its subtree (moved to the trash or to another space). */
export function removeFromTree(tree: TreeNode[], id: string): TreeNode[] {
  return without(tree, id);
}
