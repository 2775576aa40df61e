/**
 * Which section of the page's right-hand panel is open, kept in the address (`?panel=comments&
 * comment=ID`: panels are addresses, docs/decisions.md "Web UI") so a link opens a thread and Back closes the panel.
 */
import { useCallback } from "react";
import { useLocation, useSearch } from "wouter";

export const PANELS = ["comments", "attachments", "details", "restrictions"] as const;
export type PanelKind = (typeof PANELS)[number];
export const PANEL_TITLES: Record<PanelKind, string> = {
  comments: "Comments",
  attachments: "Attachments",
  details: "Page details",
  restrictions: "Restrictions",
};

export interface PanelState {
  panel: PanelKind | null;
  commentId: string | null;
  open(panel: PanelKind | null, commentId?: string | null): void;
}

export function usePanel(): PanelState {
  const [location, navigate] = useLocation();
  const search = new URLSearchParams(useSearch());
  const raw = search.get("panel");
  const panel = (PANELS as readonly string[]).includes(raw ?? "") ? (raw as PanelKind) : null;
  const commentId = search.get("comment");
  const open = useCallback(
    (next: PanelKind | null, comment?: string | null) => {
      const q = new URLSearchParams();
      if (next) q.set("panel", next);
      if (next && comment) q.set("comment", comment);
      const qs = q.toString();
      navigate(qs ? `${location}?${qs}` : location, { replace: true });
    },
    [location, navigate],
  );
  return { panel, commentId, open };
}
