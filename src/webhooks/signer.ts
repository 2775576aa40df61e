/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): a `whsec_` secret whose
 * base64 part is the HMAC key, and three headers on every delivery:
 *   webhook-id         the delivery id (the same on every retry, so receivers can de-duplicate)
 *   webhook-timestamp  the attempt's time, unix seconds (receivers refuse stale ones)
 *   webhook-signature  "v1," + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`
 */
import { randomBytes } from "../platform/crypto";
import { VERSION } from "../version";

const PREFIX = "whsec_";

/** A new secret: whsec_ + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return PREFIX + Buffer.from(randomBytes(32)).toString("base64");
}

/** The HMAC key of each secret seen, decoded once (every delivery and retry signs with it). */
const keys = new Map<string, Buffer>();
const MAX_KEYS = 1_000;

function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= MAX_KEYS) keys.clear();
    keys.set(secret, (key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64")));
  }
  return key;
}

export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = keyOf(secret);
  // Bun's hasher rather than node:crypto: this module loads before the server listens, where
  // importing node:crypto (Node's stream classes) cost ~4 ms of every start.
  return `v1,${new Bun.CryptoHasher("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`;
}

/** The headers of one delivery attempt made at `nowMs`. */
export function deliveryHeaders(secret: string, id: string, nowMs: number, body: string): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    "content-type": "application/json",
    "user-agent": `Cairn-Webhooks/${VERSION}`,
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signature(secret, id, timestamp, body),
  };
}
