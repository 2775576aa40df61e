/**
 * The page a cold page view shows, read for the page the server writes (ui-frame.ts): only when
 * the API would answer the app's own first requests for it, GET /api/spaces/KEY and GET
 * /api/pages/{id}, with this caller (the session resolved by the pipeline, as for any API
 * request: expired, revoked and blocked all make an anonymous caller, which gets nothing here).
 * Anything else (no session, a missing, unreadable or trashed page, another space's key, a
 * draft, which opens in the editor, or another screen of the page) is null: the plain frame,
 * the same bytes as for a page that does not exist.
 */
import type { Core } from "../core";
import type { Caller } from "../identity/caller";
import { getPageJson } from "../pages/service";
import { getSpace } from "../spaces/service";

/** What the reading view's first render draws of the page. */
export interface PageView {
  title: string;
  emoji: string | null;
  fullWidth: boolean;
  contentJson: string;
  /** Whether the caller may edit it: the app then draws task boxes that tick. */
  canEdit: boolean;
}

/** Only the reading view itself: /s/KEY/p/<id>[-slug], nothing after (not /edit, /history…). */
const READING_ADDRESS = /^\/s\/([A-Za-z0-9_-]{1,64})\/p\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:-[^/]*)?\/?$/i;

export function readablePageView(core: Core, caller: Caller, path: string): PageView | null {
  if (caller.kind !== "user" || !caller.session) return null;
  const m = READING_ADDRESS.exec(path);
  if (!m) return null;
  try {
    const space = getSpace(core, caller, m[1]);
    const { json } = getPageJson(core, caller, m[2]);
    const page = JSON.parse(json) as { spaceId: string; status: number; deletedAt?: string | null; title: string; emoji?: string | null; fullWidth?: boolean; contentJson: string; canEdit: boolean };
    if (page.spaceId !== space.id || page.status === 0 || page.deletedAt) return null;
    return { title: page.title, emoji: page.emoji ?? null, fullWidth: !!page.fullWidth, contentJson: page.contentJson, canEdit: page.canEdit };
  } catch {
    // Whatever the API would refuse (a 404 above all) is the plain frame.
    return null;
  }
}
