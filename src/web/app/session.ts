/**
 * Who is signed in, from GET /api/auth/me (null when nobody is), and the instance's public
 * facts. Both are cached for the whole visit; sign-in and sign-out refresh them.
 */
import { useQuery } from "@tanstack/react-query";
import { api, ApiError, data } from "../api/client";
import { keys } from "../api/keys";
import type { Instance, Me } from "../api/types";
import { applyBranding } from "../lib/branding";
import { linkTarget } from "../../content/urls";

/** Whether this visit began with a session that had ended (GET /api/auth/me said so). */
let sessionEnded = false;

/**
 * Where to sign in, then come back to `here`. `ended`: a session really ended (mid-visit, or the
 * visit began with one that had), and only then does the sign-in screen say so; a first visit
 * is just asked to sign in.
 */
export function signInPath(here: string, ended = sessionEnded): string {
  return `/login?redirect=${encodeURIComponent(here)}${ended ? "&ended=1" : ""}`;
}

/** Who is signed in (null: nobody), for useMe and for the first view's prefetch (first-view.ts). */
export async function fetchMe(): Promise<Me | null> {
  try {
    return await data(api.GET("/api/auth/me"));
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      // The server tells a session that ended (a stale cookie) from nobody having signed in.
      if (err.body.sessionEnded === true) sessionEnded = true;
      return null;
    }
    throw err;
  }
}

/** How long who is signed in and the instance's facts stay fresh. */
export const SESSION_STALE_MS = 5 * 60_000;

export function useMe() {
  return useQuery({ queryKey: keys.me, queryFn: fetchMe, staleTime: SESSION_STALE_MS });
}

export function useInstance() {
  return useQuery({ queryKey: keys.instance, queryFn: fetchInstance, staleTime: SESSION_STALE_MS });
}

/** The instance's facts; its branding is applied as they arrive, before any screen shows them. */
export async function fetchInstance(): Promise<Instance> {
  const instance = await data(api.GET("/api/instance"));
  applyBranding(instance.branding);
  return instance;
}

/**
 * Where to go after signing in: the path the person was on, never another host (content/urls.ts
 * decides: `/\host` and `//host` are another host, not a path).
 */
export function safeRedirect(target: string | null): string {
  const path = linkTarget(target);
  return path?.kind === "internal" && path.href.startsWith("/") ? path.href : "/";
}

/** After signing in or registering: who is signed in now, read again (not from the cache). */
export async function refreshSession(queryClient: import("@tanstack/react-query").QueryClient): Promise<void> {
  queryClient.setQueryData(keys.me, await data(api.GET("/api/auth/me")));
  await queryClient.invalidateQueries({ queryKey: keys.instance });
}
