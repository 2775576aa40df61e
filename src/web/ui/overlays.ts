/**
 * The Radix chunk (overlays-radix.tsx): menus, dialogs and the drawer. It is not in the entry
 * chunk, which a cold page view must fetch, compile and evaluate before its first paint; the
 * app loads it once that paint is done (App), or sooner when something asks to open.
 */
import { useSyncExternalStore } from "react";

export type Overlays = typeof import("./overlays-radix");

let loaded: Overlays | null = null;
let loading: Promise<Overlays> | null = null;
const listeners = new Set<() => void>();

export function loadOverlays(): Promise<Overlays> {
  loading ??= import("./overlays-radix").then(
    (m) => {
      loaded = m;
      for (const l of listeners) l();
      return m;
    },
    (err) => {
      // A failed download (a new version deployed meanwhile) is tried again on the next ask.
      loading = null;
      throw err;
    },
  );
  return loading;
}

const subscribe = (l: () => void) => (listeners.add(l), () => void listeners.delete(l));
/** The chunk once loaded, else null (the caller draws without it, and is drawn again when it comes). */
export const useOverlays = (): Overlays | null => useSyncExternalStore(subscribe, () => loaded);
/** The chunk, for parts drawn only inside an open menu (it is there by then). */
export const overlays = (): Overlays => {
  if (!loaded) throw new Error("the menus' code is not loaded");
  return loaded;
};
