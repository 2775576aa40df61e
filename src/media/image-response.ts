/**
 * How a stored avatar or icon is answered. Its address carries ?v=<the first 16 hex digits of its
 * SHA-256> (users/avatars.ts, spaceIconUrl): when the request's v is the current image, the
 * answer never changes and is cached for a year; without it (or a stale v) the browser must ask
 * again each time, cheaply with the ETag. The bytes are always ones the server encoded itself.
 */
import { SECURITY_HEADERS } from "../platform/security-headers";
import type { StoredImage } from "./service";

export function imageResponse(request: Request, image: StoredImage): Response {
  const etag = `"${image.sha256}"`;
  const v = new URL(request.url).searchParams.get("v");
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    "content-type": image.contentType,
    "content-security-policy": "sandbox; default-src 'none'",
    "x-content-type-options": "nosniff",
    "cross-origin-resource-policy": "same-origin",
    // private: avatars and icons of non-public spaces are for signed-in readers only.
    "cache-control": v && image.sha256.startsWith(v) && v.length >= 8 ? "private, max-age=31536000, immutable" : "private, no-cache",
    etag,
  };
  const match = request.headers.get("if-none-match");
  if (match && match.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag || tag.trim() === "*")) {
    const { "content-type": _, ...rest } = headers;
    return new Response(null, { status: 304, headers: rest });
  }
  return new Response(image.blob, { status: 200, headers });
}
