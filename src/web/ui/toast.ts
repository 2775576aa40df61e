/**
 * Success is a brief toast (sonner); errors are shown inline, next to where the person acted.
 * sonner (35 KB, and a stylesheet it inserts when evaluated) is not in the entry chunk: a page
 * is read before anything is toasted, so its code and the toaster (app/Toaster.tsx) load once
 * the first screen is painted. A toast asked for sooner is shown as soon as both are there;
 * its id is given here, so `toast.loading` still answers one at once for a later update.
 */
import type { ExternalToast } from "sonner";

type Kind = "success" | "error" | "message" | "loading";
type Id = string | number;

let readyToaster: () => void = () => {};
/** Resolves when the toaster is mounted: a toast sent before it would not be shown. */
const toasterMounted = new Promise<void>((resolve) => (readyToaster = resolve));
/** Called by the toaster once mounted (app/Toaster.tsx). */
export const toasterReady = () => readyToaster();

let sonner: Promise<typeof import("sonner")> | null = null;
/** The toast library's code (the toaster's chunk imports the same module). */
export const loadSonner = () => (sonner ??= import("sonner"));

let lastId = 0;
function show(kind: Kind, message: string, options?: ExternalToast): Id {
  const id = options?.id ?? `cairn-toast-${++lastId}`;
  void Promise.all([loadSonner(), toasterMounted]).then(([s]) => s.toast[kind](message, { ...options, id }));
  return id;
}

export const toast = {
  success: (message: string, options?: ExternalToast) => show("success", message, options),
  error: (message: string, options?: ExternalToast) => show("error", message, options),
  message: (message: string, options?: ExternalToast) => show("message", message, options),
  loading: (message: string, options?: ExternalToast) => show("loading", message, options),
};
