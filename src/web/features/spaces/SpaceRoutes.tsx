/**
 * Everything under /s/KEY: the space's frame (sidebar with the switcher and tree, breadcrumbs)
 * around its home, its pages, a page's history and the trash. Anonymous visitors reach the
 * public spaces here; for anything else they are asked to sign in.
 */
import { Suspense } from "react";
import { Redirect, Route, Switch, useLocation } from "wouter";
import { ApiError } from "../../api/client";
import type { Space } from "../../api/types";
import { Loading } from "../../app/Loading";
import { NotFound } from "../../app/NotFound";
import { Shell } from "../../app/Shell";
import { signInPath, useMe } from "../../app/session";
import { HistoryScreen } from "../history";
import { NewPageScreen, PageScreen } from "../page";
import { TrashScreen } from "../trash";
import { SpaceSettingsScreen } from "../space-settings";
import { SpaceExportScreen } from "../export-import";
import { idFromSegment } from "../../lib/slug";
import { Breadcrumbs } from "./Breadcrumbs";
import { useSpace } from "./queries";
import { SpaceHome } from "./SpaceHome";
import { SpaceSidebar } from "./SpaceSidebar";
import "./spaces.css";

export function SpaceRoutes({ spaceKey }: { spaceKey: string }) {
  const space = useSpace(spaceKey);
  const me = useMe();
  const [location] = useLocation();
  if (space.isPending) return <Loading />;
  if (space.error) {
    // Anonymous and not a public space: sign in, then come back here.
    if (!me.data && space.error instanceof ApiError && (space.error.status === 401 || space.error.status === 404)) {
      return <Redirect to={signInPath(location)} replace />;
    }
    return (
      <Shell>
        <NotFound what="space" />
      </Shell>
    );
  }
  return <SpaceFrame space={space.data} />;
}

function SpaceFrame({ space }: { space: Space }) {
  const [location] = useLocation();
  const pageId = /^\/s\/[^/]+\/p\/([^/]+)/.exec(location)?.[1];
  return (
    <Shell
      sidebar={<SpaceSidebar space={space} currentPageId={pageId ? idFromSegment(pageId) : undefined} />}
      breadcrumbs={<Breadcrumbs space={space} pageId={pageId ? idFromSegment(pageId) : undefined} />}
      spaceId={space.id}
    >
      <Suspense fallback={<Loading />}>
        <Switch>
          <Route path="/s/:key">
            <SpaceHome space={space} />
          </Route>
          <Route path="/s/:key/new">
            <NewPageScreen space={space} />
          </Route>
          <Route path="/s/:key/trash">
            <TrashScreen space={space} />
          </Route>
          <Route path="/s/:key/export">
            <SpaceExportScreen space={space} />
          </Route>
          <Route path="/s/:key/settings/templates/:templateId">
            {(p) => <SpaceSettingsScreen space={space} section="templates" templateId={p.templateId} />}
          </Route>
          <Route path="/s/:key/settings/:section?">{(p) => <SpaceSettingsScreen space={space} section={p.section} />}</Route>
          <Route path="/s/:key/p/:seg/history/:n?">
            {(p) => <HistoryScreen space={space} pageId={idFromSegment(p.seg)} versionNumber={p.n ? Number(p.n) : undefined} />}
          </Route>
          <Route path="/s/:key/p/:seg/edit">
            {(p) => <PageScreen key={idFromSegment(p.seg)} space={space} pageId={idFromSegment(p.seg)} mode="edit" />}
          </Route>
          <Route path="/s/:key/p/:seg">
            {(p) => <PageScreen key={idFromSegment(p.seg)} space={space} pageId={idFromSegment(p.seg)} mode="read" />}
          </Route>
          <Route>
            <NotFound />
          </Route>
        </Switch>
      </Suspense>
    </Shell>
  );
}
