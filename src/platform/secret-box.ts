/**
 * Secrets Cairn must keep and use again (a backup target's S3 credentials), sealed with the
 * instance key (data/secret.key): AES-256-GCM under a key derived from it with HKDF-SHA256 and
 * a purpose label, so one use's ciphertext never opens as another's, and the instance key itself
 * encrypts nothing. The label is also the additional data, so a value moved between purposes
 * fails to open rather than decrypting under a look-alike key.
 *
 * Sealed text: `v1.<base64url(iv 12 bytes ‖ ciphertext ‖ tag 16 bytes)>`. The version names the
 * scheme (key derivation, cipher, layout), so a later one can be read beside it.
 */
import { createCipheriv, createDecipheriv, hkdfSync } from "node:crypto";
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import { randomBytes } from "./crypto";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretBoxError";
  }
}

const PURPOSE = /^[a-z0-9][a-z0-9._-]{0,63}$/;

function keyFor(instanceKey: Uint8Array, purpose: string): Buffer {
  if (instanceKey.byteLength < 32) throw new SecretBoxError("the instance key must be at least 32 bytes");
  if (!PURPOSE.test(purpose)) throw new SecretBoxError(`not a purpose label: ${purpose}`);
  return Buffer.from(hkdfSync("sha256", instanceKey, new Uint8Array(0), `cairn secret-box ${VERSION} ${purpose}`, 32));
}

/** Seals `plain` for `purpose` (e.g. "backup-target"); a fresh random IV every time. */
export function sealSecret(instanceKey: Uint8Array, purpose: string, plain: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyFor(instanceKey, purpose), iv);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const sealed = Buffer.concat([iv, body, cipher.getAuthTag()]);
  return `${VERSION}.${encodeBase64urlNoPadding(sealed)}`;
}

/** Opens what sealSecret made; throws SecretBoxError when it was altered, or sealed with another key or purpose. */
export function openSecret(instanceKey: Uint8Array, purpose: string, sealed: string): string {
  const dot = sealed.indexOf(".");
  const version = dot > 0 ? sealed.slice(0, dot) : "";
  if (version !== VERSION) throw new SecretBoxError(`unknown sealed-secret version "${version || sealed.slice(0, 8)}"`);
  let bytes: Uint8Array;
  try {
    bytes = decodeBase64urlIgnorePadding(sealed.slice(dot + 1));
  } catch {
    throw new SecretBoxError("the sealed secret is not base64url");
  }
  if (bytes.byteLength < IV_BYTES + TAG_BYTES) throw new SecretBoxError("the sealed secret is too short");
  const decipher = createDecipheriv("aes-256-gcm", keyFor(instanceKey, purpose), bytes.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(purpose));
  decipher.setAuthTag(bytes.subarray(bytes.byteLength - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.byteLength - TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretBoxError("the sealed secret does not open with this instance key (altered, or sealed by another instance)");
  }
}
