import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase64urlNoPadding, encodeHexLowerCase } from "@oslojs/encoding";

const encoder = new TextEncoder();

export function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

/** A random secret as base64url text (n bytes of entropy). */
export function randomToken(n = 32): string {
  return encodeBase64urlNoPadding(randomBytes(n));
}

export function sha256Hex(text: string | Uint8Array): string {
  return encodeHexLowerCase(sha256(typeof text === "string" ? encoder.encode(text) : text));
}

export function newId(): string {
  return Bun.randomUUIDv7();
}

/** Constant-time comparison of two strings of hex or base64 text. */
export function safeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
