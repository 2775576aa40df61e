/**
 * Security administration (right security.manage): the events (a view over the audit log,
 * kinds.ts), the limits in force with the active lockouts, and the overview. Alerts live in
 * alerts.ts, address blocks in blocks.ts, the detectors in detectors.ts.
 */
import { locksInForce } from "../auth/store/failures";
import type { Core } from "../core";
import { requireRight } from "../identity/rights";
import { requireUser, type Caller } from "../identity/caller";
import { iso } from "../platform/clock";
import { invalid } from "../platform/errors";
import { getSettings } from "../settings/service";
import { countAdministratorsWithoutTwoFactor } from "../users/store/account-lists";
import { unresolvedBySeverity } from "./alerts";
import { activeBlockCount } from "./blocks";
import { DETECTORS } from "./detectors";
import { KIND_NAMES, SECURITY_KINDS, type SecurityKind } from "./kinds";
import { countSince, firstSequenceSince, selectSecurityEvents } from "./store/events";

export const EVENTS_TAKE_DEFAULT = 50;
export const EVENTS_TAKE_MAX = 200;

export interface EventsQuery {
  kind?: string;
  severity?: number;
  take?: number;
  before?: number;
}

function parseDetails(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

/**
 * GET /api/admin/security/events: newest first. `kind` one of KIND_NAMES; `severity` the
 * least severity shown (1: warnings and critical ones). Answers the `before` of the next page.
 */
export function listSecurityEvents(core: Core, caller: Caller, query: EventsQuery) {
  requireRight(requireUser(caller), "security.manage");
  if (query.kind !== undefined && !(KIND_NAMES as string[]).includes(query.kind))
    throw invalid("kind", `must be one of ${KIND_NAMES.join(", ")}`);
  const take = query.take ?? EVENTS_TAKE_DEFAULT;
  if (!Number.isInteger(take) || take < 1 || take > EVENTS_TAKE_MAX)
    throw invalid("take", `must be a whole number from 1 to ${EVENTS_TAKE_MAX}`);
  if (query.severity !== undefined && ![0, 1, 2].includes(query.severity))
    throw invalid("severity", "must be 0 (info), 1 (warning) or 2 (critical)");
  if (query.before !== undefined && !(Number.isSafeInteger(query.before) && query.before >= 1))
    throw invalid("before", "must be a whole number of at least 1: the nextBefore of the previous page");
  const rows = selectSecurityEvents(core, {
    kind: query.kind as SecurityKind | undefined,
    minSeverity: query.severity,
    before: query.before,
    take: take + 1,
  });
  const events = rows.slice(0, take).map((r) => ({ ...r, details: parseDetails(r.details) }));
  return { events, nextBefore: rows.length > take ? events[events.length - 1].sequence : null };
}

export const securityKinds = () => KIND_NAMES.map((name) => ({ name, label: SECURITY_KINDS[name].label }));

/** Locks in force now: per (account, address) and account-wide. */
function activeLockouts(core: Core) {
  const now = iso(core.clock.now());
  const locks = locksInForce(core, now);
  const byAddress = locks.byAddress;
  const everyAddress = locks.everyAddress.map((u) => ({ ...u, address: null as string | null }));
  return [...everyAddress, ...byAddress]
    .map((l) => ({ ...l, until: l.until!, scope: l.address === null ? ("account" as const) : ("address" as const) }))
    .sort((a, b) => b.until.localeCompare(a.until));
}

/** GET /api/admin/security/limits: the rate-limit and lockout settings, the detectors' thresholds and the locks in force. */
export function securityLimits(core: Core, caller: Caller) {
  requireRight(requireUser(caller), "security.manage");
  const s = getSettings(core);
  return {
    settings: {
      anonymousRateLimitPerMinute: s.anonymousRateLimitPerMinute,
      loginRateLimitPerMinute: s.loginRateLimitPerMinute,
      tokenMintLimitPerHour: s.tokenMintLimitPerHour,
      lockoutThreshold: s.lockoutThreshold,
      lockoutBaseSeconds: s.lockoutBaseSeconds,
      lockoutMaxSeconds: s.lockoutMaxSeconds,
      lockoutAccountFailures: s.lockoutAccountFailures,
      lockoutAccountAddresses: s.lockoutAccountAddresses,
      lockoutAccountWindowSeconds: s.lockoutAccountWindowSeconds,
    },
    detectors: Object.entries(DETECTORS).map(([name, d]) => ({ name, ...d })),
    lockouts: activeLockouts(core),
  };
}

/** Active administrators (tier ≥ Admin) without two-factor sign-in. */
function adminsWithoutTwoFactor(core: Core): number {
  return countAdministratorsWithoutTwoFactor(core);
}

/** GET /api/admin/security/overview. */
export function securityOverview(core: Core, caller: Caller) {
  requireRight(requireUser(caller), "security.manage");
  const since = iso(core.clock.now() - 86_400_000);
  return {
    openAlerts: unresolvedBySeverity(core),
    failedSignIns24h: countSince(core, "user.login_failed", firstSequenceSince(core, since)),
    activeLockouts: activeLockouts(core).length,
    activeBlocks: activeBlockCount(core),
    twoFactor: {
      available: false,
      adminsWithout: adminsWithoutTwoFactor(core),
      note: "Two-factor sign-in is not built yet: every administrator signs in with a password alone.",
    },
    lastEvents: listSecurityEvents(core, caller, { take: 10 }).events,
  };
}
