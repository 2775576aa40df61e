/**
 * The routes. Every screen is a client of the public API; paths are the ones people share:
 * /s/KEY (a space), /s/KEY/p/<id>-<slug> (a page), …/edit, …/history, /search?q=.
 */
import { lazy, Suspense, useEffect } from "react";
import { Redirect, Route, Switch, useLocation, useSearch } from "wouter";
import { onUnauthorized } from "../api/client";
import { queryClient } from "../api/query-client";
import { keys } from "../api/keys";
import { SetupScreen } from "../features/auth/SetupScreen";
import { SetupWizard } from "../features/setup";
import { SignInScreen } from "../features/auth/SignInScreen";
import { RegisterScreen } from "../features/auth/RegisterScreen";
import { ResetPasswordScreen } from "../features/auth/ResetPasswordScreen";
import { HomeScreen } from "../features/spaces/HomeScreen";
import { SpaceRoutes } from "../features/spaces/SpaceRoutes";
import { SearchScreen } from "../features/search";
import { NotificationsScreen } from "../features/notifications";
import { AccountScreen } from "../features/account";
import { AdminScreen } from "../features/admin";
import { useScrollRestoration } from "../lib/scroll";
import { useFirstPaintDone } from "../lib/first-paint";
import { loadOverlays } from "../ui/overlays";
import { PageById } from "../features/page/PageById";
import { idFromSegment } from "../lib/slug";
import { NotFound } from "./NotFound";
import { Shell } from "./Shell";
import { signInPath, useInstance, useMe } from "./session";
import { Loading } from "./Loading";
import { ImagePolicyContext } from "../features/page/render/page-image";

export function App() {
  const [location, navigate] = useLocation();
  const instance = useInstance();
  const me = useMe();
  useScrollRestoration();

  // A session that ends mid-visit: back to sign-in, then to where the person was.
  useEffect(
    () =>
      onUnauthorized(() => {
        // Only a session that ended sends to sign-in; a visitor of a public space never had one.
        if (!queryClient.getQueryData(keys.me)) return;
        queryClient.setQueryData(keys.me, null);
        const here = window.location.pathname + window.location.search;
        if (!here.startsWith("/login")) navigate(signInPath(here, true), { replace: true });
      }),
    [navigate],
  );

  if (instance.isPending || me.isPending) return <Loading />;
  if (instance.data?.needsOwner && location !== "/setup") return <Redirect to="/setup" replace />;

  return (
    <ImagePolicyContext.Provider value={instance.data?.imageHosts ?? OWN_IMAGES_ONLY}>
      <Switch>
        <Route path="/setup">{instance.data?.needsOwner ? <SetupScreen /> : <Redirect to="/" replace />}</Route>
        <Route path="/welcome/:step?">
          {(params) => (
            <SignedIn>
              <Suspense fallback={<Loading />}>
                <SetupWizard step={params.step} />
              </Suspense>
            </SignedIn>
          )}
        </Route>
        <Route path="/login">
          <SignInScreen />
        </Route>
        <Route path="/register">
          <RegisterScreen />
        </Route>
        <Route path="/reset-password">
          <ResetPasswordScreen />
        </Route>
        <Route path="/p/:seg">
          {(params) => (
            <Shell>
              <PageById pageId={idFromSegment(params.seg)} />
            </Shell>
          )}
        </Route>
        <Route path="/s/:key/*?">{(params) => <SpaceRoutes spaceKey={decodeURIComponent(params.key)} />}</Route>
        <Route path="/">
          <SignedIn>
            <Shell>
              <HomeScreen />
            </Shell>
          </SignedIn>
        </Route>
        <Route path="/search">
          <SignedIn>
            <Shell>
              <SearchScreen />
            </Shell>
          </SignedIn>
        </Route>
        <Route path="/notifications">
          <SignedInScreen>
            <NotificationsScreen />
          </SignedInScreen>
        </Route>
        <Route path="/settings/:section?">
          {(params) => (
            <SignedInScreen>
              <AccountScreen section={params.section} />
            </SignedInScreen>
          )}
        </Route>
        <Route path="/admin/:section?">
          {(params) => (
            <SignedInScreen>
              <AdminScreen section={params.section} />
            </SignedInScreen>
          )}
        </Route>
        {/* Where people and the audit log were before the admin area gathered them. */}
        <Route path="/people/:section?">{(params) => <Redirect to={`/admin/${params.section ?? "people"}`} replace />}</Route>
        <Route path="/audit">
          <Redirect to="/admin/audit" replace />
        </Route>
        <Route>
          <Shell>
            <NotFound />
          </Shell>
        </Route>
      </Switch>
      <AfterFirstPaint />
    </ImagePolicyContext.Provider>
  );
}

/** Until the instance answers (it always has before a page shows): only the wiki's own images. */
const OWN_IMAGES_ONLY = { restricted: true, hosts: [] };

/** Screens for people signed in; anyone else signs in first and comes back. */
export function SignedIn({ children }: { children: React.ReactNode }) {
  const me = useMe();
  const [location] = useLocation();
  const search = useSearch();
  if (me.isPending) return <Loading />;
  if (!me.data) return <Redirect to={signInPath(location + (search ? `?${search}` : ""))} replace />;
  return <>{children}</>;
}

/** A lazily loaded screen for people signed in, in the shell. */
function SignedInScreen({ children }: { children: React.ReactNode }) {
  return (
    <SignedIn>
      <Shell>
        <Suspense fallback={<Loading />}>{children}</Suspense>
      </Shell>
    </SignedIn>
  );
}

/** Toasts in the theme on screen (sonner draws light ones unless told). */
/** What loads once the first screen is painted: the toaster with sonner (nothing is toasted before, ui/toast.ts), the menus and dialogs. */
const LazyToaster = lazy(() => import("./Toaster").then((m) => ({ default: m.ThemedToaster })));
function AfterFirstPaint() {
  const painted = useFirstPaintDone();
  // Menus and dialogs (Radix) too: nothing opens before the first paint (ui/overlays.ts).
  useEffect(() => void (painted && loadOverlays().catch(() => {})), [painted]);
  return painted ? (
    <Suspense fallback={null}>
      <LazyToaster />
    </Suspense>
  ) : null;
}
