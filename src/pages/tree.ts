import { failedRootIds } from "../access/pages";
import { requireReadableSpace } from "../access/spaces";
import type { Caller } from "../identity/caller";
import type { Core } from "../core";
import { keptBodiesUntilWrite, keptBody, keptBodyFor, type KeptBody } from "../platform/db/kept-answers";
import { findSpaceByIdOrKey } from "../spaces/service";
import { treeRows } from "./store/reads";

export interface TreeNode {
  id: string;
  title: string;
  emoji: string | null;
  position: number;
  /** Only when true: an Edit restriction at or above the page leaves the caller out. */
  readOnly?: true;
  children: TreeNode[];
}

/**
 * The published pages of a space, nested, each level ordered by position then title. ONE query
 * fetches the rows already in order, then they are linked in memory; the View-restricted pages
 * in `hidden` are left out, and so is every page whose parent is not in the result: a hidden
 * page takes its whole subtree with it, never promoting it to the top. The Edit-restricted
 * pages in `locked` are marked read-only, with everything below them.
 */
function buildTree(core: Core, spaceId: string, hidden: ReadonlySet<string>, locked: ReadonlySet<string>): TreeNode[] {
  const rows = treeRows(core, spaceId);
  const nodes = new Map<string, TreeNode>();
  for (const r of rows)
    if (!hidden.has(r.id)) nodes.set(r.id, { id: r.id, title: r.title, emoji: r.emoji, position: r.position, children: [] });
  const roots: TreeNode[] = [];
  for (const r of rows) {
    const node = nodes.get(r.id);
    if (!node) continue;
    if (r.parentId === null) roots.push(node);
    else nodes.get(r.parentId)?.children.push(node);
  }
  for (const id of locked) {
    const node = nodes.get(id);
    if (node) markReadOnly(node);
  }
  return roots;
}

function markReadOnly(root: TreeNode): void {
  const stack = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    node.readOnly = true;
    stack.push(...node.children);
  }
}

/**
 * Trees already answered, as JSON text and its bytes, until the next write
 * (platform/db/kept-answers.ts). A tree depends only on the space's rows and on which
 * restricted pages the caller fails, so callers failing the same ones share an entry (most
 * callers fail none).
 */
const keptTrees = keptBodiesUntilWrite("trees", 16 * 1024 * 1024);

function keptTree(core: Core, caller: Caller, spaceId: string): KeptBody {
  const space = requireReadableSpace(core, caller, findSpaceByIdOrKey(core, spaceId));
  const { hidden, locked } = failedRootIds(core, caller, space);
  hidden.sort();
  locked.sort();
  return keptTrees(core.stamp, `${space.id}|${hidden.join(",")}|${locked.join(",")}`, () =>
    keptBody(JSON.stringify(buildTree(core, space.id, new Set(hidden), new Set(locked)))),
  );
}

/** GET /api/pages/tree (spaceId: the id or key), as the JSON text of TreeNode[]. */
export const pageTreeJson = (core: Core, caller: Caller, spaceId: string): string => keptTree(core, caller, spaceId).text;

/** The same as bytes to send: UTF-8, gzipped when the client takes gzip (keptBodyFor). */
export const pageTreeBody = (core: Core, caller: Caller, spaceId: string, acceptEncoding: string | null) =>
  keptBodyFor(keptTree(core, caller, spaceId), acceptEncoding);
