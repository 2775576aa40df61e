/**
 * The first view's answers, asked for before React renders anything: who is signed in, the
 * instance, and for an address in a space the space and the page. The server names the same
 * requests in the page's Link header (src/http/ui-preload.ts: keep the two in step), so the
 * browser has started them while this bundle was still downloading; here they are taken from
 * there and put in the query cache under the keys the screens read. The app then renders
 * once with its answers instead of a spinner, then the space, then the page (three round trips
 * and three renders one after another).
 */
import { keys } from "../api/keys";
import { queryClient } from "../api/query-client";
import { pageQuery } from "../features/page/queries";
import { spaceQuery } from "../features/spaces/queries";
import { idFromSegment } from "../lib/slug";
import { fetchInstance, fetchMe, SESSION_STALE_MS } from "./session";

/** Never hold the first render longer than this for a slow answer (the screens wait for it then). */
const AT_MOST_MS = 3_000;

/** The space key and page id of an address such as /s/KEY/p/<id>-<slug>/edit, as the routes read them. */
export function firstViewOf(path: string): { spaceKey: string | null; pageId: string | null } {
  const m = /^\/s\/([^/]+)(?:\/p\/([^/]+))?/.exec(path);
  if (!m) return { spaceKey: null, pageId: null };
  let spaceKey: string;
  try {
    spaceKey = decodeURIComponent(m[1]);
  } catch {
    return { spaceKey: null, pageId: null };
  }
  return { spaceKey, pageId: m[2] ? idFromSegment(m[2]) : null };
}

/** Resolves once the first view's answers are in the cache (or failed: the screens say so), or after AT_MOST_MS. */
export function prefetchFirstView(path: string): Promise<void> {
  const { spaceKey, pageId } = firstViewOf(path);
  const asked = [
    queryClient.prefetchQuery({ queryKey: keys.me, queryFn: fetchMe, staleTime: SESSION_STALE_MS }),
    queryClient.prefetchQuery({ queryKey: keys.instance, queryFn: fetchInstance, staleTime: SESSION_STALE_MS }),
  ];
  if (spaceKey) asked.push(queryClient.prefetchQuery(spaceQuery(spaceKey)));
  // The tree's code is not imported here: the server's Link header has the browser fetch it
  // meanwhile, and the sidebar imports it after the first paint, so that evaluating it never
  // comes between the page and the screen (SpaceSidebar).
  if (pageId) asked.push(queryClient.prefetchQuery(pageQuery(pageId)));
  return Promise.race([Promise.all(asked).then(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, AT_MOST_MS))]);
}
