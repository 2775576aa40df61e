/**
 * Going back returns to the same scroll position: positions are kept per history entry (in
 * sessionStorage, so a reload keeps them too) and restored once the screen has rendered.
 */
import { useEffect, useLayoutEffect } from "react";
import { useLocation } from "wouter";

const KEY = "cairn.scroll";
const positions: Record<string, number> = JSON.parse(sessionStorage.getItem(KEY) ?? "{}");
// Between a Back and the restore, scroll events come from the old screen being swapped out.
let restoring = false;
// Registered when this module loads, before the router's own listener: React may render the
// new screen in a microtask right after the router's listener, and it must know it is a Back.
window.addEventListener("popstate", () => (restoring = true));

function entryKey(): string {
  const state = (history.state ?? {}) as { key?: string };
  if (!state.key) history.replaceState({ ...(history.state ?? {}), key: Math.random().toString(36).slice(2) }, "");
  return (history.state as { key: string }).key;
}

export function useScrollRestoration(): void {
  const [location] = useLocation();
  useEffect(() => {
    history.scrollRestoration = "manual";
    const onScroll = () => {
      if (!restoring) positions[entryKey()] = window.scrollY;
    };
    const persist = () => sessionStorage.setItem(KEY, JSON.stringify(positions));
    window.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("pagehide", persist);
    return () => {
      window.removeEventListener("scroll", onScroll);
      window.removeEventListener("pagehide", persist);
    };
  }, []);
  useLayoutEffect(() => {
    const target = restoring ? (positions[entryKey()] ?? 0) : 0;
    // After the screen's content has laid out (cached answers render at once).
    requestAnimationFrame(() => {
      window.scrollTo(0, target);
      restoring = false;
    });
  }, [location]);
}
