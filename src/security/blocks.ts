/**
 * Address blocks (GET/POST/DELETE /api/admin/security/blocks): a request whose client address
 * (as resolved under the trustedProxies rule, http/client.ts) lies inside an active block gets
 * 403 address_blocked before anything else is looked at — token, session, body, route, UI file.
 *
 * The per-request check reads a list kept in memory until the database changes (the same kept
 * answer the settings use), so a request costs a stamp comparison and, when blocks exist, one
 * address parse and a prefix comparison per block. Expiry is checked at match time, so an
 * expired block stops applying on the second it ends without anything being rewritten.
 */
import { getTableName } from "drizzle-orm";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { requireRight } from "../identity/rights";
import { requireUser, type Caller } from "../identity/caller";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { keptUntilWrite } from "../platform/db/kept-answers";
import { AppError, invalid, notFound } from "../platform/errors";
import { formatIp, inCidr, parseCidr, parseIp, unmapV4, type Cidr, type IpBytes } from "../platform/ip-ranges";
import { blockById, blockRanges, blocksWithAuthor, deleteBlock, insertBlock } from "./store/blocks";
import { securityBlocks, type SecurityBlockRow } from "./tables";
import { BLOCK_REASON_MAX } from "../common/limits";

/** The narrowest prefixes a block may have: anything wider is almost surely a typo that locks everyone out. */
export const MIN_PREFIX = { v4: 8, v6: 16 } as const;
export { BLOCK_REASON_MAX };
export const BLOCK_MAX_HOURS = 24 * 365;
export const BLOCK_CIDR_RULE =
  `must be an IPv4 or IPv6 address or CIDR range (203.0.113.0/24, 2001:db8::/48), no ` +
  `wider than /${MIN_PREFIX.v4} for IPv4 or /${MIN_PREFIX.v6} for IPv6`;

interface ActiveBlock {
  net: Cidr;
  /** Epoch ms, or Infinity for a block with no expiry. */
  until: number;
}

// Kept until a block is added or removed (or another process commits): page edits leave it.
const keptBlocks = keptUntilWrite<ActiveBlock[]>("security blocks", 4, undefined, { tables: [{ table: getTableName(securityBlocks) }] });

function activeBlocks(core: Core): ActiveBlock[] {
  return keptBlocks(core.stamp, "blocks", () =>
    blockRanges(core).flatMap((row) => {
      const net = parseCidr(row.cidr);
      return net ? [{ net, until: row.expiresAt ? Date.parse(row.expiresAt) : Infinity }] : [];
    }),
  );
}

/** Whether an address (bytes) falls inside the network, directly or as an IPv4-mapped IPv6 address. */
function covers(net: Cidr, ip: IpBytes): boolean {
  if (inCidr(ip, net)) return true;
  const v4 = unmapV4(ip);
  return v4 !== null && inCidr(v4, net);
}

/** The active block covering this client address, if any (an unreadable address, such as an in-process call's, is never blocked). */
export function blockCovering(core: Core, ip: string | { readonly ip: string }): ActiveBlock | null {
  const blocks = activeBlocks(core);
  if (blocks.length === 0) return null;
  const bytes = parseIp(typeof ip === "string" ? ip : ip.ip);
  if (!bytes) return null;
  const now = core.clock.now();
  return blocks.find((b) => b.until > now && covers(b.net, bytes)) ?? null;
}

/** The first thing every request meets (http/app.ts): 403 address_blocked for a blocked address. */
export function refuseBlockedAddress(core: Core, ip: string | { readonly ip: string }): void {
  if (blockCovering(core, ip)) {
    throw new AppError("address_blocked", {
      detail:
        "An administrator of this Cairn has blocked requests from your network address. " +
        "If you think this is a mistake, contact them another way.",
    });
  }
}

/** "10.1.2.3/8" → the network with its host bits cleared; null when it is no address or range. */
export function normaliseCidr(text: string): Cidr | null {
  const net = parseCidr(text);
  if (!net) return null;
  const bytes = new Uint8Array(net.bytes);
  for (let bit = net.prefix; bit < bytes.length * 8; bit++) bytes[bit >> 3] &= ~(0x80 >> (bit & 7));
  return { bytes, prefix: net.prefix };
}

