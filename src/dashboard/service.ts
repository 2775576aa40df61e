import { lastBackupAt } from "../backups/store";
import type { Core } from "../core";
import { canReadPage } from "../access/pages";
import { requireUser, type Caller } from "../identity/caller";
import { requireRight } from "../identity/rights";
import { iso } from "../platform/clock";
import { invalid } from "../platform/errors";
import { findPageMeta } from "../pages/store";
import { dayOf, pageViews } from "./page-views";
import { contentCounts, peopleCounts, topEditors, topPageCandidates, viewsPerDay } from "./store";
import { databaseBytes, directorySizes, diskSpace } from "./storage";

/** The ranges the dashboard offers (GET /api/admin/dashboard?rangeDays=). */
export const RANGE_DAYS = [7, 30, 90] as const;
export const DEFAULT_RANGE_DAYS = 30;
/** How many pages and editors the lists name. */
export const TOP_TAKE = 10;
const DAY = 86_400_000;

/** The days of the range, oldest first, ending today (UTC). */
export function rangeOf(now: number, days: number): string[] {
  return Array.from({ length: days }, (_, i) => dayOf(now - (days - 1 - i) * DAY));
}

/**
 * GET /api/admin/dashboard (right dashboard.view): people, content, usage, storage and health
 * in one answer. Aggregates only: counts over indexes and small tables, the day rows of page
 * views, two statfs/stat calls, and a walk of the file store kept five minutes (storage.ts).
 */
export function getDashboard(core: Core, caller: Caller, rangeDays: number = DEFAULT_RANGE_DAYS) {
  requireRight(requireUser(caller), "dashboard.view");
  if (!(RANGE_DAYS as readonly number[]).includes(rangeDays)) throw invalid("rangeDays", `must be one of ${RANGE_DAYS.join(", ")}`);
  // What was counted in memory since the last flush is shown too.
  pageViews(core).flush();
  const now = core.clock.now();
  const days = rangeOf(now, rangeDays);
  const since = days[0];

  const people = peopleCounts(core, iso(now));
  const c = contentCounts(core);
  const counted = new Map(viewsPerDay(core, since).map((r) => [r.day, r.views]));
  const perDay = days.map((day) => ({ day, views: counted.get(day) ?? 0 }));
  const walked = directorySizes(core);
  const disk = diskSpace(core);

  return {
    rangeDays,
    generatedAt: iso(now),
    people: { active: people.active, invited: people.invited, suspended: people.suspended },
    content: {
      spaces: c.spaces,
      pages: c.pages,
      drafts: c.drafts,
      trashed: c.trashed,
      versions: c.versions,
      attachments: c.attachments,
      attachmentBytes: c.attachment_bytes,
    },
    usage: {
      viewsPerDay: perDay,
      totalViews: perDay.reduce((sum, d) => sum + d.views, 0),
      topPages: topPages(core, caller, since),
      topEditors: topEditors(core, iso(Date.parse(`${since}T00:00:00Z`)), TOP_TAKE),
    },
    storage: {
      databaseBytes: databaseBytes(core),
      filesBytes: walked.filesBytes,
      backupsBytes: walked.backupsBytes,
      measuredAt: iso(walked.measuredAt),
    },
    health: {
      lastBackupAt: lastBackupAt(core),
      diskFreeBytes: disk?.freeBytes ?? null,
      diskTotalBytes: disk?.totalBytes ?? null,
      version: core.version,
      uptimeSeconds: Math.floor(process.uptime()),
    },
  };
}

/**
 * The most read pages of the range, named only when the admin may read them: the dashboard
 * right shows how much is read, not what a restricted page is called.
 */
function topPages(core: Core, caller: Caller, since: string) {
  const out: Array<{ pageId: string; title: string; spaceKey: string; spaceName: string; views: number }> = [];
  for (const { pageId, views } of topPageCandidates(core, since, TOP_TAKE * 5)) {
    const found = findPageMeta(core, pageId);
    if (!found || !canReadPage(core, caller, found.space, found.page)) continue;
    out.push({ pageId, title: found.page.title, spaceKey: found.space.key, spaceName: found.space.name, views });
    if (out.length === TOP_TAKE) break;
  }
  return out;
}
