import type { Core } from "../core";
import type { Caller } from "../identity/caller";
import { iso } from "../platform/clock";
import { perInstance } from "../platform/memo";
import type { WriteBehind } from "../platform/scheduler";
import { PAGE_STATUS, type PageMeta } from "../pages/tables";
import { addPageViews, noteRecentView, trimRecentViews } from "./store";

/** How often the counts in memory are added to page_views_daily: a crash loses at most this much. */
export const VIEW_FLUSH_MS = 60_000;
/** A person reading the same page again within this window is one view (reloads, back and forth). */
export const REPEAT_WINDOW_MS = 10 * 60_000;
/** The pages kept per person for "Recently viewed" (the search palette shows ten). */
export const RECENT_VIEWS_KEPT = 20;
/** Bound on the viewers remembered for the repeat window; past it, the oldest are forgotten. */
const MAX_REMEMBERED = 50_000;

/** Crawlers and link previews (anonymous readers of public spaces only): not people reading. */
const BOT = /bot|crawl|spider|slurp|preview|facebookexternalhit|embedly|curl|wget|python-requests|httpclient|headless/i;

export const dayOf = (ms: number) => iso(ms).slice(0, 10);

/**
 * Page views, counted cheaply (docs/decisions.md, "Page views are counted without a write per
 * read"): a read adds one to a number in memory, keyed by UTC day and page; every minute, at
 * shutdown and before the dashboard is read, the counts are added to page_views_daily in one
 * transaction (INSERT … ON CONFLICT DO UPDATE). Never a write per read, so reading stays as fast as
 * before; a crash loses at most the last minute.
 *
 * What counts: a successful read (200, or 304 for a public reader revalidating) of a published
 * page out of the trash, by a signed-in person (session) or an anonymous reader of a public
 * space. Not counted: API tokens (automation; their requests are the token's activity),
 * anonymous readers that say they are bots, and the same reader reading the same page again
 * within ten minutes.
 */
export class PageViewCounter {
  /**
   * What waits to be written, in one write-behind of the scheduler: `v|day|page` → views that
   * day, and `r|person|page` → when that person last read it (for recent_views).
   */
  private waiting: WriteBehind<string, number | string>;
  /** Reader and page → when last counted (insertion order = age, so the oldest go first). */
  private recent = new Map<string, number>();
  /** Waiting `r|…` keys, so the bound on the people remembered holds as before. */
  private viewedCount = 0;

  constructor(private core: Core) {
    this.waiting = core.scheduler.writeBehind("dashboard.page-views", VIEW_FLUSH_MS, {
      merge: (old, added) => (typeof old === "number" && typeof added === "number" ? old + added : added),
      write: (batch) => this.write(batch),
    });
  }

  /** Called once a page has been read; decides whether it is a view. */
  read(caller: Caller, page: PageMeta, userAgent: string | null): void {
    if (page.status !== PAGE_STATUS.Published || page.deletedAt) return;
    let reader: string;
    if (caller.kind === "user") {
      if (caller.token) return;
      reader = caller.user.id;
      this.noteViewed(reader, page.id);
    } else {
      if (userAgent && BOT.test(userAgent)) return;
      reader = `ip:${caller.ip}`;
    }
    const now = this.core.clock.now();
    const key = `${reader}|${page.id}`;
    const last = this.recent.get(key);
    if (last !== undefined && now - last < REPEAT_WINDOW_MS) return;
    this.recent.delete(key);
    this.recent.set(key, now);
    if (this.recent.size > MAX_REMEMBERED) this.recent.delete(this.recent.keys().next().value!);
    this.waiting.add(`v|${dayOf(now)}|${page.id}`, 1);
  }

  private noteViewed(userId: string, pageId: string): void {
    const key = `r|${userId}|${pageId}`;
    const waiting = this.waiting.pending;
    if (!waiting.has(key) && ++this.viewedCount > MAX_REMEMBERED) {
      // Past the bound the oldest waiting read is forgotten.
      for (const k of waiting.keys()) if (k.startsWith("r|") && waiting.delete(k)) break;
      this.viewedCount--;
    }
    this.waiting.add(key, iso(this.core.clock.now()));
  }

  /** Adds what was counted to the daily rows, in one transaction. */
  flush(): void {
    this.forgetOld();
    this.waiting.flush();
  }

  private write(batch: Map<string, number | string>): void {
    this.forgetOld();
    this.viewedCount = 0;
    this.core.bookkeeping(() => {
      const readers = new Set<string>();
      for (const [key, value] of batch) {
        const [kind, who, pageId] = key.split("|");
        if (kind === "v") addPageViews(this.core, who, pageId, value as number);
        else {
          readers.add(who);
          noteRecentView(this.core, who, pageId, value as string);
        }
      }
      for (const userId of readers) trimRecentViews(this.core, userId, RECENT_VIEWS_KEPT);
    });
  }

  private forgetOld(): void {
    const cutoff = this.core.clock.now() - REPEAT_WINDOW_MS;
    for (const [key, at] of this.recent) {
      if (at >= cutoff) break;
      this.recent.delete(key);
    }
  }

  /** Whether this person's recent reads wait in memory (the list flushes them first). */
  hasViewedPending(userId: string): boolean {
    const prefix = `r|${userId}|`;
    for (const key of this.waiting.pending.keys()) if (key.startsWith(prefix)) return true;
    return false;
  }

  forgetAll(): void {
    this.waiting.clear();
    this.viewedCount = 0;
    this.recent.clear();
  }
}

/** The instance's counter; its last counts are written when the core closes (server shutdown). */
export const pageViews = perInstance((core: Core) => {
  const counter = new PageViewCounter(core);
  // After a restore the counted views belong to pages of the replaced data: dropped.
  core.onDataReplaced(() => counter.forgetAll());
  return counter;
});
