/**
 * Collaboration tokens: what a WebSocket connection to a page's room shows instead of a cookie.
 * `c1.<payload>.<mac>`, both base64url; the payload is `userId.pageId.expiresMs`, the mac an
 * HMAC-SHA256 under a key derived from the instance key (secret.key), so a token signs in to
 * nothing else, is bound to one account and one page, and dies with its expiry. Nothing is
 * stored: a restart or a second process verifies the same tokens.
 */
import { createHmac } from "node:crypto";
import { safeEqual } from "../platform/crypto";

/** Minutes, not hours: the editor renews it before it runs out (a reconnect with a fresh one). */
export const TOKEN_LIFETIME_MS = 10 * 60 * 1000;

const PREFIX = "c1";

export interface CollabClaims {
  userId: string;
  pageId: string;
  expiresAt: number;
}

function macOf(key: Uint8Array, payload: string): string {
  return createHmac("sha256", key).update(`cairn collab token\n${payload}`).digest("base64url");
}

export function signCollabToken(key: Uint8Array, claims: CollabClaims): string {
  const payload = Buffer.from(`${claims.userId}.${claims.pageId}.${claims.expiresAt}`).toString("base64url");
  return `${PREFIX}.${payload}.${macOf(key, payload)}`;
}

export type TokenCheck = { ok: true; claims: CollabClaims } | { ok: false; why: "malformed" | "forged" | "expired" | "other_page" };

/** Checks the signature, the expiry and that the token names this page. */
export function verifyCollabToken(key: Uint8Array, token: string, pageId: string, nowMs: number): TokenCheck {
  const parts = token.split(".");
  if (parts.length !== 3 || parts[0] !== PREFIX || token.length > 512) return { ok: false, why: "malformed" };
  const [, payload, mac] = parts;
  if (!safeEqual(mac, macOf(key, payload))) return { ok: false, why: "forged" };
  const fields = Buffer.from(payload, "base64url").toString("utf8").split(".");
  const expiresAt = Number(fields[2]);
  if (fields.length !== 3 || !Number.isSafeInteger(expiresAt)) return { ok: false, why: "malformed" };
  const claims = { userId: fields[0], pageId: fields[1], expiresAt };
  if (claims.pageId !== pageId) return { ok: false, why: "other_page" };
  if (expiresAt <= nowMs) return { ok: false, why: "expired" };
  return { ok: true, claims };
}
