/**
 * An attachment's content type comes from its own bytes, never from what the client claimed: a
 * "photo.png" that is really HTML must never be served as something a browser renders.
 *
 * The sniffer is fed the bytes as they stream to the blob store. It keeps the first 4 KB (for
 * signatures and markup) and checks the whole file for "text": valid UTF-8 with no NUL byte.
 */
import { isUtf8 } from "node:buffer";

const HEAD_BYTES = 4096;

/** What /view may show inline (with CSP sandbox and nosniff). Everything else is downloaded. */
export const INLINE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf", "text/plain"]);

export class ContentSniffer {
  private head = Buffer.alloc(0);
  private text = true;
  /** An incomplete UTF-8 sequence at the end of the last chunk (at most 3 bytes). */
  private carry = Buffer.alloc(0);

  update(chunk: Uint8Array): void {
    if (this.head.length < HEAD_BYTES) this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD_BYTES - this.head.length)]);
    if (!this.text) return;
    if (chunk.indexOf(0) >= 0) {
      this.text = false;
      return;
    }
    const bytes = this.carry.length ? Buffer.concat([this.carry, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const complete = completeUtf8Length(bytes);
    if (!isUtf8(bytes.subarray(0, complete))) this.text = false;
    this.carry = Buffer.from(bytes.subarray(complete));
  }

  /** The content type of everything fed so far. */
  result(): string {
    return sniff(this.head, this.text && this.carry.length === 0);
  }
}

/**
 * How many leading bytes end on a whole UTF-8 sequence: a lead byte within the last 3 whose
 * sequence is cut off starts the carry. (Bad bytes are left for isUtf8 to refuse.)
 */
function completeUtf8Length(b: Uint8Array): number {
  for (let i = b.length - 1; i >= 0 && i >= b.length - 4; i--) {
    const byte = b[i];
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return i + need > b.length ? i : b.length;
  }
  return b.length;
}

const startsWith = (b: Uint8Array, sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** Markup a browser would render (WHATWG MIME sniffing's HTML patterns, plus XML and SVG). */
const HTML_START = /^<(!doctype html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p|!--)[\s>\/]/i;
/** Text that holds active markup anywhere near its start is never treated as plain text. */
const MARKUP_INSIDE = /<\s*(script|html|svg|iframe|object|embed|body|head|meta|!doctype|\?xml|math|frameset)[\s>\/]/i;

/** The content type of a file from its first bytes and whether the whole file is text. */
export function sniff(head: Uint8Array, isText: boolean): string {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(head, ascii("GIF87a")) || startsWith(head, ascii("GIF89a"))) return "image/gif";
  if (startsWith(head, ascii("RIFF")) && startsWith(head, ascii("WEBP"), 8)) return "image/webp";
  if (startsWith(head, ascii("%PDF-"))) return "application/pdf";
  if (startsWith(head, [0x50, 0x4b]) && ([0x0304, 0x0506, 0x0708] as const).some((v) => head[2] === v >> 8 && head[3] === (v & 0xff)))
    return "application/zip";
  if (!isText) return "application/octet-stream";
  const text = Buffer.from(head.buffer, head.byteOffset, head.byteLength)
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimStart();
  if (/^<\?xml[\s?]/i.test(text)) return /<svg[\s>]/i.test(text) ? "image/svg+xml" : "application/xml";
  if (/^<svg[\s>\/]/i.test(text)) return "image/svg+xml";
  if (HTML_START.test(text) || MARKUP_INSIDE.test(text)) return "text/html";
  return "text/plain";
}

/** The Content-Type header for a sniffed type (text is always UTF-8: that is how it was detected). */
export function contentTypeHeader(contentType: string): string {
  return contentType.startsWith("text/") || contentType.endsWith("+xml") || contentType === "application/xml"
    ? `${contentType}; charset=utf-8`
    : contentType;
}
