/**
 * The frame of every signed-in screen: the top bar (home, breadcrumbs, search, account), the
 * left sidebar when a space is open (a drawer below 900 px) and the main column.
 */
import { useEffect, useState, type ReactNode } from "react";
import { Link, useLocation } from "wouter";
import { SearchLauncher } from "../features/search";
import { NotificationBell } from "../features/notifications";
import { IconButton } from "../ui/Button";
import { MenuIcon } from "../ui/icons";
import { loadOverlays, useOverlays } from "../ui/overlays";
import { AccountMenu } from "./AccountMenu";
import { Brand } from "./Brand";
import { useInstance, useMe } from "./session";
import "./shell.css";

export interface ShellProps {
  children: ReactNode;
  /** The space's sidebar (switcher, tree, trash); absent on screens outside a space. */
  sidebar?: ReactNode;
  breadcrumbs?: ReactNode;
  /** Limit search to this space by default. */
  spaceId?: string;
}

export function Shell({ children, sidebar, breadcrumbs, spaceId }: ShellProps) {
  const instance = useInstance();
  const me = useMe();
  const [drawer, setDrawer] = useState(false);
  const overlays = useOverlays();
  const [location] = useLocation();
  // A choice in the drawer (a page, another space) closes it.
  useEffect(() => setDrawer(false), [location]);

  return (
    <div className={`shell${sidebar ? " shell-with-sidebar" : ""}`}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {sidebar ? (
        <aside className="sidebar" aria-label="Space navigation">
          {sidebar}
        </aside>
      ) : null}
      {sidebar ? (
        // The drawer is Radix's dialog, loaded after the first paint (ui/overlays.ts).
        overlays ? (
          <overlays.Drawer open={drawer} onOpenChange={setDrawer}>
            {sidebar}
          </overlays.Drawer>
        ) : null
      ) : null}
      <div className="shell-body">
        <header className="topbar">
          {sidebar ? (
            <IconButton
              label="Open navigation"
              className="drawer-button"
              onClick={() => (setDrawer(true), void loadOverlays().catch(() => {}))}
            >
              <MenuIcon />
            </IconButton>
          ) : null}
          <Link href="/" className="brand" aria-label={`${instance.data?.branding.brandName ?? "Cairn"}: your spaces`}>
            <Brand branding={instance.data?.branding} />
          </Link>
          <nav className="breadcrumbs" aria-label="Breadcrumbs">
            {breadcrumbs}
          </nav>
          <div className="topbar-actions">
            <SearchLauncher spaceId={spaceId} />
            {me.data ? <NotificationBell /> : null}
            <AccountMenu />
          </div>
        </header>
        {children}
      </div>
    </div>
  );
}
