/**
 * The security detectors. They run after commit, never inside a request's transaction: the
 * outbox's in-transaction hook notes the events worth a look (failed sign-ins, deletions,
 * grants and role changes, new tokens) with an after-commit callback, which is dropped if the
 * change rolls back; once committed, each subject (the address and account of a failed
 * sign-in, the actor of a deletion, grant or new token) has its window counted from the audit
 * log, where those entries were written in the change's own transaction (an index range:
 * queries.ts). A subject over its threshold raises an alert, or bumps the one already open
 * about it (alerts.ts). Other events cost a set lookup; nothing is written unless an alert is.
 *
 * A window starts no earlier than the last time an administrator resolved that subject's alert:
 * resolving says "dealt with what was seen so far", so the same failures do not raise it again.
 * Work noted but not yet run when the process stops is lost: the next event of the same
 * subject counts the whole window again from the audit log, so at most a late alert.
 */
import type { Core } from "../core";
import { onEventRecorded } from "../events/outbox";
import { GROUP_ID } from "../identity/builtin-groups";
import { iso } from "../platform/clock";
import { perInstance } from "../platform/memo";
import { lastResolvedAt, raiseAlert } from "./alerts";
import { ROLE_ACTIONS } from "./kinds";
import { emailsOf } from "../users/store/accounts";
import { entriesSince, firstSequenceSince } from "./store/events";

/** Thresholds and windows (GET /api/admin/security/limits shows them). */
export const DETECTORS = {
  brute_force_address: {
    windowMinutes: 15,
    failures: 10,
    accounts: 3,
    severity: 2,
    description: "Many wrong passwords for several accounts from one address",
  },
  brute_force_account: {
    windowMinutes: 15,
    failures: 10,
    addresses: 3,
    severity: 2,
    description: "Many wrong passwords for one account from several addresses",
  },
  mass_deletion: {
    windowMinutes: 10,
    pages: 25,
    spaces: 3,
    severity: 2,
    description: "One account moving many pages to the trash, purging them, or deleting spaces",
  },
  permission_expansion: {
    windowMinutes: 10,
    changes: 10,
    severity: 1,
    description: "One account giving many grants or role promotions, or a space opened to Everyone or made public",
  },
  token_burst: { windowMinutes: 10, tokens: 10, severity: 1, description: "One account creating many API tokens" },
} as const;

export type DetectorName = keyof typeof DETECTORS;

const DELETIONS = ["page.trashed", "page.purged", "space.deleted"];
const EXPANSIONS = ["space.permission_granted", "space.access_recovered", ...ROLE_ACTIONS];

/** What the detectors need of a committed event. */
interface Seen {
  type: string;
  targetId: string;
  actorId: string | null;
  data: Record<string, unknown>;
  ip: string | null;
}

const WATCHED = new Set(["user.login_failed", "token.created", "space.visibility_changed", ...DELETIONS, ...EXPANSIONS]);

const queues = perInstance((_core: Core) => ({ seen: [] as Seen[], scheduled: false }));

