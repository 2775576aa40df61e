/**
 * Watches (docs/decisions.md, "Watches and notifications"): a user who watches a space hears of
 * every page created in it; one who watches a page hears of its updates and comments
 * (notifications/fanout.ts).
 *
 * Watching needs only read access (404 otherwise, like any id): it changes nothing anyone else
 * sees, so it is allowed in archived spaces and on pages in the trash. POST and DELETE are
 * idempotent and answer the state that now holds.
 *
 * The creator of a page and everyone who edits it watch it automatically (as in Confluence).
 * Unwatching is remembered (`unwatchedAt`), so a later edit by the same person does not put the
 * watch back; only POST …/watch does.
 */
import { requireReadablePage } from "../access/pages";
import { requireReadableSpace } from "../access/spaces";
import { requireUser, type Caller } from "../identity/caller";
import type { Core } from "../core";
import { findPage } from "../pages/store";
import { iso } from "../platform/clock";
import { findSpaceByKey } from "../spaces/service";
import { pageWatcherCount, watchingPage, watchingSpace, writePageWatch, writeSpaceWatch } from "./store";

// The automatic watch and the watcher lists the fan-out reads (notifications/fanout.ts).
export { pageWatcherIds, spaceWatcherIds, watchAutomatically, watchersAfterEdit } from "./store";

export interface WatchState {
  watching: boolean;
}

/** A page's watch state also says how many people watch it (the page panel shows it). */
export interface PageWatchState extends WatchState {
  watcherCount: number;
}

function readablePage(core: Core, caller: Caller, pageId: string) {
  const user = requireUser(caller);
  return { user, page: requireReadablePage(core, user, findPage(core, pageId)).page };
}

function readableSpace(core: Core, caller: Caller, key: string) {
  const user = requireUser(caller);
  return { user, space: requireReadableSpace(core, user, findSpaceByKey(core, key)) };
}

/** GET /api/pages/{id}/watch. */
export function pageWatchState(core: Core, caller: Caller, pageId: string): PageWatchState {
  const { user, page } = readablePage(core, caller, pageId);
  return { watching: watchingPage(core, user.user.id, page.id), watcherCount: pageWatcherCount(core, page.id) };
}

/** POST (watch: true) and DELETE (watch: false) /api/pages/{id}/watch. */
export function setPageWatch(core: Core, caller: Caller, pageId: string, watch: boolean): WatchState {
  return core.tx(() => {
    const { user, page } = readablePage(core, caller, pageId);
    writePageWatch(core, page.id, user.user.id, watch, iso(core.clock.now()));
    return { watching: watch };
  });
}

/** GET /api/spaces/{key}/watch. */
export function spaceWatchState(core: Core, caller: Caller, key: string): WatchState {
  const { user, space } = readableSpace(core, caller, key);
  return { watching: watchingSpace(core, user.user.id, space.id) };
}

/** POST (watch: true) and DELETE (watch: false) /api/spaces/{key}/watch. */
export function setSpaceWatch(core: Core, caller: Caller, key: string, watch: boolean): WatchState {
  return core.tx(() => {
    const { user, space } = readableSpace(core, caller, key);
    writeSpaceWatch(core, space.id, user.user.id, watch, iso(core.clock.now()));
    return { watching: watch };
  });
}
