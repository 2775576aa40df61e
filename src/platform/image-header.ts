/**
 * What an uploaded file is, read from its first bytes only: the format and, for the raster
 * formats Cairn decodes, the pixel size its header declares. images.ts checks width × height
 * against the cap BEFORE decoding, so a small file that declares a huge canvas (a
 * decompression bomb) is refused without allocating anything.
 *
 * The client's Content-Type and file name are never trusted; only these bytes are.
 */

export type RasterFormat = "png" | "jpeg" | "webp";

export type SniffedImage =
  | { kind: "raster"; format: RasterFormat; width: number; height: number; animated: boolean }
  /** A format we recognise but never decode (named in the refusal so the person knows why). */
  | { kind: "other"; name: string }
  /** Looks like PNG/JPEG/WebP but the header is cut short or inconsistent. */
  | { kind: "broken"; format: RasterFormat }
  | { kind: "unknown" };

const ascii = (b: Uint8Array, at: number, len: number) => String.fromCharCode(...b.subarray(at, at + len));
const be16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const be32 = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
const le16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const le24 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);

export function sniffImage(b: Uint8Array): SniffedImage {
  if (b.length >= 8 && be32(b, 0) === 0x89504e47 && be32(b, 4) === 0x0d0a1a0a) return png(b);
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpeg(b);
  if (b.length >= 12 && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WEBP") return webp(b);
  if (b.length >= 6 && (ascii(b, 0, 6) === "GIF87a" || ascii(b, 0, 6) === "GIF89a")) return { kind: "other", name: "GIF" };
  if (b.length >= 12 && ascii(b, 4, 4) === "ftyp") {
    const brand = ascii(b, 8, 4);
    if (/^avi[fs]$/.test(brand)) return { kind: "other", name: "AVIF" };
    if (/^(hei[cmsx]|mif1|msf1|hev[cmsx])$/.test(brand)) return { kind: "other", name: "HEIC" };
  }
  if (b.length >= 2 && ((b[0] === 0x49 && b[1] === 0x49) || (b[0] === 0x4d && b[1] === 0x4d)) && b.length >= 4 && (b[2]! | b[3]!) === 42)
    return { kind: "other", name: "TIFF" };
  if (b.length >= 2 && b[0] === 0x42 && b[1] === 0x4d) return { kind: "other", name: "BMP" };
  if (looksLikeSvg(b)) return { kind: "other", name: "SVG" };
  return { kind: "unknown" };
}

/** SVG is text: an optional BOM, XML declaration, comments or doctype, then an <svg element. */
function looksLikeSvg(b: Uint8Array): boolean {
  const head = new TextDecoder("utf-8", { fatal: false })
    .decode(b.subarray(0, 4096))
    .replace(/^\uFEFF/, "")
    .trimStart();
  return head.startsWith("<") && /<svg[\s>]/i.test(head);
}

function png(b: Uint8Array): SniffedImage {
  // The first chunk is always IHDR: length (13), "IHDR", width, height (big-endian).
  if (b.length < 24 || ascii(b, 12, 4) !== "IHDR") return { kind: "broken", format: "png" };
  const width = be32(b, 16);
  const height = be32(b, 20);
  if (!width || !height) return { kind: "broken", format: "png" };
  // An APNG carries an acTL chunk before the first IDAT; only its first frame would be kept.
  const animated = indexOfAscii(b, "acTL", 8, Math.min(b.length, 64 * 1024)) >= 0;
  return { kind: "raster", format: "png", width, height, animated };
}

function jpeg(b: Uint8Array): SniffedImage {
  // Walk the marker segments up to the first start-of-frame, which holds the size.
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return { kind: "broken", format: "jpeg" };
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // markers without a length
      continue;
    }
    const length = be16(b, i + 2);
    if (length < 2) return { kind: "broken", format: "jpeg" };
    // SOF0…SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (i + 9 > b.length) break;
      const height = be16(b, i + 5);
      const width = be16(b, i + 7);
      if (!width || !height) return { kind: "broken", format: "jpeg" };
      return { kind: "raster", format: "jpeg", width, height, animated: false };
    }
    if (marker === 0xda || marker === 0xd9) break; // scan data or end before any frame header
    i += 2 + length;
  }
  return { kind: "broken", format: "jpeg" };
}

function webp(b: Uint8Array): SniffedImage {
  if (b.length < 30) return { kind: "broken", format: "webp" };
  const chunk = ascii(b, 12, 4);
  if (chunk === "VP8X") {
    // Extended format: flags at 20 (0x02 animation), canvas size minus one as 24-bit LE at 24 and 27.
    return { kind: "raster", format: "webp", width: le24(b, 24) + 1, height: le24(b, 27) + 1, animated: (b[20]! & 0x02) !== 0 };
  }
  if (chunk === "VP8 ") {
    // Lossy: a key frame's start code 9d 01 2a at 23, then 14-bit width and height.
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return { kind: "broken", format: "webp" };
    const width = le16(b, 26) & 0x3fff;
    const height = le16(b, 28) & 0x3fff;
    if (!width || !height) return { kind: "broken", format: "webp" };
    return { kind: "raster", format: "webp", width, height, animated: false };
  }
  if (chunk === "VP8L") {
    // Lossless: signature 0x2f, then width-1 and height-1 as two 14-bit fields.
    if (b[20] !== 0x2f) return { kind: "broken", format: "webp" };
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return { kind: "raster", format: "webp", width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, animated: false };
  }
  return { kind: "broken", format: "webp" };
}

function indexOfAscii(b: Uint8Array, needle: string, from: number, to: number): number {
  const first = needle.charCodeAt(0);
  outer: for (let i = from; i + needle.length <= to; i++) {
    if (b[i] !== first) continue;
    for (let k = 1; k < needle.length; k++) if (b[i + k] !== needle.charCodeAt(k)) continue outer;
    return i;
  }
  return -1;
}
