/**
 * A page's history (a lazy chunk): its versions newest first; one version read as it was; any
 * two compared; and "Restore this version", which saves it again as the newest (nothing lost).
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useLocation } from "wouter";
import { api, data, parseDoc } from "../../api/client";
import { keys } from "../../api/keys";
import type { Space } from "../../api/types";
import { Loading } from "../../app/Loading";
import { NotFound } from "../../app/NotFound";
import { useAction } from "../../lib/mutation";
import { pagePath } from "../../lib/slug";
import { fullDate, timeAgo } from "../../lib/time";
import { ConfirmDialog } from "../../ui/Dialog";
import { ArrowLeft, RotateCcw } from "../../ui/icons";
import { usePage, useRestoreVersionMutation, useVersions } from "../page/queries";
import { DocumentView } from "../page/render/DocumentView";
import { Comparison } from "./Comparison";
import "./history.css";
import { useTitle } from "../../lib/title";
import { PersonAvatar } from "../people/PersonAvatar";
import type { Version } from "../../api/types";

/**
 * Who a version credits (docs/decisions.md, "Publishing stays an explicit step"): everyone whose
 * changes it published, each with their avatar, and who published it when that was someone else.
 */
function Credits({ version: v }: { version: Version }) {
  const people = v.contributors.length ? v.contributors : v.authorId ? [{ id: v.authorId, name: v.authorName ?? "Someone" }] : [];
  if (people.length === 0) return <>Someone</>;
  const publisher = v.authorId && !people.some((p) => p.id === v.authorId) ? v.authorName : null;
  return (
    <>
      <span className="version-avatars" aria-hidden="true">
        {people.slice(0, 3).map((p) => (
          <PersonAvatar key={p.id} id={p.id} name={p.name} size={18} />
        ))}
      </span>{" "}
      {people.map((p) => p.name).join(", ")}
      {publisher ? ` · published by ${publisher}` : null}
    </>
  );
}

const useVersion = (id: string, n: number | undefined) =>
  useQuery({
    queryKey: keys.version(id, n ?? 0),
    queryFn: () => data(api.GET("/api/pages/{id}/versions/{number}", { params: { path: { id, number: n! } } })),
    enabled: !!n,
    staleTime: Infinity,
  });

export default function HistoryScreen({ space, pageId, versionNumber }: { space: Space; pageId: string; versionNumber?: number }) {
  const page = usePage(pageId);
  const versions = useVersions(pageId);
  useTitle(page.data ? `History of ${page.data.title || "Untitled"}` : null, space.name);
  const [, navigate] = useLocation();
  const newest = versions.data?.[0]?.versionNumber;
  const shown = versionNumber ?? newest;
  const [against, setAgainst] = useState<number | null>(null);
  const base = against ?? (shown && shown > 1 ? shown - 1 : undefined);
  const [mode, setMode] = useState<"read" | "compare">("compare");
  const [restoring, setRestoring] = useState(false);
  const restoration = useAction(useRestoreVersionMutation(pageId), {
    success: (restored, number) => `Version ${number} restored as version ${restored.currentVersionNumber}`,
  });
  const { error, setError } = restoration;
  const viewed = useVersion(pageId, shown);
  const other = useVersion(pageId, mode === "compare" ? base : undefined);

  if (page.isPending || versions.isPending) return <Loading />;
  if (page.error || versions.error) return <NotFound />;
  const path = pagePath(space.key, pageId, page.data.title);
  const restore = async () => {
    if (await restoration.run(shown!)) navigate(path);
  };
  const older = (a?: number) => (versions.data ?? []).filter((v) => v.versionNumber !== a);
  return (
    <main id="main" className="main-column history">
      <Link href={path} className="back-link">
        <ArrowLeft size={15} aria-hidden="true" /> Back to the page
      </Link>
      <h1>History of “{page.data.title || "Untitled"}”</h1>
      <div className="history-layout">
        <nav aria-label="Versions">
          <ol className="version-list">
            {versions.data.map((v) => (
              <li key={v.versionNumber}>
                <Link
                  href={`${path}/history/${v.versionNumber}`}
                  className="version-item"
                  aria-current={v.versionNumber === shown ? "page" : undefined}
                >
                  <span className="version-head">
                    Version {v.versionNumber}
                    {v.versionNumber === newest ? <span className="badge">Current</span> : null}
                  </span>
                  <span className="version-meta">
                    <Credits version={v} /> · <time title={fullDate(v.createdAt)}>{timeAgo(v.createdAt)}</time>
                  </span>
                  {v.changeComment ? <span className="version-comment">{v.changeComment}</span> : null}
                </Link>
              </li>
            ))}
          </ol>
        </nav>
        <section className="version-view" aria-label={`Version ${shown}`}>
          <div className="version-tools">
            <div className="scope" role="group" aria-label="Show">
              <button
                type="button"
                aria-pressed={mode === "compare"}
                onClick={() => setMode("compare")}
                disabled={(versions.data?.length ?? 0) < 2}
              >
                Changes
              </button>
              <button type="button" aria-pressed={mode === "read"} onClick={() => setMode("read")}>
                Whole version
              </button>
            </div>
            {mode === "compare" && base ? (
              <label className="compare-with">
                Compared with{" "}
                <select className="input" value={base} onChange={(e) => setAgainst(Number(e.target.value))}>
                  {older(shown).map((v) => (
                    <option key={v.versionNumber} value={v.versionNumber}>
                      version {v.versionNumber}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            {shown !== newest && page.data.canEdit ? (
              <button type="button" className="btn btn-secondary btn-sm" onClick={() => (setError(null), setRestoring(true))}>
                <RotateCcw size={15} aria-hidden="true" /> Restore this version
              </button>
            ) : null}
          </div>
          {viewed.isPending ? (
            <Loading />
          ) : viewed.data ? (
            mode === "compare" && base && other.data ? (
              <Comparison older={other.data.contentJson} newer={viewed.data.contentJson} />
            ) : mode === "compare" && base ? (
              <Loading />
            ) : (
              <>
                <h2 className="version-title">{viewed.data.title}</h2>
                <DocumentView doc={parseDoc(viewed.data.contentJson)} links />
              </>
            )
          ) : null}
        </section>
      </div>
      <ConfirmDialog
        open={restoring}
        onOpenChange={setRestoring}
        title={`Restore version ${shown}?`}
        description={
          `Version ${shown} becomes the page's content again, saved as a new version ` +
          `${(newest ?? 0) + 1}. Nothing is lost: every version stays in the history.`
        }
        confirmLabel="Restore"
        error={error}
        onConfirm={() => void restore()}
      />
    </main>
  );
}
