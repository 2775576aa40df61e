/**
 * The page's right-hand panel: one section at a time (comments, attachments, details,
 * restrictions). A column beside the page on wide screens, a sheet over it at phone width;
 * Escape closes it. Loaded lazily the first time it opens.
 */
import { useEffect, useRef } from "react";
import { IconButton } from "../../ui/Button";
import { X } from "../../ui/icons";
import { AttachmentsSection } from "./AttachmentsSection";
import { CommentsSection } from "./CommentsSection";
import { DetailsSection } from "./DetailsSection";
import { RestrictionsSection } from "./RestrictionsSection";
import type { PagePanelProps } from "./types";
import { PANEL_TITLES } from "./usePanel";
import "./panel.css";

const TITLES = PANEL_TITLES;

export default function PagePanel(props: PagePanelProps) {
  const { state } = props;
  const ref = useRef<HTMLElement>(null);
  const panel = state.panel;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Escape inside the editor (a suggestion list, the link form) is the editor's own.
      const inEditor = e.target instanceof Element && e.target.closest(".ProseMirror, .bubble-toolbar");
      if (e.key === "Escape" && !inEditor && !document.querySelector("[role=dialog], [role=menu]")) state.open(null);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [state]);
  // Focus moves into the panel when it opens (not when a comment inside it is picked): to its
  // heading, unless a section already put it somewhere inside (the comment box).
  useEffect(() => {
    if (panel && !ref.current?.contains(document.activeElement)) ref.current?.querySelector<HTMLElement>("h2")?.focus();
  }, [panel]);
  if (!panel) return null;
  return (
    // The page's single-key shortcuts ("e") stay off while the focus is in the panel.
    <aside id="page-panel" className="page-panel" ref={ref} aria-labelledby="page-panel-title" data-no-shortcuts="">
      <div className="page-panel-head">
        <h2 id="page-panel-title" tabIndex={-1}>
          {TITLES[panel]}
        </h2>
        <IconButton label={`Close ${TITLES[panel].toLowerCase()}`} onClick={() => state.open(null)}>
          <X size={18} aria-hidden="true" />
        </IconButton>
      </div>
      <div className="page-panel-body">
        {panel === "comments" ? <CommentsSection {...props} /> : null}
        {panel === "attachments" ? <AttachmentsSection page={props.page} /> : null}
        {panel === "details" ? <DetailsSection page={props.page} space={props.space} /> : null}
        {panel === "restrictions" ? <RestrictionsSection page={props.page} space={props.space} /> : null}
      </div>
    </aside>
  );
}
