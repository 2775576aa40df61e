/**
 * The page tree of a Confluence export: each page under its last breadcrumb that is a page of
 * the export (the first breadcrumb is the space's index.html), siblings in the overview's order
 * (index.html lists the tree as Confluence showed it), then by title. Breadcrumbs that loop
 * (they never do in a real export) put the page at the top rather than losing it.
 */
import { naturalOrder } from "../from-markdown/files";

export interface TreeItem {
  /** The page's file name in the export ("Setup_123.html"). */
  name: string;
  title: string;
  /** File names of its breadcrumbs, top first, index.html left out. */
  ancestors: string[];
}

/** Pages in tree order (parents before children) with their parent and position. */
export function placePages<T extends TreeItem>(
  items: T[],
  order: Map<string, number>,
  onLoop: () => void,
): { item: T; parent: T | null; position: number }[] {
  const byName = new Map(items.map((item) => [item.name, item]));
  const parentOf = new Map<T, T | null>();
  for (const item of items) {
    const parent =
      [...item.ancestors]
        .reverse()
        .map((name) => byName.get(name))
        .find((p) => p && p !== item) ?? null;
    parentOf.set(item, parent);
  }
  for (const item of items) {
    const seen = new Set<T>([item]);
    for (let p = parentOf.get(item); p; p = parentOf.get(p)) {
      if (seen.has(p)) {
        parentOf.set(item, null);
        onLoop();
        break;
      }
      seen.add(p);
    }
  }
  const childrenOf = new Map<T | null, T[]>();
  for (const item of items) {
    const parent = parentOf.get(item)!;
    (childrenOf.get(parent) ?? childrenOf.set(parent, []).get(parent)!).push(item);
  }
  const rank = (item: T) => order.get(item.name) ?? Number.MAX_SAFE_INTEGER;
  const sorted = (parent: T | null) => (childrenOf.get(parent) ?? []).sort((a, b) => rank(a) - rank(b) || naturalOrder(a.title, b.title));
  // Depth first without recursion: a deep chain of pages must not exhaust the stack.
  const out: { item: T; parent: T | null; position: number }[] = [];
  const stack = sorted(null)
    .map((item, position) => ({ item, parent: null as T | null, position }))
    .reverse();
  while (stack.length) {
    const next = stack.pop()!;
    out.push(next);
    stack.push(
      ...sorted(next.item)
        .map((item, position) => ({ item, parent: next.item, position }))
        .reverse(),
    );
  }
  return out;
}
