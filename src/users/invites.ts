import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { ROLE_ID } from "../identity/rights";
import type { UserCaller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { newId, randomToken, sha256Hex } from "../platform/crypto";
import { invalid, notFound } from "../platform/errors";
import { invites } from "./tables";

export const INVITE_DEFAULT_DAYS = 7;
export const INVITE_MAX_DAYS = 90;
/** The longest personal message an invite carries. */
export const INVITE_MESSAGE_MAX = 2000;

const DAY = 86_400_000;

export interface CreateInviteInput {
  email?: string | null;
  expiresInDays?: number;
  sendEmail?: boolean;
  message?: string;
}

function toInvite(row: typeof invites.$inferSelect) {
  return { id: row.id, email: row.email, expiresAt: row.expiresAt, createdAt: row.createdAt, createdById: row.createdById };
}

export function createInvite(core: Core, caller: UserCaller, input: CreateInviteInput, normaliseEmail: (e: string) => string) {
  const days = input.expiresInDays ?? INVITE_DEFAULT_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > INVITE_MAX_DAYS) throw invalid("expiresInDays", `must be a whole number of days from 1 to ${INVITE_MAX_DAYS}`);
  const email = input.email ? normaliseEmail(input.email) : null;
  if (input.message && input.message.length > INVITE_MESSAGE_MAX) throw invalid("message", `must be at most ${INVITE_MESSAGE_MAX} characters`);
  const token = randomToken(32);
  const now = core.clock.now();
  const row = {
    id: newId(),
    tokenHash: sha256Hex(token),
    email,
    roleId: ROLE_ID.user,
    createdById: caller.user.id,
    expiresAt: iso(now + days * DAY),
    createdAt: iso(now),
  };
  core.tx(() => {
    core.db.insert(invites).values(row).run();
    recordEvent(core, { type: "invite.created", targetType: "invite", targetId: row.id, spaceId: null, actorId: caller.user.id, ip: caller.ip, data: { email, roleId: row.roleId, expiresAt: row.expiresAt } });
  });
  return {
    ...toInvite({ ...row, usedAt: null, usedById: null }),
    token,
    path: `/register?invite=${token}`,
    // E-mail delivery arrives with the e-mail issue; until then the link is shared by hand.
    emailSent: false,
    emailStatus: input.sendEmail ? "E-mail is not set up on this instance yet: share the link yourself." : null,
  };
}

/** Pending invites: not used and not expired. */
export function listInvites(core: Core) {
  return core.db
    .select()
    .from(invites)
    .where(and(isNull(invites.usedAt), gt(invites.expiresAt, iso(core.clock.now()))))
    .orderBy(desc(invites.createdAt))
    .all()
    .map(toInvite);
}

export function deleteInvite(core: Core, caller: UserCaller, id: string): void {
  core.tx(() => {
    const gone = core.db.delete(invites).where(and(eq(invites.id, id), isNull(invites.usedAt))).returning({ email: invites.email }).get();
    if (!gone) throw notFound();
    recordEvent(core, { type: "invite.deleted", targetType: "invite", targetId: id, spaceId: null, actorId: caller.user.id, ip: caller.ip, data: { email: gone.email } });
  });
}

/**
 * Checks an invite inside the registration transaction and marks it used. Unknown, used and
 * expired invites all give the same 400. Answers the role it grants; the caller records who
 * used it (markInviteUsedBy) once the account row exists.
 */
export function consumeInvite(core: Core, token: string, email: string): { inviteId: string; roleId: string } {
  const now = iso(core.clock.now());
  const row = core.db.select().from(invites).where(eq(invites.tokenHash, sha256Hex(token))).get();
  if (!row || row.usedAt || row.expiresAt <= now) throw invalid("inviteToken", "is not valid: it may have expired or been used; ask for a new invite");
  if (row.email && row.email !== email) throw invalid("email", "must be the address the invite was sent to");
  core.db.update(invites).set({ usedAt: now }).where(eq(invites.id, row.id)).run();
  return { inviteId: row.id, roleId: row.roleId };
}

export function markInviteUsedBy(core: Core, inviteId: string, userId: string): void {
  core.db.update(invites).set({ usedById: userId }).where(eq(invites.id, inviteId)).run();
}
