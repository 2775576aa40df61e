/**
 * The search palette (Ctrl/⌘-K, or "/" outside a text field): results as one types, title,
 * space and the matching passage; arrows and Enter open a page; the last line opens the full
 * results. Inside a space it searches that space first, with a switch to search everywhere.
 */
import { Command } from "cmdk";
import { useState } from "react";
import { useLocation } from "wouter";
import { pagePath } from "../../lib/slug";
import { FileText, Search } from "../../ui/icons";
import { useSearchHits } from "./queries";
import { Snippet } from "./Snippet";
import "./search.css";

export function SearchPalette({ open, onOpenChange, spaceId }: { open: boolean; onOpenChange(open: boolean): void; spaceId?: string }) {
  const [, navigate] = useLocation();
  const [q, setQ] = useState("");
  const [scope, setScope] = useState<"space" | "all">(spaceId ? "space" : "all");
  const within = spaceId && scope === "space" ? spaceId : null;
  const hits = useSearchHits(q, within);
  const go = (path: string) => {
    onOpenChange(false);
    setQ("");
    navigate(path);
  };
  const all = `/search?q=${encodeURIComponent(q.trim())}${within ? `&space=${encodeURIComponent(within)}` : ""}`;
  return (
    <Command.Dialog open={open} onOpenChange={onOpenChange} label="Search pages" shouldFilter={false} className="palette" overlayClassName="dialog-overlay" contentClassName="palette-content">
      <div className="palette-input">
        <Search size={18} aria-hidden="true" />
        <Command.Input value={q} onValueChange={setQ} placeholder="Search pages…" aria-label="Search pages" />
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
      <Command.List className="palette-list" aria-label="Results">
        {!q.trim() ? <div className="palette-note">Type to search every page you can read.</div> : null}
        {hits.error ? <div className="palette-note error-text" role="alert">{hits.error.message}</div> : null}
        {q.trim() && hits.data && hits.data.length === 0 && !hits.isFetching ? (
          <div className="palette-note">No pages match “{q.trim()}”. Try fewer or different words{within ? ", or search all spaces" : ""}.</div>
        ) : null}
        {(q.trim() ? (hits.data ?? []) : []).slice(0, 8).map((hit) => (
          <Command.Item key={hit.pageId} value={hit.pageId} onSelect={() => go(pagePath(hit.spaceKey, hit.pageId, hit.title))} className="palette-item">
            <FileText size={16} aria-hidden="true" className="palette-icon" />
            <div className="palette-text">
              <div className="palette-title">
                {hit.title} <span className="palette-space">· {hit.space}</span>
              </div>
              <div className="palette-snippet">
                <Snippet text={hit.snippet} />
              </div>
            </div>
          </Command.Item>
        ))}
        {q.trim() ? (
          <Command.Item value="__all__" onSelect={() => go(all)} className="palette-item palette-all">
            <Search size={16} aria-hidden="true" className="palette-icon" /> See all results for “{q.trim()}”
          </Command.Item>
        ) : null}
      </Command.List>
    </Command.Dialog>
  );
}
