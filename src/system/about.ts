/**
 * About (right dashboard.view): what this Cairn is (version, build date, runtime), the
 * third-party packages it ships with their licences and notices (about-deps.ts), the background
 * work its scheduler runs, and "check for updates": one GET of the release feed through the outbound guard, compared with our version.
 *
 * The check never fails the page: unreachable, refused, slow or unreadable feeds all answer 200
 * with a status and a plain sentence. It records nothing (it changes nothing).
 */
import type { Core } from "../core";
import { requireUser, type Caller } from "../identity/caller";
import { requireRight } from "../identity/rights";
import { iso } from "../platform/clock";
import { guardedFetch, OutboundError } from "../platform/outbound";
import { VERSION } from "../version";
import { aboutData } from "./about-deps";

/**
 * The feed read when CAIRN_RELEASE_FEED is not set. None yet: Cairn has no public release page
 * to point at, and a made-up address would send every instance's check to a stranger. Set it
 * here once releases are published (an Atom feed such as a forge's releases.atom).
 */
export const DEFAULT_RELEASE_FEED: string | null = null;
const CHECK_TIMEOUT_MS = 5_000;
const FEED_MAX_BYTES = 1024 * 1024;

const viewer = (caller: Caller) => requireRight(requireUser(caller), "dashboard.view");

export function releaseFeedOf(core: Core): string | null {
  return core.config.releaseFeed === undefined ? DEFAULT_RELEASE_FEED : core.config.releaseFeed;
}

/** GET /api/admin/about */
export function getAbout(core: Core, caller: Caller) {
  viewer(caller);
  const data = aboutData();
  return {
    name: "Cairn",
    version: VERSION,
    builtAt: data.builtAt,
    runtime: { bun: Bun.version, platform: process.platform, arch: process.arch },
    uptimeSeconds: Math.round(process.uptime()),
    dependenciesFrom: data.source,
    dependencies: data.dependencies,
    releaseFeed: releaseFeedOf(core),
    // What runs in the background, when it last ran, its last error and its next run (platform/scheduler.ts).
    background: core.scheduler.list(),
  };
}

/** GET /api/admin/about/notices: the licence texts, as plain text. */
export function getNotices(core: Core, caller: Caller): string {
  viewer(caller);
  return aboutData().notices;
}

export type CheckStatus = "up_to_date" | "update_available" | "offline" | "unavailable" | "not_configured";

export interface UpdateCheck {
  status: CheckStatus;
  current: string;
  latest: { version: string; url: string | null; publishedAt: string | null } | null;
  feedUrl: string | null;
  checkedAt: string;
  message: string;
}

/** POST /api/admin/about/check */
export async function checkForUpdates(core: Core, caller: Caller): Promise<UpdateCheck> {
  viewer(caller);
  const feedUrl = releaseFeedOf(core);
  const base = { current: VERSION, feedUrl, checkedAt: iso(core.clock.now()), latest: null };
  if (!feedUrl) {
    return { ...base, status: "not_configured", message: "Checking for updates is off: no release feed is set (CAIRN_RELEASE_FEED)." };
  }
  let text: string;
  try {
    const res = await guardedFetch(
      feedUrl,
      {
        headers: {
          accept: "application/atom+xml, application/rss+xml, application/xml;q=0.9, */*;q=0.5",
          "user-agent": `Cairn/${VERSION}`,
        },
      },
      { allow: core.config.outboundAllow, timeoutMs: CHECK_TIMEOUT_MS, maxBytes: FEED_MAX_BYTES },
    );
    if (res.status < 200 || res.status >= 300) {
      return { ...base, status: "unavailable", message: `The release feed answered ${res.status}; try again later.` };
    }
    text = new TextDecoder().decode(res.body);
  } catch (err) {
    if (err instanceof OutboundError) {
      if (err.kind === "refused" || err.kind === "bad_url") {
        return { ...base, status: "unavailable", message: `The release feed's address cannot be used: ${err.message}.` };
      }
      return {
        ...base,
        status: "offline",
        message:
          `Could not reach the release feed (${err.kind === "timeout" ? "no answer in time" : "no connection"}). ` +
          `This server may be offline; nothing else is affected.`,
      };
    }
    throw err;
  }
  const latest = latestRelease(text);
  if (!latest)
    return { ...base, status: "unavailable", message: "The release feed could not be read (no release with a version number in it)." };
  const newer = compareVersions(latest.version, VERSION) > 0;
  return {
    ...base,
    latest,
    status: newer ? "update_available" : "up_to_date",
    message: newer ? `Cairn ${latest.version} is available; this server runs ${VERSION}.` : `Cairn ${VERSION} is the latest release.`,
  };
}

const VERSION_IN = /\bv?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\b/;

/** The highest stable release of an Atom (<entry>) or RSS (<item>) feed: its version from the title or link. */
export function latestRelease(xml: string): { version: string; url: string | null; publishedAt: string | null } | null {
  let best: { version: string; url: string | null; publishedAt: string | null } | null = null;
  for (const m of xml.matchAll(/<(entry|item)\b[\s\S]*?<\/\1>/g)) {
    const block = m[0];
    const title = decode(/<title\b[^>]*>([\s\S]*?)<\/title>/.exec(block)?.[1] ?? "");
    const link = /<link\b[^>]*\bhref="([^"]+)"/.exec(block)?.[1] ?? /<link>([\s\S]*?)<\/link>/.exec(block)?.[1]?.trim() ?? null;
    const version = VERSION_IN.exec(title)?.[1] ?? (link ? VERSION_IN.exec(link)?.[1] : undefined);
    if (!version || version.includes("-")) continue; // pre-releases are not offered
    const when = /<(updated|published|pubDate)>([\s\S]*?)<\/\1>/.exec(block)?.[2]?.trim() ?? null;
    const publishedAt = when && !Number.isNaN(Date.parse(when)) ? new Date(when).toISOString() : null;
    if (!best || compareVersions(version, best.version) > 0)
      best = { version, url: link && /^https?:\/\//.test(link) ? decode(link) : null, publishedAt };
  }
  return best;
}

/** Semantic-version order (pre-releases before their release). */
export function compareVersions(a: string, b: string): number {
  const [coreA = "", preA] = a.split("-", 2);
  const [coreB = "", preB] = b.split("-", 2);
  const pa = coreA.split(".").map(Number);
  const pb = coreB.split(".").map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  if (preA === preB) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  return preA < preB ? -1 : 1;
}

function decode(text: string): string {
  return text
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, "$1")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .trim();
}
