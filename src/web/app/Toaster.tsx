/**
 * The toaster, a chunk of its own with sonner (ui/toast.ts says why): mounted by the app once
 * its first screen is painted.
 */
import { useEffect, useSyncExternalStore } from "react";
import { Toaster } from "sonner";
import { onThemePainted, paintedTheme } from "../lib/theme";
import { toasterReady } from "../ui/toast";

export function ThemedToaster() {
  const theme = useSyncExternalStore(onThemePainted, paintedTheme);
  useEffect(toasterReady, []);
  // dir given: without it sonner reads the document's computed style on every render, which
  // makes the browser recompute the styles of the whole page in the middle of React's work.
  return <Toaster position="bottom-right" closeButton theme={theme} dir="ltr" />;
}
