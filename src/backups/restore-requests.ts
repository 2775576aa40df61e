/**
 * Restores asked for by a person (HTTP): the rights and the confirmations, then restore-service.
 * - preview and test: backups.manage;
 * - restore, undo, discard-kept, cancel: backups.restore (owner-only by default), from a
 *   session (API tokens: 403 token_not_allowed);
 * - restore, undo and discard-kept also need, in the request body, `confirmLabel` typed exactly
 *   (the label, "UNDO", "REMOVE": 400 confirm_mismatch naming the field) and the caller's
 *   `password` (400 naming it when wrong, under the sign-in lockout rules). `code`: two-factor
 *   sign-in does not exist yet, so a code sent is refused (409 two_factor_off).
 */
import { confirmPassword } from "../auth/service";
import type { Core } from "../core";
import { requireSession, requireUser, type Caller } from "../identity/caller";
import { requireRight } from "../identity/rights";
import { AppError, invalid } from "../platform/errors";
import type { BackupJobView } from "./jobs";
import { parseAt, previewRestore } from "./restore-preview";
import {
  cancelRestore,
  discardKept,
  refuseIfRunning,
  startRestore,
  startRestoreTest,
  startUndo,
  type RestoreActor,
} from "./restore-service";

export interface Confirmation {
  confirmLabel: string;
  password: string;
  code?: string;
}

function atOf(text: string | undefined): number | null {
  const at = parseAt(text);
  if (at === "invalid") throw invalid("at", "must be an ISO 8601 date and time with its zone (2026-11-24T14:03:00Z) or ms since the epoch");
  return at;
}

/** Rights, session, no restore under way, confirmation word, password (in that order: the cheap refusals first). */
async function confirmed(core: Core, caller: Caller, expected: string, body: Confirmation): Promise<RestoreActor> {
  const user = requireSession(caller);
  requireRight(user, "backups.restore");
  // Open in maintenance (http/pipeline.ts): nothing below may run, nor write, while one is under way.
  refuseIfRunning(core);
  if (body.confirmLabel !== expected) {
    throw new AppError("confirm_mismatch", {
      field: "confirmLabel",
      errors: { confirmLabel: [`must be exactly "${expected}"`] },
      detail: `confirmLabel: type "${expected}" exactly to confirm.`,
    });
  }
  if (body.code !== undefined && body.code !== "")
    throw new AppError("two_factor_off", {
      field: "code",
      detail: "code: two-factor sign-in is not on for this account; confirm with your password alone.",
    });
  await confirmPassword(core, user, body.password);
  return { actorId: user.user.id, ip: caller.ip };
}

export function previewRestoreFor(core: Core, caller: Caller, label: string, at: string | undefined) {
  requireRight(requireUser(caller), "backups.manage");
  return previewRestore(core, caller, label, atOf(at));
}

export function testRestoreFor(core: Core, caller: Caller, label: string, at: string | undefined): BackupJobView {
  requireRight(requireUser(caller), "backups.manage");
  return startRestoreTest(core, label, atOf(at));
}

export async function restoreFor(core: Core, caller: Caller, label: string, body: Confirmation & { at?: string }): Promise<BackupJobView> {
  const at = atOf(body.at);
  const by = await confirmed(core, caller, label, body);
  return startRestore(core, label, at, by);
}

export async function undoFor(core: Core, caller: Caller, body: Confirmation): Promise<BackupJobView> {
  return startUndo(core, await confirmed(core, caller, "UNDO", body));
}

export async function discardKeptFor(core: Core, caller: Caller, body: Confirmation) {
  return discardKept(core, await confirmed(core, caller, "REMOVE", body));
}

export function cancelFor(core: Core, caller: Caller): BackupJobView {
  requireRight(requireSession(caller), "backups.restore");
  return cancelRestore(core);
}
