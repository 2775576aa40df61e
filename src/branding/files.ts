/**
 * Uploading a logo, dark logo or favicon (PUT /api/admin/branding/{slot}, multipart field
 * `file`). Nothing is stored as sent:
 * - PNG and WebP are decoded and encoded again as PNG (platform/images.ts), which drops metadata
 *   and anything appended after the image data, and shrinks them to what the UI can use;
 * - SVG is parsed and written out again from an allow-list (platform/svg.ts), or refused;
 * - anything else (JPEG, GIF, HTML…) is 415, whatever its name or claimed type says; a file over
 *   FILE_MAX_BYTES is 413 while it streams.
 */
import type { Core } from "../core";
import { AppError, invalid } from "../platform/errors";
import { blobStore } from "../platform/blobstore";
import { MultipartError, multipartBoundary, OVERHEAD_BYTES, readFilePart } from "../platform/multipart";
import { processImage } from "../platform/images";
import { sniffImage } from "../platform/image-header";
import { deleteUnusedBlobs } from "../attachments/blob-refs";
import { changer, storeBrandingFile, type BrandingFile, type Slot } from "./service";
import { sanitiseSvg, SvgRefused } from "../platform/svg";
import { BRANDING_FILE_MAX_BYTES } from "../common/limits";

/** The largest file accepted for any slot (src/common/limits.ts). */
export const FILE_MAX_BYTES = BRANDING_FILE_MAX_BYTES;
export const FILE_FIELD = "file";

/** The largest image kept per slot: wide enough for a crisp logo on a 3× screen, a favicon at 256. */
const BOXES: Record<Slot, { width: number; height: number }> = {
  logo: { width: 1200, height: 400 },
  "logo-dark": { width: 1200, height: 400 },
  favicon: { width: 256, height: 256 },
};

export interface IncomingUpload {
  contentType: string | null;
  contentLength: string | null;
  body: ReadableStream<Uint8Array> | null;
}

export interface UploadedBrandingFile extends BrandingFile {
  /** What the SVG sanitiser took out ("script element", "onload attribute (an event handler)"); empty for PNG and WebP. */
  removed: string[];
}

const tooLarge = () =>
  new AppError("payload_too_large", {
    field: FILE_FIELD,
    detail: `Logos and favicons may be at most ${FILE_MAX_BYTES / 1024 / 1024} MB.`,
    extra: { limit: FILE_MAX_BYTES },
  });

/** 1. right and re-authentication; 2. read the part (capped); 3. clean it; 4. store, then record. */
export async function uploadBrandingFile(
  core: Core,
  caller: Parameters<typeof changer>[1],
  slot: Slot,
  upload: IncomingUpload,
): Promise<UploadedBrandingFile> {
  // 1.
  const user = changer(core, caller);
  // 2.
  const boundary = multipartBoundary(upload.contentType);
  if (!boundary)
    throw new AppError("unsupported_media_type", { detail: `Send the image as multipart/form-data in the field "${FILE_FIELD}".` });
  if (Number(upload.contentLength ?? 0) > FILE_MAX_BYTES + OVERHEAD_BYTES) throw tooLarge();
  const bytes = await readFile(upload.body, boundary);
  // 3.
  const clean = await cleanImage(bytes, slot);
  // 4.
  const lease = await blobStore(core).put(once(clean.bytes));
  let committed = false;
  try {
    const file = storeBrandingFile(core, user, slot, {
      sha256: lease.sha256,
      contentType: clean.contentType,
      size: lease.size,
      width: clean.width,
      height: clean.height,
    });
    committed = true;
    return { ...file, removed: clean.removed };
  } finally {
    lease.release();
    if (!committed && lease.created) deleteUnusedBlobs(core, [lease.sha256]);
  }
}

async function readFile(body: ReadableStream<Uint8Array> | null, boundary: string): Promise<Uint8Array> {
  const missing = () => invalid(FILE_FIELD, `is required: send the image as the multipart field "${FILE_FIELD}"`);
  if (!body) throw missing();
  try {
    const part = await readFilePart(body, boundary, FILE_FIELD, FILE_MAX_BYTES);
    if (!part) throw missing();
    const chunks: Uint8Array[] = [];
    for await (const chunk of part.body) chunks.push(chunk);
    // The form has no other field: one sent (before or after the file) is a 400 naming it.
    await part.fields();
    const bytes = Buffer.concat(chunks);
    if (bytes.byteLength === 0) throw invalid(FILE_FIELD, "the file is empty");
    return bytes;
  } catch (err) {
    if (err instanceof MultipartError)
      throw err.kind === "too_large" ? tooLarge() : invalid("body", `is not a valid multipart form: ${err.message}`);
    throw err;
  }
}

interface CleanImage {
  bytes: Uint8Array;
  contentType: string;
  width: number | null;
  height: number | null;
  removed: string[];
}

async function cleanImage(bytes: Uint8Array, slot: Slot): Promise<CleanImage> {
  const sniffed = sniffImage(bytes);
  if (sniffed.kind === "other" && sniffed.name === "SVG") {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw invalid(FILE_FIELD, "the SVG is not valid UTF-8 text");
    }
    try {
      const svg = sanitiseSvg(text);
      return {
        bytes: new TextEncoder().encode(svg.svg),
        contentType: "image/svg+xml",
        width: svg.width,
        height: svg.height,
        removed: svg.removed,
      };
    } catch (err) {
      if (err instanceof SvgRefused) throw invalid(FILE_FIELD, `the SVG was refused: ${err.message}`);
      throw err;
    }
  }
  const accepted = (sniffed.kind === "raster" || sniffed.kind === "broken") && (sniffed.format === "png" || sniffed.format === "webp");
  if (!accepted) {
    const what =
      sniffed.kind === "other"
        ? `a ${sniffed.name} image`
        : sniffed.kind === "unknown"
          ? "not an image Cairn can read"
          : `a ${sniffed.format.toUpperCase()} image`;
    throw new AppError("unsupported_media_type", {
      field: FILE_FIELD,
      detail: `Logos and favicons must be PNG, WebP or SVG; this file is ${what}.`,
    });
  }
  // PNG out: lossless for flat colours and text, small for them, taken by every browser as a
  // favicon, and ~8 times faster to encode here than lossless WebP (0.2 s against 1.6 s for a
  // 1200 × 300 logo).
  const out = await processImage(bytes, {
    accept: ["png", "webp"],
    maxBytes: FILE_MAX_BYTES,
    resize: { fit: "inside", ...BOXES[slot] },
    output: "png",
    field: FILE_FIELD,
  });
  return { bytes: out.bytes, contentType: out.contentType, width: out.width, height: out.height, removed: [] };
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}
