import type { Core } from "../core";
import type { Caller } from "../identity/caller";
import { iso } from "../platform/clock";
import { perInstance } from "../platform/memo";
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
  private pending = new Map<string, number>();
  /** Reader and page → when last counted (insertion order = age, so the oldest go first). */
  private recent = new Map<string, number>();
  /** Person and page → when last read, for recent_views (every read: a reload moves it up). */
  private viewed = new Map<string, string>();
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private core: Core) {}

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
    this.count(dayOf(now), page.id);
  }

  private noteViewed(userId: string, pageId: string): void {
    const key = `${userId}|${pageId}`;
    this.viewed.delete(key);
    this.viewed.set(key, iso(this.core.clock.now()));
    if (this.viewed.size > MAX_REMEMBERED) this.viewed.delete(this.viewed.keys().next().value!);
    this.timer ??= setInterval(() => this.flush(), VIEW_FLUSH_MS);
  }

  private count(day: string, pageId: string): void {
    const key = `${day}|${pageId}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    this.timer ??= setInterval(() => this.flush(), VIEW_FLUSH_MS);
  }

  /** Adds what was counted to the daily rows, in one transaction. */
  flush(): void {
    this.forgetOld();
    if (this.pending.size === 0 && this.viewed.size === 0) return;
    const batch = this.pending;
    const viewed = this.viewed;
    this.pending = new Map();
    this.viewed = new Map();
    this.core.bookkeeping(() => {
      for (const [key, views] of batch) {
        const bar = key.indexOf("|");
        addPageViews(this.core.db, key.slice(0, bar), key.slice(bar + 1), views);
      }
      const readers = new Set<string>();
      for (const [key, at] of viewed) {
        const bar = key.indexOf("|");
        readers.add(key.slice(0, bar));
        noteRecentView(this.core.db, key.slice(0, bar), key.slice(bar + 1), at);
      }
      for (const userId of readers) trimRecentViews(this.core.db, userId, RECENT_VIEWS_KEPT);
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
    for (const key of this.viewed.keys()) if (key.startsWith(`${userId}|`)) return true;
    return false;
  }

  forgetAll(): void {
    this.pending.clear();
    this.viewed.clear();
    this.recent.clear();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.flush();
  }
}

/** The instance's counter; its last counts are written when the core closes (server shutdown). */
export const pageViews = perInstance((core: Core) => {
  const counter = new PageViewCounter(core);
  core.onClose(() => counter.stop());
  // After a restore the counted views belong to pages of the replaced data: dropped.
  core.onDataReplaced(() => counter.forgetAll());
  return counter;
});
