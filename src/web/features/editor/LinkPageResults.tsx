/**
 * Under the link dialog's address field: pages whose title matches what was typed (when it is
 * not an address), so linked words can point at a page by id (content/page-links.ts).
 */
import { useQuery } from "@tanstack/react-query";
import type { SearchHit } from "../../api/types";
import { searchPages } from "./page-links";

export const looksLikeAddress = (text: string) =>
  /^(\/|#|[a-z][a-z0-9+.-]*:)/i.test(text.trim()) || /^[\w-]+(\.[\w-]+)+(\/|$)/.test(text.trim());

/** `first`: told the best page for what is typed (Enter in the field links it), or null. */
export function LinkPageResults({
  query,
  onPick,
  first,
}: {
  query: string;
  onPick(hit: SearchHit): void;
  first: { current: SearchHit | null };
}) {
  const q = query.trim();
  const enabled = q.length >= 2 && !looksLikeAddress(q);
  const hits = useQuery({ queryKey: ["linkPageSearch", q], queryFn: () => searchPages(q), enabled, staleTime: 10_000 });
  const found = enabled ? (hits.data ?? []).slice(0, 5) : [];
  first.current = found[0] ?? null;
  if (!enabled) return null;
  return (
    <div className="link-pages" role="group" aria-label="Pages">
      {hits.isPending ? <span className="link-pages-note">Searching pages…</span> : null}
      {!hits.isPending && found.length === 0 ? (
        <span className="link-pages-note">No page by that name; type an address such as https://…</span>
      ) : null}
      {found.map((hit) => (
        <button key={hit.pageId} type="button" className="link-page" onClick={() => onPick(hit)}>
          <span className="link-page-title">{hit.title.trim() || "Untitled"}</span>
          <span className="link-page-space">{hit.space}</span>
        </button>
      ))}
    </div>
  );
}
