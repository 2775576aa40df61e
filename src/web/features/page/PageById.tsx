/**
 * A page found by its id alone: `/p/<id>` (how links between pages are stored, see
 * content/page-links.ts) and an older `/s/KEY/p/<id>` whose page has since moved to another
 * space. It asks where the page is now (its space and title, only if the reader may read it)
 * and goes there; otherwise the same "not found" as any page the reader may not see.
 */
import { useQuery } from "@tanstack/react-query";
import { Redirect } from "wouter";
import { Loading } from "../../app/Loading";
import { NotFound } from "../../app/NotFound";
import { pagePath } from "../../lib/slug";
import { fetchLinkTargets, linkKeys } from "./links";

export function PageById({ pageId, rest = "" }: { pageId: string; rest?: string }) {
  const id = pageId.toLowerCase();
  // Its own fetch: linkTarget asks the cache under this very key, which would wait on itself.
  const target = useQuery({
    queryKey: linkKeys.title(id),
    queryFn: async () => (await fetchLinkTargets([id])).get(id) ?? null,
    enabled: /^[0-9a-f-]{36}$/.test(id),
  });
  if (!/^[0-9a-f-]{36}$/.test(id)) return <NotFound />;
  if (target.isPending) return <Loading />;
  if (!target.data) return <NotFound />;
  return (
    <Redirect
      to={pagePath(target.data.spaceKey, target.data.id, target.data.title) + rest + window.location.search + window.location.hash}
      replace
    />
  );
}
