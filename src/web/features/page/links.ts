/**
 * Links between pages on the web side: the current titles a document's page links show (asked
 * once per document, each page authorised on its own by GET /api/pages/titles) and a page's
 * backlinks. A page the reader may not read comes back absent, and shows as UNSEEN_PAGE.
 */
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { linkedPageIds } from "../../../content/page-links";
import { api, data } from "../../api/client";
import { queryClient } from "../../api/query-client";
import type { AnswerOf } from "../../api/types";

export type LinkedPage = AnswerOf<"/api/pages/titles", "get">[number];
/** A page id → its page as the reader sees it, or null (not readable, gone). */
export type LinkTargets = ReadonlyMap<string, LinkedPage | null>;

export const linkKeys = {
  title: (id: string) => ["pageTitle", id] as const,
  backlinks: (id: string) => ["page", id, "backlinks"] as const,
};

/** Asks for the titles of these pages and keeps each answer (null for the absent) for the editor's links too. */
export async function fetchLinkTargets(ids: readonly string[]): Promise<Map<string, LinkedPage | null>> {
  const out = new Map<string, LinkedPage | null>();
  for (let i = 0; i < ids.length; i += 200) {
    const part = ids.slice(i, i + 200);
    const found = await data(api.GET("/api/pages/titles", { params: { query: { ids: part.join(",") } } }));
    for (const id of part) out.set(id, null);
    for (const page of found) out.set(page.id, page);
  }
  for (const [id, page] of out) queryClient.setQueryData(linkKeys.title(id), page);
  return out;
}

/** The targets of a document's page link nodes (undefined while loading; none asked when there are none). */
export function useLinkTargets(doc: unknown): LinkTargets | undefined {
  const ids = useMemo(() => pageLinkIds(doc), [doc]);
  const query = useQuery({
    queryKey: ["pageTitles", ids],
    queryFn: () => fetchLinkTargets(ids),
    enabled: ids.length > 0,
    staleTime: 30_000,
  });
  return ids.length === 0 ? EMPTY : query.data;
}

const EMPTY: LinkTargets = new Map();

/** Only link nodes show a title; linked text shows the author's words. */
function pageLinkIds(doc: unknown): string[] {
  const ids: string[] = [];
  const walk = (n: { type?: unknown; attrs?: { pageId?: unknown }; content?: unknown[] } | null) => {
    if (!n || typeof n !== "object") return;
    if (n.type === "pageLink" && typeof n.attrs?.pageId === "string") ids.push(n.attrs.pageId.toLowerCase());
    if (Array.isArray(n.content)) for (const c of n.content) walk(c as never);
  };
  walk(doc as never);
  return [...new Set(ids)].sort();
}

/** One page's title for the editor's link view: from the cache, else asked (null: not readable). */
export function linkTarget(id: string): Promise<LinkedPage | null> {
  return queryClient.fetchQuery({
    queryKey: linkKeys.title(id),
    queryFn: async () => (await fetchLinkTargets([id])).get(id) ?? null,
    staleTime: 30_000,
  });
}

export function useBacklinks(pageId: string) {
  return useQuery({
    queryKey: linkKeys.backlinks(pageId),
    queryFn: () => data(api.GET("/api/pages/{id}/backlinks", { params: { path: { id: pageId } } })),
  });
}

export { linkedPageIds };
