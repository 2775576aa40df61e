import { getTableName } from "drizzle-orm";
import { hasRight } from "../identity/rights";
import type { RoleRow, UserCaller, UserRow } from "../identity/caller";
import type { Core } from "../core";
import { keptUntilWrite } from "../platform/db/kept-answers";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { newId, randomToken, sha256Hex } from "../platform/crypto";
import { AppError, invalid, notFound } from "../platform/errors";
import { getSettings } from "../settings/service";
import { USER_STATUS } from "../users/service";
import { roles, users } from "../users/tables";
import {
  insertToken,
  liveTokensOf,
  oldestTokenMadeSince,
  revokeOwnToken,
  tokensMadeSince,
  tokenWithOwner,
  type TokenRow,
} from "./store/tokens";
import { apiTokens } from "./tables";
import { usageTracker } from "./usage";
import { TOKEN_NAME_MAX } from "../common/limits";

/** The longest a token may be made to last; left out or null, it never expires. */
export const TOKEN_MAX_DAYS = 3650;
/** The longest token name. */
export { TOKEN_NAME_MAX };

export const TOKEN_PREFIX = "cct_";
const DAY = 86_400_000;
const HOUR = 3_600_000;

export interface CreateTokenInput {
  name: string;
  readOnly?: boolean;
  expiresInDays?: number | null;
}

function toToken(row: TokenRow) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    readOnly: row.readOnly,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    useCount: row.useCount,
  };
}

/**
 * POST /api/api-tokens. The value is `cct_` + 32 random bytes (base64url); only its SHA-256 is
 * stored, so it is answered here once and never again.
 */
export function createToken(core: Core, caller: UserCaller, input: CreateTokenInput) {
  if (!hasRight(caller, "tokens.use")) throw new AppError("permission_required", { extra: { permission: "tokens.use" } });
  const name = input.name.trim();
  if (!name) throw invalid("name", "must not be blank");
  if (name.length > TOKEN_NAME_MAX) throw invalid("name", `must be at most ${TOKEN_NAME_MAX} characters`);
  const days = input.expiresInDays ?? null;
  if (days !== null && (!Number.isInteger(days) || days < 1 || days > TOKEN_MAX_DAYS))
    throw invalid("expiresInDays", `must be a whole number of days from 1 to ${TOKEN_MAX_DAYS}, or null for no expiry`);

  return core.tx(() => {
    const now = core.clock.now();
    const limit = getSettings(core).tokenMintLimitPerHour;
    const recent = tokensMadeSince(core, caller.user.id, iso(now - HOUR));
    if (recent >= limit) {
      const oldest = oldestTokenMadeSince(core, caller.user.id, iso(now - HOUR));
      const retry = Math.max(1, Math.ceil((Date.parse(oldest) + HOUR - now) / 1000));
      throw new AppError("rate_limited", {
        detail: `At most ${limit} tokens an hour may be created.`,
        headers: { "Retry-After": String(retry) },
        extra: { retryAfter: retry },
      });
    }
    const value = TOKEN_PREFIX + randomToken(32);
    const row = {
      id: newId(),
      userId: caller.user.id,
      name,
      tokenHash: sha256Hex(value),
      prefix: value.slice(0, 12),
      readOnly: input.readOnly ?? false,
      expiresAt: days === null ? null : iso(now + days * DAY),
      createdAt: iso(now),
      lastUsedAt: null,
      useCount: 0,
      revokedAt: null,
    };
    insertToken(core, row);
    recordEvent(core, {
      type: "token.created",
      targetType: "token",
      targetId: row.id,
      spaceId: null,
      actorId: caller.user.id,
      ip: caller.ip,
      data: { name, prefix: row.prefix, readOnly: row.readOnly, expiresAt: row.expiresAt },
    });
    return { ...toToken(row), token: value };
  });
}

export function listTokens(core: Core, userId: string) {
  usageTracker(core).flush();
  return liveTokensOf(core, userId).map(toToken);
}

/** Revoking cannot be undone: the row stays (for the record) but never authenticates again. */
export function revokeToken(core: Core, caller: UserCaller, id: string): void {
  core.tx(() => {
    const revoked = revokeOwnToken(core, caller.user.id, id, iso(core.clock.now()));
    if (!revoked) throw notFound();
    recordEvent(core, {
      type: "token.revoked",
      targetType: "token",
      targetId: id,
      spaceId: null,
      actorId: caller.user.id,
      ip: caller.ip,
      data: { name: revoked.name, prefix: revoked.prefix },
    });
  });
}

/**
 * Resolved tokens (null: no such token), kept until a table they are read from changes
 * (tokens, accounts, roles: keptUntilWrite's tables), a write is rolled back or another
 * process commits. Revocation, suspension and role changes are writes to those tables, so
 * they take effect on the very next request; expiry is checked on every request against the
 * clock. The use count and last use are bookkeeping, which no look-up reads.
 */
const keptTokens = keptUntilWrite<TokenLookup | null>("tokens", 10_000, undefined, {
  tables: [
    { table: getTableName(apiTokens), ignore: ["use_count", "last_used_at"] },
    { table: getTableName(users) },
    { table: getTableName(roles) },
  ],
});

type TokenLookup = { token: TokenRow; user: UserRow; role: RoleRow; permissions: Set<string> };

function cachedTokenLookup(core: Core, hash: string): TokenLookup | null {
  return keptTokens(core.stamp, hash, () => {
    const row = tokenWithOwner(core, hash);
    return row ? { ...row, permissions: new Set(row.role.permissions) } : null;
  });
}

const invalidToken = () => new AppError("invalid_token", { headers: { "WWW-Authenticate": 'Bearer error="invalid_token"' } });

/**
 * Resolves a bearer token to its owner (docs/permissions.md, "Tokens"). Wrong, revoked, expired, a
 * suspended owner, or an owner whose role lost `tokens.use`: all 401 invalid_token, never
 * anonymous.
 */
export function authenticateToken(core: Core, value: string): TokenLookup {
  if (!value.startsWith(TOKEN_PREFIX) || value.length > 200) throw invalidToken();
  const found = cachedTokenLookup(core, sha256Hex(value));
  const now = core.clock.now();
  if (
    !found ||
    found.token.revokedAt !== null ||
    (found.token.expiresAt !== null && Date.parse(found.token.expiresAt) <= now) ||
    found.user.status !== USER_STATUS.Active ||
    !found.permissions.has("tokens.use")
  ) {
    throw invalidToken();
  }
  usageTracker(core).record(found.token.id, now);
  return found;
}
