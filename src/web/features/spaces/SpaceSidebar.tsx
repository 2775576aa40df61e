import { Suspense } from "react";
import { Link, useLocation } from "wouter";
import type { Space } from "../../api/types";
import { useMe } from "../../app/session";
import { IconButton } from "../../ui/Button";
import { ChevronDown, Download, Plus, Settings, Trash2 } from "../../ui/icons";
import { Menu, MenuItem, MenuLabel, MenuSeparator } from "../../ui/Menu";
import { WatchButton } from "../notifications";
import { useStartPage } from "../page/start-page";
import { PageTree, TreeSkeleton } from "../tree";
import { useSpaces } from "./queries";
import { useFirstPaintDone } from "../../lib/first-paint";
import { SpaceIcon } from "./SpaceIcon";

/** The space switcher, the page tree and the quiet links below it. */
export function SpaceSidebar({ space, currentPageId }: { space: Space; currentPageId?: string }) {
  const me = useMe();
  const spaces = useSpaces(!!me.data);
  const [location, navigate] = useLocation();
  const administers = space.canAdmin;
  const newPage = useStartPage(space);
  // On a cold view the tree comes with the page, just after the frame is drawn (lib/first-paint.ts).
  const treeNow = useFirstPaintDone();
  return (
    <>
      <div className="sidebar-head">
        {me.data ? (
          <Menu
            align="start"
            label="Switch space"
            trigger={
              <button type="button" className="space-switcher">
                <SpaceIcon space={space} />
                <span className="name">{space.name}</span>
                <span className="visually-hidden">: switch space</span>
                <ChevronDown size={16} aria-hidden="true" />
              </button>
            }
          >
            <MenuLabel>Spaces</MenuLabel>
            {(spaces.data ?? []).map((s) => (
              <MenuItem key={s.id} icon={<SpaceIcon space={s} size={18} />} onSelect={() => navigate(`/s/${s.key}`)}>
                {s.name}
              </MenuItem>
            ))}
            <MenuSeparator />
            <MenuItem onSelect={() => navigate("/")}>All spaces</MenuItem>
          </Menu>
        ) : (
          <div className="space-switcher">
            <SpaceIcon space={space} />
            <span className="name">{space.name}</span>
          </div>
        )}
        {me.data && space.canEdit ? (
          <IconButton
            label={`New page in ${space.name}`}
            className="sidebar-new-page"
            size="sm"
            busy={newPage.busy}
            onClick={() => void newPage.start()}
          >
            <Plus size={16} aria-hidden="true" />
          </IconButton>
        ) : null}
      </div>
      <nav className="sidebar-tree" aria-label="Pages">
        {treeNow ? (
          <Suspense fallback={<TreeSkeleton />}>
            <PageTree space={space} currentPageId={currentPageId} />
          </Suspense>
        ) : (
          <TreeSkeleton />
        )}
      </nav>
      {me.data ? (
        <div className="sidebar-foot">
          <WatchButton kind="space" id={space.key} name={space.name} look="link" />
          {/* Restoring and deleting for good need Edit: a reader is not offered the trash. */}
          {space.canEdit ? (
            <Link
              href={`/s/${space.key}/trash`}
              className="sidebar-link"
              aria-current={location === `/s/${space.key}/trash` ? "page" : undefined}
            >
              <Trash2 aria-hidden="true" /> Trash
            </Link>
          ) : null}
          {/* Administrators find the exports in Settings › Export. */}
          {!administers && (space.exports.site || space.exports.pack) ? (
            <Link
              href={`/s/${space.key}/export`}
              className="sidebar-link"
              aria-current={location === `/s/${space.key}/export` ? "page" : undefined}
            >
              <Download aria-hidden="true" /> Export
            </Link>
          ) : null}
          {administers ? (
            <Link
              href={`/s/${space.key}/settings`}
              className="sidebar-link"
              aria-current={location.startsWith(`/s/${space.key}/settings`) ? "page" : undefined}
            >
              <Settings aria-hidden="true" /> Settings
            </Link>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
