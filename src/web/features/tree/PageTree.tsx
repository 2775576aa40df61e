// TEMPORARY scaffold, replaced by the tree feature (virtualised, drag and drop, keyboard).
import { Link } from "wouter";
import type { Space, TreeNode } from "../../api/types";
import { pagePath } from "../../lib/slug";
import { useTree } from "./queries";

export function PageTree({ space, currentPageId }: { space: Space; currentPageId?: string }) {
  const tree = useTree(space.id);
  const list = (nodes: TreeNode[]) => (
    <ul>
      {nodes.map((n) => (
        <li key={n.id}>
          <Link href={pagePath(space.key, n.id, n.title)} aria-current={n.id === currentPageId ? "page" : undefined}>
            {n.title}
          </Link>
          {n.children.length ? list(n.children) : null}
        </li>
      ))}
    </ul>
  );
  return tree.data ? list(tree.data) : null;
}
