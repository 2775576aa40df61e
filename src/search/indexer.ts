import type { Core } from "../core";
import { perInstance } from "../platform/memo";
import { createFts5Index } from "./store/fts5";
import type { SearchIndex } from "./search-index";
import { noteIndexed } from "./vocabulary";

/** How soon after a write the index catches up on its own (searches catch up at once). */
const CATCH_UP_DELAY_MS = 50;

/** The instance's search index: FTS5, the one implementation (search-index.ts). */
export const searchIndex = perInstance(
  (core: Core): SearchIndex => createFts5Index(core, { indexed: (docId) => noteIndexed(core, docId) }),
);

/**
 * Keeps the search index in step with the pages table. Every inserted, retitled, re-texted or
 * deleted page is marked dirty in the transaction of the change (SearchIndex.markDirty; in
 * SQLite, triggers on `pages`), so a change and its mark commit or roll back together. The
 * index itself is written shortly after, many pages per transaction: FTS5 writes a new index
 * segment (and merges) at every commit that touched it, about half a millisecond whatever the
 * size, which per page write cost more than everything else in it. Nothing is missed:
 *   1. every search catches up first (catchUpSearchIndex), so it sees every committed change;
 *   2. a timer catches up CATCH_UP_DELAY_MS after any write transaction, and at shutdown;
 *   3. at start, whatever a crash left marked is indexed.
 * A backlog larger than a search may index (a restore marks every page, a bulk import thousands)
 * is drained in the background, in turns of about STEP_MS, so no request waits seconds behind
 * it; until it is drained, a search may miss pages not yet re-indexed.
 */
const timers = perInstance((_core: Core) => ({
  timer: null as ReturnType<typeof setTimeout> | null,
  draining: false,
  closed: false,
  step: FIRST_STEP,
  drained: 0,
  tidyPages: TIDY_FIRST_PAGES,
}));

/** Pages a search indexes before it answers; more are left to the drain. */
const SEARCH_CATCH_UP_PAGES = 500;
/** Pages indexed per turn of the event loop while draining a backlog, at most. */
const DRAIN_STEP = 100;
/** The first turn's pages, before a full turn has said what a page costs here. */
const FIRST_STEP = 16;
/**
 * The time a turn aims at. Pages range from a line to megabytes of text: 100 pages of ~20 KB
 * held an import's readers for 150-450 ms a turn. So each full turn (one that found more pages
 * than it took) sets the next one's pages from its own time per page.
 */
const STEP_MS = 10;
/**
 * A backlog at least this large, once drained, is followed by tidying the index (SearchIndex.tidy,
 * in turns of about STEP_MS): a bulk catch-up leaves the index in many segments, half merged,
 * which the page edits after it would otherwise finish merging a few pages each
 * (docs/decisions.md, "Search": the index merged after a bulk catch-up).
 */
const TIDY_AFTER_PAGES = 2_000;
/** Pages of merging in the first tidy turn; later turns are sized by the time the last took. */
const TIDY_FIRST_PAGES = 32;

/**
 * One turn of the drain (or of the timer's catch-up): true when nothing is left. Taken a
 * quarter of the step at a time, stopping once STEP_MS is spent, so a step learned on small
 * pages overshoots by a quarter at most when large ones come.
 */
function drainStep(core: Core): boolean {
  const state = timers(core);
  const index = searchIndex(core);
  const started = performance.now();
  const part = Math.ceil(state.step / 4);
  let taken = 0;
  for (;;) {
    if (index.catchUp(part)) return true;
    taken += part;
    state.drained += part;
    const ms = performance.now() - started;
    if (taken >= state.step || ms >= STEP_MS) {
      state.step = Math.max(1, Math.min(DRAIN_STEP, Math.floor((STEP_MS * taken) / Math.max(ms, 0.01))));
      return false;
    }
  }
}

/** Brings the index up to date with every committed change (and the open transaction's own). */
export function catchUpSearchIndex(core: Core): void {
  // A restore is swapping the data in (no write may start): the search reads the index as it
  // stands; the swap marks every page, and the catch-up after it indexes them.
  if (core.maintenance.writesHeld()) return;
  if (!searchIndex(core).catchUp(SEARCH_CATCH_UP_PAGES)) drain(core);
}

/** One turn of tidying the index after a bulk catch-up: true when it is tidy. */
function tidyStep(core: Core): boolean {
  const state = timers(core);
  const started = performance.now();
  const done = searchIndex(core).tidy(state.tidyPages);
  const ms = performance.now() - started;
  // Sized by steps that merged; the next bulk's tidy starts small again (its pages may be larger).
  state.tidyPages = done ? TIDY_FIRST_PAGES : Math.max(8, Math.min(1024, Math.floor((STEP_MS * state.tidyPages) / Math.max(ms, 0.01))));
  return done;
}

/**
 * Indexes the backlog a step at a time, yielding between steps, until none is left; then, after
 * a bulk one, tidies the index the same way (pages written meanwhile are indexed first).
 */
function drain(core: Core): void {
  const state = timers(core);
  if (state.draining || state.closed) return;
  state.draining = true;
  state.drained = 0;
  const step = () => {
    if (state.closed) return;
    if (core.maintenance.writesHeld()) return void setTimeout(step, CATCH_UP_DELAY_MS);
    try {
      if (!drainStep(core)) return void setImmediate(step);
      if (state.drained >= TIDY_AFTER_PAGES && !tidyStep(core)) return void setImmediate(step);
    } catch (err) {
      core.log.warn("search index catch-up failed; retried after the next write", { error: (err as Error).message });
    }
    state.draining = false;
  };
  setImmediate(step);
}

/**
 * Tidies the index at once (SearchIndex.tidy until done): for tools that index a bulk backlog
 * themselves (catchUp without a limit) and then hand the data directory to a server.
 */
export function tidySearchIndex(core: Core): void {
  while (!searchIndex(core).tidy(1024));
}

export function installSearchIndexer(core: Core): void {
  const state = timers(core);
  const index = searchIndex(core);
  // Runs inside every write transaction, just before COMMIT: only arms the timer.
  core.beforeCommit(() => {
    if (state.closed) return; // the catch-up at shutdown commits too: nothing may run after it
    state.timer ??= setTimeout(() => {
      state.timer = null;
      // During a restore's swap: the write that ends it (its audit event) arms this again.
      if (core.maintenance.writesHeld()) return;
      if (!drainStep(core)) drain(core);
    }, CATCH_UP_DELAY_MS);
  });
  core.onClose(() => {
    state.closed = true;
    if (state.timer) clearTimeout(state.timer);
    // A large backlog stays marked (it is durable) and is indexed after the next start.
    index.catchUp(SEARCH_CATCH_UP_PAGES);
  });
  if (!index.catchUp(SEARCH_CATCH_UP_PAGES)) drain(core);
}
