/** Query keys, in one place, so a change invalidates exactly what it touched. */
export const keys = {
  me: ["me"] as const,
  instance: ["instance"] as const,
  spaces: ["spaces"] as const,
  space: (key: string) => ["space", key] as const,
  tree: (spaceId: string) => ["tree", spaceId] as const,
  page: (id: string) => ["page", id] as const,
  versions: (id: string) => ["page", id, "versions"] as const,
  version: (id: string, n: number) => ["page", id, "versions", n] as const,
  labels: (id: string) => ["page", id, "labels"] as const,
  /** Who has unpublished changes in the page's shared working copy (under the page: a new version refreshes it). */
  unpublished: (id: string) => ["page", id, "unpublished"] as const,
  recent: (spaceId: string) => ["recent", spaceId] as const,
  trash: (spaceId: string) => ["trash", spaceId] as const,
  search: (q: string, spaceId: string | null) => ["search", { q, spaceId }] as const,
  viewed: ["viewed"] as const,
  users: ["users"] as const,
  templates: (spaceId: string | null) => ["templates", spaceId] as const,
  allLabels: ["labels"] as const,
};
