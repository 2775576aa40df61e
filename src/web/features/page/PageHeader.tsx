import { useEffect, useState } from "react";
import { Link, useLocation } from "wouter";
import type { Page, Space } from "../../api/types";
import { isBareShortcut } from "../../lib/keyboard";
import { useAction } from "../../lib/mutation";
import { pagePath } from "../../lib/slug";
import { fullDate, timeAgo } from "../../lib/time";
import { Button, IconButton } from "../../ui/Button";
import { ConfirmDialog } from "../../ui/Dialog";
import { Copy, Ellipsis, History, Info, Lock, Maximize2, Minimize2, Pencil, Trash2 } from "../../ui/icons";
import { Menu, MenuItem, MenuSeparator } from "../../ui/Menu";
import { toast } from "../../ui/toast";
import { preloadEditor } from "./editor-chunk";
import { useMe } from "../../app/session";
import { WatchButton } from "../notifications";
import { usePageLabels, usePageWidthMutation, useTrashPageMutation, useVersions } from "./queries";
import { PanelButtons, usePanel } from "../page-panel";
import { PageExportItems } from "../export-import";
import { UnpublishedBanner } from "./UnpublishedBanner";
import { peopleList } from "../../lib/people";

/**
 * Who made the current version: "Updated by Ada", or for a page an import made, what its
 * version says of where it came from, "Imported by Ada from README.md". A version without a
 * known author shows no name at all (never "someone").
 */
function bylineOf(version: {
  authorName: string | null;
  changeComment: string | null;
  contributors: { id: string; name: string }[];
}): string {
  const imported = /^Imported from (.+)$/.exec(version.changeComment ?? "");
  if (imported) return `Imported by ${version.authorName} from ${imported[1]}`;
  return `Updated by ${version.contributors.length ? peopleList(version.contributors, undefined) : version.authorName}`;
}

/** The reading view's header: title, who changed it last, labels, and what can be done. */
export function PageHeader({ page, space, busy }: { page: Page; space: Space; busy?: boolean }) {
  const [, navigate] = useLocation();
  const me = useMe();
  // History is for people signed in (the API answers visitors of a public space 401).
  const versions = useVersions(page.id, !!me.data);
  const labels = usePageLabels(page.id);
  const [trashing, setTrashing] = useState(false);
  const path = pagePath(space.key, page.id, page.title);
  const edit = () => navigate(`${path}/edit`);
  const openPanel = usePanel().open;

  useEffect(() => {
    if (!page.canEdit) return;
    const onKey = (e: KeyboardEvent) => {
      if (isBareShortcut(e, "e")) {
        e.preventDefault();
        edit();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const width = usePageWidthMutation(page);
  const toggleWidth = () => width.mutateAsync();
  const trashPage = useAction(useTrashPageMutation(page), {
    success: `“${page.title}” moved to the trash`,
    done: () => navigate(`/s/${space.key}`),
  });
  const trash = () => trashPage.run();
  const latest = versions.data?.[0];
  return (
    <header className="page-head">
      <div className="page-actions">
        {page.canEdit ? (
          <Button
            size="sm"
            variant="secondary"
            onClick={edit}
            onPointerEnter={preloadEditor}
            onFocus={preloadEditor}
            busy={busy}
            aria-keyshortcuts="E"
            title="Edit (E)"
          >
            <Pencil size={15} aria-hidden="true" /> Edit
          </Button>
        ) : null}
        {me.data ? (
          <Link className="btn btn-ghost btn-sm" href={`${path}/history`}>
            <History size={15} aria-hidden="true" /> History
          </Link>
        ) : null}
        {me.data ? <WatchButton kind="page" id={page.id} name={page.title || "Untitled"} /> : null}
        <PanelButtons signedIn={!!me.data} />
        <Menu trigger={<IconButton label="More actions">{<Ellipsis />}</IconButton>} label="Page actions">
          <MenuItem
            icon={<Copy />}
            onSelect={() => void navigator.clipboard?.writeText(window.location.origin + path).then(() => toast.success("Link copied"))}
          >
            Copy link
          </MenuItem>
          <MenuItem icon={<Info />} onSelect={() => openPanel("details")}>
            Page details
          </MenuItem>
          {me.data ? (
            <MenuItem icon={<Lock />} onSelect={() => openPanel("restrictions")}>
              Restrictions
            </MenuItem>
          ) : null}
          <PageExportItems page={page} space={space} separatorAfter={page.canEdit} />
          {page.canEdit ? (
            <>
              <MenuItem icon={page.fullWidth ? <Minimize2 /> : <Maximize2 />} onSelect={() => void toggleWidth()}>
                {page.fullWidth ? "Readable width" : "Full width"}
              </MenuItem>
              <MenuSeparator />
              <MenuItem icon={<Trash2 />} danger onSelect={() => setTrashing(true)}>
                Move to trash
              </MenuItem>
            </>
          ) : null}
        </Menu>
      </div>
      <h1 className="page-title">
        {page.emoji ? <span className="page-emoji">{page.emoji}</span> : null}
        {page.title || "Untitled"}
      </h1>
      <p className="page-meta">
        {latest?.authorName ? (
          <>
            {bylineOf(latest)} · version {page.currentVersionNumber} ·{" "}
            <time dateTime={page.updatedAt} title={fullDate(page.updatedAt)}>
              {timeAgo(page.updatedAt)}
            </time>
          </>
        ) : (
          <>
            Version {page.currentVersionNumber} · updated{" "}
            <time dateTime={page.updatedAt} title={fullDate(page.updatedAt)}>
              {timeAgo(page.updatedAt)}
            </time>
          </>
        )}
      </p>
      <UnpublishedBanner page={page} space={space} />
      {labels.data?.length ? (
        <ul className="page-labels" aria-label="Labels">
          {labels.data.map((l) => (
            <li key={l.id} className="label-chip">
              {l.name}
            </li>
          ))}
        </ul>
      ) : null}
      <ConfirmDialog
        open={trashing}
        onOpenChange={setTrashing}
        title="Move this page to the trash?"
        description={`“${page.title || "Untitled"}” and every page below it go to the space's trash. You can restore them from there.`}
        confirmLabel="Move to trash"
        error={trashPage.error}
        onConfirm={() => void trash()}
      />
    </header>
  );
}