/** Registers the detectors on the outbox (openInstance). */
export function installSecurityDetectors(core: Core): void {
  onEventRecorded(core, (core, event, input) => {
    if (!WATCHED.has(event.type)) return;
    const seen: Seen = { type: event.type, targetId: event.targetId, actorId: event.actorId, data: event.data ?? {}, ip: input.ip ?? null };
    core.afterCommit(() => {
      const q = queues(core);
      q.seen.push(seen);
      if (q.scheduled) return;
      q.scheduled = true;
      queueMicrotask(() => {
        const batch = q.seen;
        q.seen = [];
        q.scheduled = false;
        try {
          detect(core, batch);
        } catch (err) {
          core.log.error("security detectors failed", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
        }
      });
    });
  });
}

const parse = (text: string): Record<string, unknown> => {
  try {
    return JSON.parse(text) ?? {};
  } catch {
    return {};
  }
};

/** One batch of committed events. Reads outside any transaction; an alert is written in its own. */
function detect(core: Core, batch: Seen[]): void {
  const w = new Windows(core);
  const failed = batch.filter((e) => e.type === "user.login_failed");
  const actorsOf = (types: string[]) => new Set(batch.flatMap((e) => (types.includes(e.type) && e.actorId ? [e.actorId] : [])));
  for (const ip of new Set(failed.flatMap((f) => (f.ip ? [f.ip] : [])))) bruteForceFromAddress(core, w, ip);
  for (const userId of new Set(failed.map((f) => f.targetId))) bruteForceOnAccount(core, w, userId);
  for (const actor of actorsOf(DELETIONS)) massDeletion(core, w, actor);
  for (const actor of actorsOf(EXPANSIONS)) permissionExpansion(core, w, actor);
  for (const actor of actorsOf(["token.created"])) tokenBurst(core, w, actor);
  for (const e of batch) spaceOpened(core, e);
}

/** Where each subject's window starts in the audit log (one bisection per distinct instant). */
class Windows {
  private seqs = new Map<string, number>();
  constructor(private core: Core) {}
  from(detector: DetectorName, subject: string): number {
    const start = iso(this.core.clock.now() - DETECTORS[detector].windowMinutes * 60_000);
    const resolved = lastResolvedAt(this.core, detector, subject);
    // Entries of the very millisecond it was resolved were seen by whoever resolved it.
    const since = resolved && resolved >= start ? iso(Date.parse(resolved) + 1) : start;
    let seq = this.seqs.get(since);
    if (seq === undefined) this.seqs.set(since, (seq = firstSequenceSince(this.core, since)));
    return seq;
  }
}

const nameOf = (core: Core, id: string) => emailsOf(core, [id]).get(id) ?? "a deleted account";

function bruteForceFromAddress(core: Core, w: Windows, ip: string): void {
  const d = DETECTORS.brute_force_address;
  const subject = `address:${ip}`;
  const rows = entriesSince(core, ["user.login_failed"], w.from("brute_force_address", subject), { ip });
  const accounts = [...new Set(rows.map((r) => r.targetId))];
  if (rows.length < d.failures || accounts.length < d.accounts) return;
  const emails = [...emailsOf(core, accounts.slice(0, 20)).values()];
  raiseAlert(
    core,
    "brute_force_address",
    subject,
    d.severity,
    `${rows.length} wrong passwords for ${accounts.length} accounts from ${ip} within ${d.windowMinutes} minutes`,
    {
      address: ip,
      failures: rows.length,
      accounts: accounts.length,
      accountEmails: emails,
      windowMinutes: d.windowMinutes,
    },
  );
}

function bruteForceOnAccount(core: Core, w: Windows, userId: string): void {
  const d = DETECTORS.brute_force_account;
  const subject = `user:${userId}`;
  const rows = entriesSince(core, ["user.login_failed"], w.from("brute_force_account", subject), { targetId: userId });
  const addresses = [...new Set(rows.flatMap((r) => (r.ip ? [r.ip] : [])))];
  if (rows.length < d.failures || addresses.length < d.addresses) return;
  raiseAlert(
    core,
    "brute_force_account",
    subject,
    d.severity,
    `${rows.length} wrong passwords for ${nameOf(core, userId)} from ${addresses.length} addresses within ${d.windowMinutes} minutes`,
    {
      userId,
      failures: rows.length,
      addresses: addresses.slice(0, 20),
      addressCount: addresses.length,
      windowMinutes: d.windowMinutes,
    },
  );
}

function massDeletion(core: Core, w: Windows, actorId: string): void {
  const d = DETECTORS.mass_deletion;
  const subject = `user:${actorId}`;
  const rows = entriesSince(core, DELETIONS, w.from("mass_deletion", subject), { actorId });
  const pages = new Set<string>();
  let spaces = 0;
  for (const r of rows) {
    if (r.action === "space.deleted") spaces++;
    else {
      const ids = parse(r.details).pageIds;
      for (const id of Array.isArray(ids) ? ids : [r.targetId]) pages.add(String(id));
    }
  }
  if (pages.size < d.pages && spaces < d.spaces) return;
  const what = [pages.size ? `${pages.size} pages trashed or purged` : "", spaces ? `${spaces} spaces deleted` : ""]
    .filter(Boolean)
    .join(" and ");
  raiseAlert(core, "mass_deletion", subject, d.severity, `${nameOf(core, actorId)}: ${what} within ${d.windowMinutes} minutes`, {
    actorId,
    pages: pages.size,
    spaces,
    windowMinutes: d.windowMinutes,
  });
}

/**
 * Whether a change widens access: a new grant or a higher operation; a promotion to a higher
 * tier; rights added to a role; an ownership transfer; an administrator giving themselves
 * access to a space. Removals, demotions and renames do not count.
 */
function expands(action: string, details: Record<string, unknown>): boolean {
  const tier = (side: unknown) => Number((side as { tier?: unknown } | undefined)?.tier ?? 0);
  switch (action) {
    case "space.permission_granted":
      return details.from === null || details.from === undefined || Number(details.operation) > Number(details.from);
    case "user.role_changed":
      return tier(details.to) > tier(details.from);
    case "role.permissions_changed":
    case "role.reset":
      return Array.isArray(details.added) && details.added.length > 0;
    case "space.access_recovered":
    case "user.ownership_transferred":
      return true;
    default:
      return false;
  }
}

function permissionExpansion(core: Core, w: Windows, actorId: string): void {
  const d = DETECTORS.permission_expansion;
  const subject = `user:${actorId}`;
  const rows = entriesSince(core, EXPANSIONS, w.from("permission_expansion", subject), { actorId }).filter((r) =>
    expands(r.action, parse(r.details)),
  );
  if (rows.length < d.changes) return;
  raiseAlert(
    core,
    "permission_expansion",
    subject,
    d.severity,
    `${nameOf(core, actorId)} widened access ${rows.length} times within ${d.windowMinutes} minutes (grants, role changes)`,
    {
      actorId,
      changes: rows.length,
      windowMinutes: d.windowMinutes,
    },
  );
}

/** A space opened to the built-in Everyone group, or made public: raised at once, one alert per space. */
function spaceOpened(core: Core, e: Seen): void {
  const data = e.data;
  const toEveryone = e.type === "space.permission_granted" && data.principalId === GROUP_ID.everyone && expands(e.type, data);
  const isPublic = data.isPublic as { from?: unknown; to?: unknown } | undefined;
  const madePublic = e.type === "space.visibility_changed" && isPublic?.to === true && isPublic?.from === false;
  if (!toEveryone && !madePublic) return;
  const key = String(data.key ?? e.targetId);
  const who = e.actorId ? nameOf(core, e.actorId) : "Someone";
  const summary = madePublic
    ? `${who} made space ${key} public: anyone can read it without signing in`
    : `${who} opened space ${key} to Everyone`;
  raiseAlert(core, "permission_expansion", `space:${e.targetId}`, DETECTORS.permission_expansion.severity, summary, {
    spaceId: e.targetId,
    key,
    actorId: e.actorId,
    madePublic,
    toEveryone,
  });
}

function tokenBurst(core: Core, w: Windows, actorId: string): void {
  const d = DETECTORS.token_burst;
  const subject = `user:${actorId}`;
  const rows = entriesSince(core, ["token.created"], w.from("token_burst", subject), { actorId });
  if (rows.length < d.tokens) return;
  raiseAlert(
    core,
    "token_burst",
    subject,
    d.severity,
    `${nameOf(core, actorId)} created ${rows.length} API tokens within ${d.windowMinutes} minutes`,
    { actorId, tokens: rows.length, windowMinutes: d.windowMinutes },
  );
}
