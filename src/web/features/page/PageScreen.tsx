/**
 * A page: its header (title, emoji, labels, who changed it last) and its body, read or edited
 * in place. Reading draws the document with the static renderer; the editor (TipTap, a lazy
 * chunk) loads on the first Edit, or sooner when the pointer or focus reaches the button.
 */
import { Suspense, useEffect } from "react";
import { useLocation } from "wouter";
import { ApiError, parseDoc } from "../../api/client";
import type { Space } from "../../api/types";
import { Loading } from "../../app/Loading";
import { NotFound } from "../../app/NotFound";
import { pagePath } from "../../lib/slug";
import { EditSession } from "./editor-chunk";
import { DocumentView } from "./render/DocumentView";
import { PageHeader } from "./PageHeader";
import { usePage } from "./queries";
import "./page.css";
import { useTitle } from "../../lib/title";


export function PageScreen({ space, pageId, mode }: { space: Space; pageId: string; mode: "read" | "edit" }) {
  const page = usePage(pageId);
  useTitle(page.data?.title || (page.data ? "Untitled" : null), space.name);
  const [location, navigate] = useLocation();
  const canonical = page.data ? pagePath(space.key, page.data.id, page.data.title) : null;
  // The slug is cosmetic: an old or missing one is replaced by the page's own.
  useEffect(() => {
    if (!canonical || page.data?.spaceId !== space.id) return;
    const wanted = mode === "edit" ? `${canonical}/edit` : canonical;
    if (location !== wanted && !location.startsWith(`${canonical}/history`)) navigate(wanted, { replace: true });
  }, [canonical, mode, location, navigate, page.data?.spaceId, space.id]);

  if (page.isPending) return <Loading />;
  if (page.error) return page.error instanceof ApiError && page.error.status === 404 ? <NotFound /> : <p className="form-error main-column">{page.error.message}</p>;
  const p = page.data;
  if (p.spaceId !== space.id) return <NotFound />;
  const editing = (mode === "edit" || p.status === 0) && p.canEdit;
  return (
    <main id="main" className={`main-column page${p.fullWidth ? " full-width" : ""}`}>
      {editing ? (
        <Suspense fallback={<ReadingFallback page={p} space={space} />}>
          <EditSession key={p.id} page={p} space={space} reading={<ReadingFallback page={p} space={space} />} />
        </Suspense>
      ) : (
        <>
          <PageHeader page={p} space={space} />
          <DocumentView doc={parseDoc(p.contentJson)} />
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
      <DocumentView doc={parseDoc(page.contentJson)} />
    </>
  );
}
