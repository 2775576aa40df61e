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
import { pageMain } from "./ui-frame";

/** Only the reading view itself: /s/KEY/p/<id>[-slug], nothing after (not /edit, /history…). */
const READING_ADDRESS = /^\/s\/([A-Za-z0-9_-]{1,64})\/p\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:-[^/]*)?\/?$/i;

/**
 * The main column carrying the page (ui-frame.ts pageMain), or null. Drawn once per page as
 * the API keeps it (its answer's text, kept until the page or its access changes; one text for
 * editors and one for readers), so a page opened again costs no parsing or drawing. A few
 * pages, and only ones of ordinary size, are kept: it is an answer per cold page view.
 */
export function readablePageMain(core: Core, caller: Caller, path: string): string | null {
  const read = readablePage(core, caller, path);
  if (!read) return null;
  let kept = drawn.get(read.json);
  if (!kept) {
    const page = JSON.parse(read.json) as {
      spaceId: string;
      status: number;
      deletedAt?: string | null;
      title: string;
      emoji?: string | null;
      fullWidth?: boolean;
      contentJson: string;
      canEdit: boolean;
    };
    const shown = page.status !== 0 && !page.deletedAt;
    kept = {
      spaceId: page.spaceId,
      main: shown
        ? pageMain({
            title: page.title,
            emoji: page.emoji ?? null,
            fullWidth: !!page.fullWidth,
            contentJson: page.contentJson,
            canEdit: page.canEdit,
          })
        : null,
    };
    if (read.json.length <= KEPT_MAX_CHARS) {
      if (drawn.size >= KEPT_DRAWINGS) drawn.delete(drawn.keys().next().value!);
      drawn.set(read.json, kept);
    }
  }
  // Another space's key: the app sends the reader to the page's own address instead.
  return kept.spaceId === read.spaceId ? kept.main : null;
}

const KEPT_DRAWINGS = 16;
const KEPT_MAX_CHARS = 128 * 1024;
/** A page answer's text → the page's space and its main column (null: not drawn); the oldest goes first. */
const drawn = new Map<string, { spaceId: string; main: string | null }>();

function readablePage(core: Core, caller: Caller, path: string): { spaceId: string; json: string } | null {
  if (caller.kind !== "user" || !caller.session) return null;
  const m = READING_ADDRESS.exec(path);
  if (!m) return null;
  try {
    const space = getSpace(core, caller, m[1]);
    return { spaceId: space.id, json: getPageJson(core, caller, m[2]).json };
  } catch {
    // Whatever the API would refuse (a 404 above all) is the plain frame.
    return null;
  }
}
