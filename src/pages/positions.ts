/**
 * Where pages sit among their siblings (subtrees: subtreeIds in store/sql.ts). Positions are
 * 0-based among the published, live pages with the same space and parent; ties (and gaps) are
 * harmless because every listing orders by position, then title.
 */
import type { Core } from "../core";
import { lastSiblingPosition } from "./store";
import { siblingPositions } from "./store/reads";
import { setPosition } from "./store/writes";

/** The position after the last sibling: where new, restored and published pages go. */
export function nextPosition(core: Core, spaceId: string, parentId: string | null): number {
  const max = lastSiblingPosition(core, spaceId, parentId);
  return max === null || max === undefined ? 0 : max + 1;
}

/**
 * Puts `pageId` at `index` among its (new) siblings and numbers them all 0, 1, 2… again;
 * an index past the end means last. Only rows whose position changes are written.
 */
export function placeAmongSiblings(
  core: Core,
  pageId: string,
  spaceId: string,
  parentId: string | null,
  index: number | undefined,
): number {
  const others = siblingPositions(core, spaceId, parentId, pageId);
  const at = Math.min(Math.max(index ?? others.length, 0), others.length);
  const ordered = [...others.slice(0, at).map((o) => o.id), pageId, ...others.slice(at).map((o) => o.id)];
  const current = new Map(others.map((o) => [o.id, o.position]));
  ordered.forEach((id, position) => {
    if (current.get(id) !== position) setPosition(core, id, position);
  });
  return at;
}

/** Numbers the remaining siblings 0, 1, 2… again (after a page left their parent). */
export function renumberSiblings(core: Core, spaceId: string, parentId: string | null): void {
  const rows = siblingPositions(core, spaceId, parentId);
  rows.forEach((r, position) => {
    if (r.position !== position) setPosition(core, r.id, position);
  });
}
