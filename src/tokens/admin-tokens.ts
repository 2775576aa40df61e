/**
 * Everyone's API tokens, for whoever holds tokens.manage (docs/decisions.md, "Everyone's API
 * tokens"): the list with owners, revoking anyone's token (the owner's only by the owner), one
 * token's activity per day, and a summary of the instance's token use per day.
 */
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { requireUser, type Caller, type UserCaller } from "../identity/caller";
import { requireRight, TIER } from "../identity/rights";
import { iso } from "../platform/clock";
import { AppError, invalid, notFound } from "../platform/errors";
import { targetOf } from "../users/admin-users";
import { tokenActivity } from "./admin-activity";
import {
  allTokensWithOwner,
  latestTokenDay,
  revokeToken,
  revokeTokensOf,
  tokenDaySummary,
  tokenDaysSince,
  tokenWithOwnerTier,
} from "./store/admin";
import { usageTracker } from "./usage";

const DAY = 86_400_000;
/** The most days the activity and the summary cover. */
export const ADMIN_DAYS_MAX = 365;
export const ADMIN_DAYS_DEFAULT = 30;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Days `n` back to today (UTC), oldest first. */
const lastDays = (now: number, n: number) => Array.from({ length: n }, (_, i) => iso(now - (n - 1 - i) * DAY).slice(0, 10));

function checkDays(field: string, value: number | undefined): number {
  const n = value ?? ADMIN_DAYS_DEFAULT;
  if (!Number.isInteger(n) || n < 1 || n > ADMIN_DAYS_MAX)
    throw invalid(field, `must be a whole number of days from 1 to ${ADMIN_DAYS_MAX}`);
  return n;
}

type TokenState = "active" | "expired" | "revoked";
const stateOf = (row: { revokedAt: string | null; expiresAt: string | null }, now: number): TokenState =>
  row.revokedAt !== null ? "revoked" : row.expiresAt !== null && Date.parse(row.expiresAt) <= now ? "expired" : "active";

interface Selected {
  id: string;
  name: string;
  prefix: string;
  readOnly: boolean;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  useCount: number;
  revokedAt: string | null;
  ownerId: string;
  ownerName: string;
  ownerEmail: string;
}

function toAdminToken(r: Selected, now: number) {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    readOnly: r.readOnly,
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    lastUsedAt: r.lastUsedAt,
    useCount: r.useCount,
    revokedAt: r.revokedAt,
    state: stateOf(r, now),
    owner: { id: r.ownerId, displayName: r.ownerName, email: r.ownerEmail },
  };
}

/** GET /api/admin/api-tokens: every token, revoked and expired ones included, newest first. */
export function listAllTokens(core: Core, caller: Caller) {
  requireRight(requireUser(caller), "tokens.manage");
  usageTracker(core).flush();
  const now = core.clock.now();
  return allTokensWithOwner(core).map((r) => toAdminToken(r, now));
}

function findToken(core: Core, tokenId: string) {
  if (!UUID.test(tokenId)) throw invalid("tokenId", "must be a token id (a UUID, as the token list gives it)");
  const row = tokenWithOwnerTier(core, tokenId);
  if (!row) throw notFound("No such API token");
  return row;
}

/**
 * DELETE /api/admin/api-tokens/{id}: revoked at once (the next request with it is a 401),
 * recorded as token.revoked with who revoked it. Nobody acts on the owner: only the owner may
 * revoke the owner's tokens here. Revoking a revoked token changes nothing and answers 204.
 */
export function adminRevokeToken(core: Core, caller: Caller, tokenId: string): void {
  const admin = requireUser(caller);
  requireRight(admin, "tokens.manage");
  core.tx(() => {
    const found = findToken(core, tokenId);
    if (found.ownerTier >= TIER.Owner && found.ownerId !== admin.user.id) {
      throw new AppError("owner_protected", {
        detail: `"${found.name}" belongs to ${found.ownerName}, the owner: only the owner can revoke it.`,
      });
    }
    if (found.revokedAt !== null) return;
    revokeToken(core, tokenId, iso(core.clock.now()));
    recordEvent(core, {
      type: "token.revoked",
      targetType: "token",
      targetId: tokenId,
      spaceId: null,
      actorId: admin.user.id,
      ip: admin.ip,
      data: { name: found.name, prefix: found.prefix, ownerId: found.ownerId, byAdministrator: true },
    });
  });
}

/**
 * GET /api/admin/api-tokens/activity: one token's requests per day over the last `take` days
 * (every day, 0 where unused, oldest first), and its last use with the address it came from.
 */
export function tokenActivityOf(core: Core, caller: Caller, tokenId: string, take?: number) {
  requireRight(requireUser(caller), "tokens.manage");
  const days = checkDays("take", take);
  tokenActivity(core).flush();
  usageTracker(core).flush();
  const { ownerTier: _, ...found } = findToken(core, tokenId);
  const now = core.clock.now();
  const range = lastDays(now, days);
  const rows = tokenDaysSince(core, tokenId, range[0]);
  const byDay = new Map(rows.map((r) => [r.day, r.requests]));
  const latest = latestTokenDay(core, tokenId);
  return {
    token: toAdminToken(found, now),
    lastUsedAt: latest?.lastUsedAt ?? null,
    lastIp: latest?.lastIp ?? null,
    days: range.map((day) => ({ day, requests: byDay.get(day) ?? 0 })),
    totalRequests: range.reduce((sum, day) => sum + (byDay.get(day) ?? 0), 0),
  };
}

/** GET /api/admin/api-tokens/summary: per day over the last `days`, tokens created, revoked and requests made with tokens. */
export function tokenSummary(core: Core, caller: Caller, days?: number) {
  requireRight(requireUser(caller), "tokens.manage");
  const n = checkDays("days", days);
  tokenActivity(core).flush();
  const range = lastDays(core.clock.now(), n);
  const counted = new Map(tokenDaySummary(core, range[0]).map((r) => [r.day, r]));
  const perDay = range.map((day) => {
    const r = counted.get(day);
    return { day, created: r?.created ?? 0, revoked: r?.revoked ?? 0, requests: r?.requests ?? 0 };
  });
  const total = (k: "created" | "revoked" | "requests") => perDay.reduce((sum, d) => sum + d[k], 0);
  return { days: perDay, totals: { created: total("created"), revoked: total("revoked"), requests: total("requests") } };
}

/**
 * POST /api/admin/users/{id}/revoke-tokens: every live token of the account, for good (the
 * rules of acting on someone else's account: targetOf in src/users/admin-users.ts).
 */
export function revokeAllTokens(core: Core, caller: UserCaller, userId: string): number {
  return core.tx(() => {
    targetOf(core, caller, userId);
    const gone = revokeTokensOf(core, userId, iso(core.clock.now()));
    recordEvent(core, {
      type: "user.tokens_revoked",
      targetType: "user",
      targetId: userId,
      spaceId: null,
      actorId: caller.user.id,
      ip: caller.ip,
      data: { count: gone.length, tokenIds: gone },
    });
    return gone.length;
  });
}
