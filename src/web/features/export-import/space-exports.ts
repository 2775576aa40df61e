/**
 * A space's static site or wiki pack, downloaded with progress. The browser's own download
 * manager fetches the zip (streamed to disk, however large; it goes on if the person leaves the
 * page), while this module follows `?progress=<id>` and keeps the state outside React, so the
 * settings section shows a running export again after a visit elsewhere in the app.
 *
 * A request refused before the export starts (switched off, a space no longer readable) never
 * creates its progress: when none appears within `START_WAIT_MS`, the URL is asked once more with
 * fetch (stopped after the answer's headers) to learn why, in the server's words.
 */
import { fetchFile } from "../../api/download";
import { clickDownload, newProgressId } from "./download";
import { POLL_MS, readProgress, sleep } from "./follow";

export type ExportKind = "site" | "pack";
export type Audience = "anonymous" | "me";

export interface ExportRun {
  kind: ExportKind;
  state: "running" | "done" | "failed" | "unfollowed";
  phase: string;
  percent: number;
  /** Why it failed, in words for the person. */
  error: string | null;
}

export const START_WAIT_MS = 5_000;
/** A running export whose progress stops changing for this long is reported as lost. */
const SILENT_MS = 5 * 60_000;

const runs = new Map<string, ExportRun>();
const listeners = new Set<() => void>();
const keyOf = (spaceKey: string, kind: ExportKind) => `${spaceKey}\u0000${kind}`;

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const exportRun = (spaceKey: string, kind: ExportKind): ExportRun | null => runs.get(keyOf(spaceKey, kind)) ?? null;

function set(spaceKey: string, run: ExportRun) {
  runs.set(keyOf(spaceKey, run.kind), run);
  for (const l of listeners) l();
}

export function forget(spaceKey: string, kind: ExportKind) {
  runs.delete(keyOf(spaceKey, kind));
  for (const l of listeners) l();
}

export function exportUrl(spaceKey: string, kind: ExportKind, audience: Audience, progress?: string): string {
  const query = new URLSearchParams();
  if (kind === "site") query.set("audience", audience);
  if (progress) query.set("progress", progress);
  const q = query.toString();
  return `/api/spaces/${encodeURIComponent(spaceKey)}/export/${kind}${q ? `?${q}` : ""}`;
}

/** Starts the download and follows it; answers when it has ended, whichever way. */
export async function startExport(spaceKey: string, kind: ExportKind, audience: Audience): Promise<void> {
  const current = exportRun(spaceKey, kind);
  if (current?.state === "running") return;
  const id = newProgressId();
  set(spaceKey, { kind, state: "running", phase: "starting", percent: 0, error: null });
  clickDownload(exportUrl(spaceKey, kind, audience, id));
  const started = Date.now();
  let seen = false;
  let lastChange = Date.now();
  let last = "";
  for (;;) {
    await sleep(POLL_MS);
    let view;
    try {
      view = await readProgress(id);
    } catch {
      continue; // a blip (the server restarting, the network): the download itself may go on
    }
    if (!view) {
      if (seen) return set(spaceKey, { kind, state: "unfollowed", phase: "", percent: 0, error: null });
      if (Date.now() - started < START_WAIT_MS) continue;
      const why = await askWhy(exportUrl(spaceKey, kind, audience));
      return set(
        spaceKey,
        why
          ? { kind, state: "failed", phase: "", percent: 0, error: why }
          : { kind, state: "unfollowed", phase: "", percent: 0, error: null },
      );
    }
    seen = true;
    const now = `${view.phase}/${view.percent}`;
    if (now !== last) (last = now), (lastChange = Date.now());
    if (view.error)
      return set(spaceKey, { kind, state: "failed", phase: view.phase, percent: view.percent, error: failureText(view.error) });
    if (view.done) return set(spaceKey, { kind, state: "done", phase: view.phase, percent: 100, error: null });
    if (Date.now() - lastChange > SILENT_MS)
      return set(spaceKey, { kind, state: "unfollowed", phase: view.phase, percent: view.percent, error: null });
    set(spaceKey, { kind, state: "running", phase: view.phase, percent: view.percent, error: null });
  }
}

/** The server's reason for refusing `url`, or null when it would answer the file (then the request is stopped at once). */
async function askWhy(url: string): Promise<string | null> {
  const stop = new AbortController();
  try {
    const response = await fetchFile(url, stop.signal);
    if (response.ok) return null;
    const body = (await response.json().catch(() => ({}))) as { code?: string; detail?: string; title?: string };
    return failureText({ code: body.code ?? "error", message: body.detail ?? body.title ?? `The server answered ${response.status}.` });
  } catch {
    return "Cairn could not be reached. Check your connection and try again.";
  } finally {
    stop.abort();
  }
}

function failureText(error: { code: string; message: string }): string {
  switch (error.code) {
    case "export_disabled":
      return "This export is switched off for the space. Switch it on under General › Exports, then try again.";
    case "not_found":
      return "The space is gone, or you can no longer read it.";
    case "unauthenticated":
      return "Your session has ended. Sign in again, then try once more.";
    default:
      return error.message;
  }
}
