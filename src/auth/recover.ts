/**
 * One-time password reset links. An administrator makes one for an account (POST
 * /api/admin/users/{id}/reset-password) and gives it to the person, who sets a new password
 * with it (POST /api/auth/recover/token, the web UI's /reset-password screen).
 *
 * - The token is 32 random bytes; only its SHA-256 is stored, the value is answered once.
 * - A link lasts RESET_LINK_HOURS and works once; a new link replaces the account's unused ones.
 * - Using it sets the password under the usual rules, ends every session of the account (the
 *   person signs in afresh) and clears its sign-in locks, as `cairn reset-password` does. API
 *   tokens stay: a forgotten password is no sign that one leaked.
 * - Unknown, used and expired links give the same 400 on `token`.
 */
import type { UserCaller } from "../identity/caller";
import { checkNewPassword, hashPassword } from "../identity/password";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { newId, randomToken, sha256Hex } from "../platform/crypto";
import { invalid } from "../platform/errors";
import { targetOf } from "../users/admin-users";
import { updateAccount } from "../users/store/accounts";
import { clearAllFailures } from "./lockout";
import { deleteUserSessions } from "./sessions";
import { deleteUnusedResetLinks, insertResetLink, markResetLinkUsed, resetLinkByTokenHash } from "./store/resets";

export const RESET_LINK_HOURS = 24;
const HOUR = 3_600_000;

/** Why the link was not e-mailed: Cairn does not send e-mail yet. */
export const NO_EMAIL_YET =
  "E-mail sending is not set up on this server yet: give the link to the person yourself (in person or through a channel you trust).";

export function createResetLink(core: Core, caller: UserCaller, userId: string) {
  const token = randomToken(32);
  const now = core.clock.now();
  const expiresAt = iso(now + RESET_LINK_HOURS * HOUR);
  core.tx(() => {
    targetOf(core, caller, userId);
    const replaced = deleteUnusedResetLinks(core, userId);
    const id = newId();
    insertResetLink(core, {
      id,
      userId,
      tokenHash: sha256Hex(token),
      createdById: caller.user.id,
      expiresAt,
      usedAt: null,
      createdAt: iso(now),
    });
    recordEvent(core, {
      type: "user.password_reset_link",
      targetType: "user",
      targetId: userId,
      spaceId: null,
      actorId: caller.user.id,
      ip: caller.ip,
      data: { linkId: id, expiresAt, replaced, emailed: false },
    });
  });
  const path = `/reset-password?token=${token}`;
  const base = core.config.baseUrl?.replace(/\/+$/, "") ?? null;
  return { token, path, url: base ? base + path : null, expiresAt, emailed: false, emailStatus: NO_EMAIL_YET };
}

const badToken = () =>
  invalid("token", "is not a valid reset link: it may have expired or been used already; ask an administrator for a new one");

function liveLink(core: Core, token: string) {
  const row = resetLinkByTokenHash(core, sha256Hex(token));
  if (!row || row.usedAt !== null || Date.parse(row.expiresAt) <= core.clock.now()) return null;
  return row;
}

/** POST /api/auth/recover/token. */
export async function useResetLink(core: Core, input: { token: string; newPassword: string; ip: string }): Promise<void> {
  if (!liveLink(core, input.token)) throw badToken();
  await checkNewPassword(input.newPassword, "newPassword");
  const hash = await hashPassword(input.newPassword);
  core.tx(() => {
    // Checked again inside the write: two uses at once, only one wins.
    const link = liveLink(core, input.token);
    if (!link) throw badToken();
    const now = iso(core.clock.now());
    markResetLinkUsed(core, link.id, now);
    updateAccount(core, link.userId, { passwordHash: hash }, now);
    const sessionsSignedOut = deleteUserSessions(core, link.userId, null);
    const lockoutCleared = clearAllFailures(core, link.userId);
    recordEvent(core, {
      type: "user.password_reset",
      targetType: "user",
      targetId: link.userId,
      spaceId: null,
      actorId: link.userId,
      ip: input.ip,
      data: { via: "link", linkId: link.id, sessionsSignedOut, lockoutCleared },
    });
  });
}
