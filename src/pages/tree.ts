import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { hiddenRootIds } from "../access/pages";
import { requireReadableSpace } from "../access/spaces";
import type { Caller } from "../auth/caller";
import type { Core } from "../core";
import { findSpaceById } from "../spaces/service";
import { PAGE_STATUS, pages } from "./tables";

export interface TreeNode {
  id: string;
  title: string;
  emoji: string | null;
  position: number;
  children: TreeNode[];
}

// Prepared once per database: the tree of a big space is read often and must stay cheap.
const prepared = new WeakMap<Core["sqlite"], ReturnType<typeof prepareTreeQuery>>();
function prepareTreeQuery(core: Core) {
  return core.db
    .select({ id: pages.id, parentId: pages.parentId, title: pages.title, emoji: pages.emoji, position: pages.position })
    .from(pages)
    .where(and(eq(pages.spaceId, sql.placeholder("spaceId")), eq(pages.status, PAGE_STATUS.Published), isNull(pages.deletedAt)))
    .orderBy(asc(pages.position), sql`${pages.title} collate nocase`, asc(pages.id))
    .prepare();
}

/**
 * GET /api/pages/tree: the published pages of a space, nested, each level ordered by position
 * then title. ONE query fetches the rows already in order, then they are linked in memory;
 * the View-restricted pages the caller fails (one more query, access/pages.ts) are left out,
 * and so is every page whose parent is not in the result: a hidden page takes its whole
 * subtree with it, never promoting it to the top.
 */
export function pageTree(core: Core, caller: Caller, spaceId: string): TreeNode[] {
  const space = requireReadableSpace(core, caller, findSpaceById(core, spaceId));
  let query = prepared.get(core.sqlite);
  if (!query) prepared.set(core.sqlite, (query = prepareTreeQuery(core)));
  const rows = query.all({ spaceId: space.id });
  const hidden = new Set(hiddenRootIds(core, caller, space));
  const nodes = new Map<string, TreeNode>();
  for (const r of rows) if (!hidden.has(r.id)) nodes.set(r.id, { id: r.id, title: r.title, emoji: r.emoji, position: r.position, children: [] });
  const roots: TreeNode[] = [];
  for (const r of rows) {
    const node = nodes.get(r.id);
    if (!node) continue;
    if (r.parentId === null) roots.push(node);
    else nodes.get(r.parentId)?.children.push(node);
  }
  return roots;
}
