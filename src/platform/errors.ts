import { fieldSentence } from "./sentences";

/**
 * The one error catalogue. Services throw these; src/http/problem.ts turns them into
 * RFC 9457 problem documents. Codes are snake_case and stable (they are part of the API).
 */
export const ERROR_CODES = {
  validation_failed: { status: 400, title: "The request is not valid" },
  unauthenticated: { status: 401, title: "Sign in to continue" },
  invalid_credentials: { status: 401, title: "Wrong e-mail or password" },
  invalid_token: { status: 401, title: "The API token is wrong, revoked or expired" },
  read_only_token: { status: 403, title: "This API token is read-only" },
  token_not_allowed: { status: 403, title: "API tokens cannot use this endpoint; sign in with a browser session" },
  reauth_required: { status: 403, title: "Confirm your password to continue" },
  permission_required: { status: 403, title: "You do not have the right to do this" },
  csrf_header_missing: { status: 403, title: "Session requests that change data must send X-Requested-With: Cairn" },
  forbidden: { status: 403, title: "This action is not allowed" },
  owner_protected: { status: 403, title: "Nobody can change the owner's account; only the owner can hand ownership on" },
  owner_only: { status: 403, title: "Only the owner can do this" },
  higher_tier: { status: 403, title: "That account or role is of a higher tier than your own" },
  higher_rights: { status: 403, title: "That account or role holds rights your own does not" },
  own_account: { status: 403, title: "You cannot do this to your own account" },
  address_blocked: { status: 403, title: "Requests from your address are blocked on this server" },
  not_found: { status: 404, title: "Not found" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  key_taken: { status: 409, title: "That key is already taken" },
  email_taken: { status: 409, title: "An account with that e-mail already exists" },
  version_conflict: { status: 409, title: "The page changed since the version you started from" },
  room_not_open: { status: 409, title: "This page is not open in a shared editing room" },
  unseen_changes: { status: 409, title: "The working copy holds changes by someone you were not shown" },
  conflict: { status: 409, title: "Conflict" },
  last_administrator: { status: 409, title: "The last active administrator cannot be suspended or demoted" },
  account_suspended: { status: 409, title: "A suspended account cannot be given ownership" },
  two_factor_off: { status: 409, title: "Two-factor sign-in is not on for this account" },
  payload_too_large: { status: 413, title: "The request is too large" },
  unsupported_media_type: { status: 415, title: "Unsupported content type" },
  rate_limited: { status: 429, title: "Too many requests" },
  internal_error: { status: 500, title: "Something went wrong on the server" },
  maintenance: { status: 503, title: "Cairn is temporarily read-only" },
  service_unavailable: { status: 503, title: "A service this needs is not available" },
  export_disabled: { status: 403, title: "This export is switched off for the space" },
  backup_not_found: { status: 404, title: "There is no backup with that label" },
  backup_running: { status: 409, title: "A backup is already being taken" },
  restore_running: { status: 409, title: "A restore is under way" },
  restore_swapped: { status: 409, title: "The restore has already replaced the data; it can be undone, no longer cancelled" },
  nothing_kept: { status: 409, title: "No replaced data is kept from a restore" },
  confirm_mismatch: { status: 400, title: "The confirmation does not match what it must be" },
  not_covered: { status: 409, title: "That time is not covered by this backup and the archived log after it" },
  restore_checks_failed: { status: 409, title: "The restored copy failed its checks; nothing was replaced" },
  insufficient_storage: { status: 507, title: "Not enough free disk space for this" },
  copy_running: { status: 409, title: "Backups are already being copied to that target" },
  import_refused: { status: 400, title: "The file cannot be imported" },
  progress_in_use: { status: 409, title: "That progress id is already following work that is running" },
  export_unavailable: { status: 503, title: "This export needs a program the server does not have" },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ProblemExtras {
  detail?: string;
  field?: string;
  errors?: Record<string, string[]>;
  /** Extra members of the problem document (e.g. `permission`, `limit`). */
  extra?: Record<string, unknown>;
  /** Response headers to add (e.g. Retry-After). */
  headers?: Record<string, string>;
  /**
   * Replace the whole body; problemResponse adds status and code (the 409 page conflict: a problem
   * that also carries the page, src/pages/conflict.ts).
   */
  body?: Record<string, unknown>;
}

export class AppError extends Error {
  readonly status: number;
  readonly problemCode: ErrorCode;
  readonly title: string;
  constructor(
    problemCode: ErrorCode,
    readonly extras: ProblemExtras = {},
    title?: string,
  ) {
    const entry = ERROR_CODES[problemCode];
    super(extras.detail ?? title ?? entry.title);
    this.status = entry.status;
    this.problemCode = problemCode;
    this.title = title ?? entry.title;
  }
}

/** A 400 that names the field (`field`, `errors`) and says why in a sentence (`detail`, platform/sentences.ts). */
export function invalid(field: string, reason: string): AppError {
  return new AppError("validation_failed", { field, detail: fieldSentence(field, reason), errors: { [field]: [reason] } });
}

export const notFound = (what = "Not found") => new AppError("not_found", {}, what);

export const permissionRequired = (permission: string) =>
  new AppError("permission_required", { extra: { permission }, detail: `This needs the right "${permission}".` });

/** An error's code ("ENOSPC", "SQLITE_FULL"…), SQLite's extended codes as their primary one (SQLITE_IOERR_WRITE: SQLITE_IOERR). */
export function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code.replace(/^(SQLITE_[A-Z]+)_[A-Z_]+$/, "$1") : "";
}
