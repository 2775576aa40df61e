/**
 * A page: its header (title, emoji, labels, who changed it last) and its body, read or edited
 * in place. Reading draws the document with the static renderer; the editor (TipTap, a lazy
 * chunk) loads on the first Edit, or sooner when the pointer or focus reaches the button.
 */
import { Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { useLocation } from "wouter";
import { ApiError, parseDoc } from "../../api/client";
import type { Space } from "../../api/types";
import { Loading } from "../../app/Loading";
import { NotFound } from "../../app/NotFound";
import { pagePath } from "../../lib/slug";
import { EditSession } from "./editor-chunk";
import { DocumentView } from "./render/DocumentView";
import { PageById } from "./PageById";
import { PageHeader } from "./PageHeader";
import { usePage } from "./queries";
import { useTaskTicks } from "./task-ticks";
import "./page.css";
import { useTitle } from "../../lib/title";
import { framePainted, useFirstPaintDone } from "../../lib/first-paint";
import { PagePanel, PanelPlaceholder, preloadPanel, SelectionComment, useCommentHighlights, usePanel } from "../page-panel";
import type { TextAnchor } from "../page-panel/anchors";
import { CommentOnSelection } from "../page-panel/comment-on-selection";

export function PageScreen({ space, pageId, mode }: { space: Space; pageId: string; mode: "read" | "edit" }) {
  const page = usePage(pageId);
  useTitle(page.data?.title || (page.data ? "Untitled" : null), space.name);
  const [location, navigate] = useLocation();
  // The right-hand panel (comments, attachments, details, restrictions) and the passages
  // of inline comments highlighted in the reading view.
  const panel = usePanel();
  const [reading, setReading] = useState<HTMLElement | null>(null);
  const [draftAnchor, setDraftAnchor] = useState<TextAnchor | null>(null);
  const openPanel = panel.open;
  const openThread = useCallback((id: string) => openPanel("comments", id), [openPanel]);
  const commentOn = useCallback(
    (anchor: TextAnchor) => {
      setDraftAnchor(anchor);
      openPanel("comments");
    },
    [openPanel],
  );
  // The panel's chunk is fetched once the page is read and the browser is idle, so opening the
  // comments shows the box at once (PanelPlaceholder covers a slow first time).
  const loaded = !!page.data;
  useEffect(() => {
    if (!loaded) return;
    const id = requestIdleCallback(preloadPanel, { timeout: 3000 });
    return () => cancelIdleCallback(id);
  }, [loaded]);
  // One document object per version: a new one each render would redraw the whole page.
  const contentJson = page.data?.contentJson;
  const doc = useMemo(() => (contentJson === undefined ? null : parseDoc(contentJson)), [contentJson]);
  const tick = useTaskTicks(pageId);
  // A cold view draws the frame first (the first paint), then the page (lib/first-paint.ts).
  // With the frame painted by the page itself, the page comes in the app's first render.
  const painted = useFirstPaintDone();
  const pageNow = painted || framePainted;
  const found = useCommentHighlights(pageId, reading, panel.commentId, openThread, !!page.data && page.data.status !== 0);
  const canonical = page.data ? pagePath(space.key, page.data.id, page.data.title) : null;
  // The slug is cosmetic: an old or missing one is replaced by the page's own. The editor's
  // address of a page the caller may not edit becomes the page's (it is read there anyway).
  const mayEdit = !!page.data?.canEdit;
  useEffect(() => {
    if (!canonical || page.data?.spaceId !== space.id) return;
    const wanted = mode === "edit" && mayEdit ? `${canonical}/edit` : canonical;
    // The query (?panel=comments&comment=ID) survives the correction.
    if (location !== wanted && !location.startsWith(`${canonical}/history`)) navigate(wanted + window.location.search, { replace: true });
  }, [canonical, mode, mayEdit, location, navigate, page.data?.spaceId, space.id]);

  if (page.isPending) return <Loading />;
  if (page.error)
    return page.error instanceof ApiError && page.error.status === 404 ? (
      <NotFound />
    ) : (
      <p className="form-error main-column">{page.error.message}</p>
    );
  const p = page.data;
  // An address from before the page moved to another space: the page by its id, where it is now.
  if (p.spaceId !== space.id) return <PageById pageId={p.id} rest={mode === "edit" ? "/edit" : ""} />;
  const editing = (mode === "edit" || p.status === 0) && p.canEdit;
  if (!pageNow) return <main id="main" className={`main-column page${p.fullWidth ? " full-width" : ""}`} />;
  return (
    <main id="main" className={`main-column page${p.fullWidth ? " full-width" : ""}${panel.panel ? " with-panel" : ""}`}>
      {editing ? (
        <CommentOnSelection.Provider value={commentOn}>
          <Suspense fallback={<ReadingFallback page={p} space={space} />}>
            <EditSession key={p.id} page={p} space={space} reading={<ReadingFallback page={p} space={space} />} />
          </Suspense>
          {/* The panel stays beside the editor; the toolbar's Comment opens it with the passage as the draft. */}
          {panel.panel ? (
            <Suspense fallback={<PanelPlaceholder panel={panel.panel} />}>
              <PagePanel
                page={p}
                space={space}
                state={panel}
                draftAnchor={draftAnchor}
                onDraftDone={() => setDraftAnchor(null)}
                found={null}
              />
            </Suspense>
          ) : null}
        </CommentOnSelection.Provider>
      ) : (
        <>
          <PageHeader page={p} space={space} />
          <div ref={setReading}>
            {/* The first paint draws the page's first screen; the rest comes in the next frame (lib/first-paint.ts). */}
            <DocumentView doc={doc ?? parseDoc(p.contentJson)} onTick={p.canEdit ? tick : undefined} links firstScreen={!painted} />
          </div>
          <SelectionComment
            root={reading}
            onComment={(anchor) => {
              setDraftAnchor(anchor);
              openPanel("comments");
            }}
          />
          {panel.panel ? (
            <Suspense fallback={<PanelPlaceholder panel={panel.panel} />}>
              <PagePanel
                page={p}
                space={space}
                state={panel}
                draftAnchor={draftAnchor}
                onDraftDone={() => setDraftAnchor(null)}
                found={found}
              />
            </Suspense>
          ) : null}
        </>
      )}
    </main>
  );
}

/** While the editor downloads, the page stays as it was read: nothing blinks. */
function ReadingFallback({ page, space }: { page: import("../../api/types").Page; space: Space }) {
  return (
    <>
      <PageHeader page={page} space={space} busy />
      <DocumentView doc={parseDoc(page.contentJson)} links />
    </>
  );
}