export const cidrText = (net: Cidr) => `${formatIp(net.bytes)}/${net.prefix}`;

export interface NewBlock {
  cidr: string;
  reason: string;
  expiresInHours?: number | null;
}

export function toBlock(row: SecurityBlockRow & { createdByName?: string | null }, now: number) {
  return {
    id: row.id,
    cidr: row.cidr,
    reason: row.reason,
    createdById: row.createdById,
    createdByName: row.createdByName ?? null,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    active: row.expiresAt === null || Date.parse(row.expiresAt) > now,
  };
}

export type Block = ReturnType<typeof toBlock>;

/** GET /api/admin/security/blocks: every block, newest first, expired ones flagged. */
export function listBlocks(core: Core, caller: Caller): Block[] {
  requireRight(requireUser(caller), "security.manage");
  const now = core.clock.now();
  return blocksWithAuthor(core)
    .map(({ row, createdByName }) => toBlock({ ...row, createdByName }, now))
    .reverse();
}

/**
 * POST /api/admin/security/blocks:
 * 1. the range must parse and be no wider than MIN_PREFIX (a /0 would block everyone);
 * 2. it must not cover the caller's own address (409: they would lock themselves out at once);
 * 3. the block and its audit entry are written in one transaction.
 */
export function addBlock(core: Core, caller: Caller, input: NewBlock): Block {
  const user = requireUser(caller);
  requireRight(user, "security.manage");
  const net = normaliseCidr(input.cidr);
  if (!net) throw invalid("cidr", BLOCK_CIDR_RULE);
  if (net.prefix < (net.bytes.length === 4 ? MIN_PREFIX.v4 : MIN_PREFIX.v6)) throw invalid("cidr", `is too wide: ${BLOCK_CIDR_RULE}`);
  const reason = input.reason.trim();
  if (!reason) throw invalid("reason", "must say why (it is shown to the other administrators)");
  const own = parseIp(user.ip);
  if (own && covers(net, own)) {
    throw new AppError("conflict", {
      field: "cidr",
      detail:
        `${cidrText(net)} includes your own address (${user.ip}): you would be locked ` +
        `out at once. Block a range that leaves your address out.`,
      extra: { yourAddress: user.ip },
    });
  }
  const now = core.clock.now();
  const hours = input.expiresInHours ?? null;
  const row: SecurityBlockRow = {
    id: newId(),
    cidr: cidrText(net),
    reason,
    createdById: user.user.id,
    createdAt: iso(now),
    expiresAt: hours === null ? null : iso(now + hours * 3_600_000),
  };
  core.tx(() => {
    insertBlock(core, row);
    recordEvent(core, {
      type: "security.block_added",
      targetType: "security_block",
      targetId: row.id,
      spaceId: null,
      actorId: user.user.id,
      ip: user.ip,
      data: { cidr: row.cidr, reason, expiresAt: row.expiresAt },
    });
  });
  return toBlock({ ...row, createdByName: user.user.displayName }, now);
}

/** DELETE /api/admin/security/blocks/{id}: the block stops applying at once (audited). */
export function removeBlock(core: Core, caller: Caller, id: string): void {
  const user = requireUser(caller);
  requireRight(user, "security.manage");
  core.tx(() => {
    const row = blockById(core, id);
    if (!row) throw notFound("Block not found");
    deleteBlock(core, id);
    recordEvent(core, {
      type: "security.block_removed",
      targetType: "security_block",
      targetId: row.id,
      spaceId: null,
      actorId: user.user.id,
      ip: user.ip,
      data: { cidr: row.cidr, reason: row.reason },
    });
  });
}

/** Blocks in force now (the overview's count). */
export const activeBlockCount = (core: Core) => {
  const now = core.clock.now();
  return activeBlocks(core).filter((b) => b.until > now).length;
};
