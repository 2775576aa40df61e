/**
 * Uploaded pictures (avatars, space icons, logos): checked, decoded, shrunk and re-encoded, so
 * what Cairn stores and serves is pixels it produced itself. Re-encoding is what strips every
 * piece of metadata the upload carried (EXIF with the camera's GPS position, XMP, comments,
 * ICC profiles) and anything smuggled after the image data.
 *
 *   const out = await processImage(bytes, { accept: ["png", "jpeg", "webp"], maxBytes: 5 << 20,
 *     resize: { fit: "cover", width: 256, height: 256 }, output: "webp" });
 *
 * Refusals are problems from the catalogue: 413 over `maxBytes`; 415 for anything that is not
 * one of `accept` by its bytes (SVG included: the branding domain sanitises SVG itself), for
 * animations, and for a declared size over the decoding budget (checked from the header, before
 * any decoding: a flat-colour PNG compresses about 1,000 to 1, so 150 KB can declare 36
 * megapixels); 400 when the bytes claim a format but cannot be decoded; 429 when the queue of
 * images waiting to be decoded is full.
 *
 * Decoding runs one image at a time server-wide (image-queue.ts), so a burst of uploads holds
 * one decoded photo in memory, not one each. The codecs are in image-codecs.ts, the resampler in
 * image-resize.ts.
 */
import { AppError, invalid } from "./errors";
import { type RasterFormat, sniffImage } from "./image-header";
import { decodeInTurn } from "./image-queue";
import { type ResizeRule, resize } from "./image-resize";

export type { RasterFormat } from "./image-header";
export type { ResizeRule } from "./image-resize";

/**
 * The decoding budget: the RGBA bytes (width × height × 4) one decode may produce, 64 MB. The
 * decode really costs about twice that while it runs (the codec's WebAssembly memory, then the
 * copy handed to JavaScript), so one upload at the budget raises the process's memory by about
 * 130 MB, and one at a time (the queue) keeps it there whatever the number of uploads.
 */
export const DECODE_BUDGET_BYTES = 48 * 1024 * 1024;
/** The pixel cap the budget gives: 16.7 megapixels (a 5,000 × 3,350 photo; a phone's 12 MP fits). */
export const DEFAULT_MAX_PIXELS = DECODE_BUDGET_BYTES / 4;
/** Neither side may exceed this (a 1 × 40,000,000 strip is no picture). */
export const MAX_SIDE = 20_000;

export interface ImageRules {
  /** The formats accepted as input. */
  accept: readonly RasterFormat[];
  maxBytes: number;
  maxPixels?: number;
  resize: ResizeRule;
  output: "png" | "webp";
  /** WebP only: lossless keeps logos crisp; lossy (the default) keeps photos small. */
  lossless?: boolean;
  quality?: number;
  /** The request field named in refusals ("file" unless told). */
  field?: string;
}

export interface ProcessedImage {
  bytes: Uint8Array;
  format: "png" | "webp";
  contentType: "image/png" | "image/webp";
  width: number;
  height: number;
  /** What came in, for the record (e.g. "jpeg"). */
  sourceFormat: RasterFormat;
}

const LABEL: Record<RasterFormat, string> = { png: "PNG", jpeg: "JPEG", webp: "WebP" };

function listOf(formats: readonly RasterFormat[]): string {
  const names = formats.map((f) => LABEL[f]);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : names[0]!;
}

/** Checks `bytes` against the rules without decoding: the format and declared size. */
export function checkImage(
  bytes: Uint8Array,
  rules: Pick<ImageRules, "accept" | "maxBytes" | "maxPixels" | "field">,
): { format: RasterFormat; width: number; height: number } {
  const field = rules.field ?? "file";
  const wanted = `Upload a ${listOf(rules.accept)} image.`;
  if (bytes.byteLength > rules.maxBytes) {
    throw new AppError("payload_too_large", {
      field,
      detail: `The image is larger than ${formatBytes(rules.maxBytes)}.`,
      extra: { limit: rules.maxBytes },
    });
  }
  if (bytes.byteLength === 0) throw invalid(field, "the file is empty");
  const sniffed = sniffImage(bytes);
  const refuse = (detail: string) => new AppError("unsupported_media_type", { field, detail });
  if (sniffed.kind === "other") throw refuse(`${sniffed.name} images are not accepted here. ${wanted}`);
  if (sniffed.kind === "unknown") throw refuse(`This file is not an image Cairn can read. ${wanted}`);
  if (!rules.accept.includes(sniffed.format)) throw refuse(`${LABEL[sniffed.format]} images are not accepted here. ${wanted}`);
  if (sniffed.kind === "broken") throw invalid(field, `the ${LABEL[sniffed.format]} image is damaged or incomplete`);
  if (sniffed.animated) throw refuse("Animated images are not accepted. Upload a still image.");
  // A rule may lower the cap, never raise it past the budget.
  const maxPixels = Math.min(rules.maxPixels ?? DEFAULT_MAX_PIXELS, DEFAULT_MAX_PIXELS);
  const { width, height } = sniffed;
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > maxPixels) {
    throw new AppError("unsupported_media_type", {
      field,
      detail:
        `The image is ${width} × ${height} pixels (${count(width * height)}, ${formatBytes(width * height * 4)} once decoded); ` +
        `the most Cairn decodes is ${count(maxPixels)} pixels (${formatBytes(maxPixels * 4)}) and ` +
        `${MAX_SIDE} a side. Upload a smaller image.`,
      extra: { width, height, maxPixels, maxSide: MAX_SIDE },
    });
  }
  return { format: sniffed.format, width: sniffed.width, height: sniffed.height };
}

/** Checks, decodes, resizes and re-encodes one uploaded image (see the file's comment). */
export async function processImage(bytes: Uint8Array, rules: ImageRules): Promise<ProcessedImage> {
  const header = checkImage(bytes, rules);
  return decodeInTurn(rules.field ?? "file", () => convert(bytes, header, rules));
}

/** The codecs' modules (and their WebAssembly) are loaded with the first image, not at start. */
let codecs: Promise<typeof import("./image-codecs")> | null = null;

async function convert(
  bytes: Uint8Array,
  header: { format: RasterFormat; width: number; height: number },
  rules: ImageRules,
): Promise<ProcessedImage> {
  const { decodePixels, encodePixels } = await (codecs ??= import("./image-codecs"));
  let pixels;
  try {
    pixels = await decodePixels(header.format, bytes);
  } catch {
    throw invalid(rules.field ?? "file", `the ${LABEL[header.format]} image is damaged or incomplete`);
  }
  // The decoder's answer, not the header's, is what we trust from here (they can differ: a JPEG
  // turned by its EXIF orientation swaps width and height).
  if (pixels.width * pixels.height > (rules.maxPixels ?? DEFAULT_MAX_PIXELS) * 1.01) {
    throw new AppError("unsupported_media_type", { field: rules.field ?? "file", detail: "The image is larger than its header says." });
  }
  const small = resize(pixels, rules.resize);
  pixels = undefined; // let the full-size decode go before encoding
  const out = await encodePixels(rules.output, small, { lossless: rules.lossless, quality: rules.quality });
  return {
    bytes: out,
    format: rules.output,
    contentType: rules.output === "png" ? "image/png" : "image/webp",
    width: small.width,
    height: small.height,
    sourceFormat: header.format,
  };
}

const count = (n: number) => n.toLocaleString("en-US");

function formatBytes(n: number): string {
  if (n >= 1 << 20) return `${Math.round((n / (1 << 20)) * 10) / 10} MB`;
  return `${Math.round(n / 1024)} KB`;
}
