/**
 * The search palette (Ctrl/⌘-K, or "/" outside a text field): results as one types, title,
 * space and the matching passage; arrows and Enter open a page; the last line opens the full
 * results. Inside a space it searches that space first, with a switch to search everywhere.
 * With nothing typed it lists the pages this person viewed last (kept per account).
 *
 * Enter opens the best hit. The results arrive after the typing (debounced, then fetched), so
 * the row cmdk would have selected meanwhile is the last query's, or "See all results" alone:
 * the selection is ours (the best hit until the arrows or the pointer pick another), and an
 * Enter pressed before this query's results arrive waits for them.
 */
import { Command } from "cmdk";
import { useEffect, useRef, useState } from "react";
import { useLocation } from "wouter";
import { pagePath } from "../../lib/slug";
import { FileText, Search } from "../../ui/icons";
import { useSearchHits, useViewedPages } from "./queries";
import { MarkedTitle, Snippet } from "./Snippet";
import "./search.css";

const ALL = "__all__";
const MOVES = new Set(["ArrowDown", "ArrowUp", "Home", "End", "PageDown", "PageUp"]);

export function SearchPalette({ open, onOpenChange, spaceId }: { open: boolean; onOpenChange(open: boolean): void; spaceId?: string }) {
  const [, navigate] = useLocation();
  const [q, setQ] = useState("");
  const [scope, setScope] = useState<"space" | "all">(spaceId ? "space" : "all");
  const within = spaceId && scope === "space" ? spaceId : null;
  const typed = q.trim();
  const hits = useSearchHits(q, within);
  const viewed = useViewedPages(!typed);
  // A row chosen by the arrows or the pointer since the last keystroke; else the best one.
  const [picked, setPicked] = useState<string | null>(null);
  const moved = useRef(false);
  const [waiting, setWaiting] = useState(false);

  const all = `/search?q=${encodeURIComponent(typed)}${within ? `&space=${encodeURIComponent(within)}` : ""}`;
  const shown = typed ? (hits.data ?? []).slice(0, 8) : [];
  const recent = typed ? [] : (viewed.data ?? []).slice(0, 10);
  const values = typed ? [...shown.map((h) => h.pageId), ALL] : recent.map((p) => p.id);
  const selected = picked && values.includes(picked) ? picked : (values[0] ?? "");
  const correction = typed ? shown[0]?.spelledAs : undefined;

  const go = (path: string) => {
    onOpenChange(false);
    setQ("");
    navigate(path);
  };
  const openBest = () => {
    const best = hits.data?.[0];
    go(best ? pagePath(best.spaceKey, best.pageId, best.title) : all);
  };
  // Enter came before the results: open the best one as soon as they are this query's.
  useEffect(() => {
    if (!waiting || !hits.settled) return;
    setWaiting(false);
    openBest();
  });
  const onQuery = (next: string) => {
    setQ(next);
    setPicked(null);
    moved.current = false;
    setWaiting(false);
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (MOVES.has(e.key)) moved.current = true;
    if (e.key !== "Enter" || !typed || (moved.current && picked && hits.settled)) return;
    // cmdk leaves a key alone once it is handled (defaultPrevented).
    e.preventDefault();
    if (hits.settled) openBest();
    else setWaiting(true);
  };

  return (
    <Command.Dialog
      open={open}
      onOpenChange={onOpenChange}
      label="Search pages"
      shouldFilter={false}
      value={selected}
      onValueChange={(value) => moved.current && setPicked(value)}
      className="palette"
      overlayClassName="dialog-overlay"
      contentClassName="palette-content"
    >
      <div className="palette-input">
        <Search size={18} aria-hidden="true" />
        <Command.Input
          value={q}
          onValueChange={onQuery}
          onKeyDown={onKeyDown}
          placeholder="Search pages…"
          aria-label="Search pages"
          aria-busy={waiting || undefined}
        />
        {spaceId ? (
          <div className="scope" role="group" aria-label="Where to search">
            <button type="button" aria-pressed={scope === "space"} onClick={() => setScope("space")}>
              This space
            </button>
            <button type="button" aria-pressed={scope === "all"} onClick={() => setScope("all")}>
              All spaces
            </button>
          </div>
        ) : null}
      </div>
      {/* Outside the list: a listbox holds options only. */}
      {correction ? (
        <div className="palette-correction" role="status">
          No pages have “{typed}”. Showing results for “<strong>{correction}</strong>”.
        </div>
      ) : null}
      <Command.List
        className="palette-list"
        aria-label={typed ? "Results" : "Recently viewed"}
        onPointerMove={() => (moved.current = true)}
      >
        {!typed && viewed.data && recent.length === 0 ? <div className="palette-note">Type to search every page you can read.</div> : null}
        {hits.error ? (
          <div className="palette-note error-text" role="alert">
            {hits.error.message}
          </div>
        ) : null}
        {typed && hits.data && hits.data.length === 0 && !hits.isFetching ? (
          <div className="palette-note">
            No pages match “{typed}”. Try fewer or different words{within ? ", or search all spaces" : ""}.
          </div>
        ) : null}
        {recent.length ? (
          <Command.Group heading="Recently viewed" className="palette-group">
            {recent.map((p) => (
              <Command.Item
                key={p.id}
                value={p.id}
                onSelect={() => go(pagePath(p.spaceKey, p.id, p.title))}
                className="palette-item palette-recent"
              >
                {p.emoji ? (
                  <span className="palette-icon palette-emoji" aria-hidden="true">
                    {p.emoji}
                  </span>
                ) : (
                  <FileText size={16} aria-hidden="true" className="palette-icon" />
                )}
                <div className="palette-text">
                  <div className="palette-title">
                    {p.title || "Untitled"} <span className="palette-space">· {p.space}</span>
                  </div>
                </div>
              </Command.Item>
            ))}
          </Command.Group>
        ) : null}
        {shown.map((hit) => (
          <Command.Item
            key={hit.pageId}
            value={hit.pageId}
            onSelect={() => go(pagePath(hit.spaceKey, hit.pageId, hit.title))}
            className="palette-item"
          >
            <FileText size={16} aria-hidden="true" className="palette-icon" />
            <div className="palette-text">
              <div className="palette-title">
                <MarkedTitle title={hit.title} words={hit.spelledAs} /> <span className="palette-space">· {hit.space}</span>
              </div>
              <div className="palette-snippet">
                <Snippet text={hit.snippet} />
              </div>
            </div>
          </Command.Item>
        ))}
        {typed ? (
          <Command.Item value={ALL} onSelect={() => go(all)} className="palette-item palette-all">
            <Search size={16} aria-hidden="true" className="palette-icon" /> See all results for “{typed}”
          </Command.Item>
        ) : null}
      </Command.List>
    </Command.Dialog>
  );
}
