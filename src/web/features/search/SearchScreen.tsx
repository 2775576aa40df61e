/** /search?q=&space=: every hit for a query, with a space filter; the URL follows the field. */
import { Link, useLocation, useSearch } from "wouter";
import { pagePath } from "../../lib/slug";
import { EmptyState } from "../../ui/EmptyState";
import { useSpaces } from "../spaces/queries";
import { useSearchHits } from "./queries";
import { Snippet } from "./Snippet";
import "./search.css";
import { useTitle } from "../../lib/title";

export function SearchScreen() {
  const params = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const q = params.get("q") ?? "";
  const space = params.get("space") ?? "";
  const spaces = useSpaces();
  const hits = useSearchHits(q, space || null);
  useTitle(q ? `Search: ${q}` : "Search");
  const update = (next: { q?: string; space?: string }) => {
    const p = new URLSearchParams({ q: next.q ?? q, ...((next.space ?? space) ? { space: next.space ?? space } : {}) });
    navigate(`/search?${p.toString()}`, { replace: true });
  };
  return (
    <main id="main" className="main-column search-screen">
      <h1>Search</h1>
      <form className="search-form" role="search" onSubmit={(e) => e.preventDefault()}>
        <input
          className="input"
          type="search"
          aria-label="Search pages"
          placeholder="Search pages…"
          value={q}
          onChange={(e) => update({ q: e.target.value })}
          autoFocus
        />
        <select className="input" aria-label="Space" value={space} onChange={(e) => update({ space: e.target.value })}>
          <option value="">All spaces</option>
          {(spaces.data ?? []).map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </form>
      {hits.error ? (
        <p className="form-error" role="alert">
          {hits.error.message}
        </p>
      ) : !q.trim() ? (
        <EmptyState title="Type to search">Every page you can read, in every space, by its words.</EmptyState>
      ) : hits.data && hits.data.length === 0 ? (
        <EmptyState title={`No pages match “${q.trim()}”`}>Try fewer or different words{space ? ", or search all spaces" : ""}.</EmptyState>
      ) : (
        <>
          <p className="muted" role="status">
            {hits.data ? `${hits.data.length}${hits.data.length === 50 ? "+" : ""} page${hits.data.length === 1 ? "" : "s"}` : "Searching…"}
          </p>
          <ol className="search-results">
            {(hits.data ?? []).map((hit) => (
              <li key={hit.pageId}>
                <Link href={pagePath(hit.spaceKey, hit.pageId, hit.title)} className="search-result-title">
                  {hit.title}
                </Link>
                <span className="palette-space"> · {hit.space}</span>
                <p className="search-result-snippet">
                  <Snippet text={hit.snippet} />
                </p>
              </li>
            ))}
          </ol>
        </>
      )}
    </main>
  );
}
