import { AppError } from "../platform/errors";
import type { apiTokens } from "../tokens/tables";
import type { roles, users } from "../users/tables";
import type { sessions } from "../auth/tables";

export type UserRow = typeof users.$inferSelect;
export type RoleRow = typeof roles.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type TokenRow = typeof apiTokens.$inferSelect;

/** Who is asking. Resolved once per request (http/caller.ts) and handed to the services. */
export type Caller = AnonymousCaller | UserCaller;

export interface AnonymousCaller {
  kind: "anonymous";
  ip: string;
}

export interface UserCaller {
  kind: "user";
  ip: string;
  user: UserRow;
  role: RoleRow;
  permissions: Set<string>;
  /** Set for a browser session; null for an API token. */
  session: SessionRow | null;
  /** Set for an API token; null for a browser session. */
  token: TokenRow | null;
}

export const anonymous = (ip: string): AnonymousCaller => ({ kind: "anonymous", ip });

export function requireUser(caller: Caller): UserCaller {
  if (caller.kind !== "user") throw new AppError("unauthenticated");
  return caller;
}

/** Account management answers only a browser session (docs/permissions.md, "Tokens"). */
export function requireSession(caller: Caller): UserCaller & { session: SessionRow } {
  const user = requireUser(caller);
  if (!user.session) throw new AppError("token_not_allowed");
  return user as UserCaller & { session: SessionRow };
}

export function callerId(caller: Caller): string | null {
  return caller.kind === "user" ? caller.user.id : null;
}
