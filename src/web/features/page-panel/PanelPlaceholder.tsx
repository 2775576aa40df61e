/**
 * The panel's frame while its chunk downloads: it takes the focus at once, so keys pressed
 * between a click on "Comments" and the comment box's arrival are not the page's shortcuts
 * ("e" would open the editor).
 */
import { useEffect, useRef } from "react";
import { PANEL_TITLES, type PanelKind } from "./usePanel";
import "./panel.css";

export function PanelPlaceholder({ panel }: { panel: PanelKind }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <aside className="page-panel" aria-busy="true" aria-labelledby="page-panel-title" data-no-shortcuts="">
      <div className="page-panel-head">
        <h2 id="page-panel-title" tabIndex={-1} ref={heading}>
          {PANEL_TITLES[panel]}
        </h2>
      </div>
      <div className="page-panel-body">
        <p className="muted">Loading…</p>
      </div>
    </aside>
  );
}
