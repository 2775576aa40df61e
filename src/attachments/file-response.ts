/**
 * How an attachment's bytes are answered over HTTP. Files come from anyone who may edit a page
 * and are read by everyone who may see it, so nothing in them may run in Cairn's origin:
 * - /download is always `Content-Disposition: attachment` (the browser saves it, never shows it);
 * - /view shows inline only the types of INLINE_TYPES (images, PDF, plain text); anything else
 *   (HTML, SVG, XML, unknown bytes) is answered exactly like /download, and so is text whose
 *   name says it is web code (a script or markup that happened to sniff as plain text);
 * - always `X-Content-Type-Options: nosniff`, the sniffed type (never the client's claim), and
 *   `Content-Security-Policy: sandbox`, so even a file a browser did render gets a unique
 *   origin with no scripts.
 */
import { SECURITY_HEADERS } from "../platform/security-headers";
import { contentDisposition } from "./filenames";
import type { Attachment } from "./service";
import { contentTypeHeader, INLINE_TYPES } from "./sniff";

/** Sandboxed, and nothing may be loaded from the file (styles inline: a browser's image view uses them). */
export const FILE_CSP = "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'";

/** Names of files a browser could run or render as a page; never shown inline, whatever their bytes. */
const WEB_CODE = /\.(m?js|cjs|html?|xht(ml)?|shtml|svgz?|xml|xslt?|hta|swf|wasm)$/i;

export function fileResponse(
  request: Request,
  file: { attachment: Attachment; sha256: string; blob: Blob },
  mode: "download" | "view",
): Response {
  const { attachment } = file;
  const inline =
    mode === "view" &&
    INLINE_TYPES.has(attachment.contentType) &&
    !(attachment.contentType === "text/plain" && WEB_CODE.test(attachment.filename));
  const etag = `"${file.sha256}"`;
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    "content-security-policy": FILE_CSP,
    "x-content-type-options": "nosniff",
    "cross-origin-resource-policy": "same-origin",
    "content-type": contentTypeHeader(attachment.contentType),
    "content-disposition": contentDisposition(inline ? "inline" : "attachment", attachment.filename),
    // Who may read it can change at any time: a cache must ask again (cheap with the ETag).
    "cache-control": "private, no-cache",
    etag,
  };
  if (ifNoneMatch(request.headers.get("if-none-match"), etag)) {
    const { "content-type": _, ...rest } = headers;
    return new Response(null, { status: 304, headers: rest });
  }
  return new Response(file.blob, { status: 200, headers });
}

function ifNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim().replace(/^W\//, "");
    return t === etag || t === "*";
  });
}
