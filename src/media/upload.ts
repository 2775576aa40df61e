/**
 * An uploaded picture: the multipart field `file`, read whole into memory (it is capped, and the
 * image codecs need all of it), then checked, shrunk and re-encoded by platform/images.ts, then
 * put in the blob store. The caller records the row that refers to the blob and releases the
 * lease (see storeImage).
 */
import type { Core } from "../core";
import { deleteUnusedBlobs } from "../attachments/blob-refs";
import { blobStore } from "../platform/blobstore";
import { AppError, invalid } from "../platform/errors";
import { type ImageRules, processImage, type ProcessedImage } from "../platform/images";
import { MultipartError, multipartBoundary, OVERHEAD_BYTES, readFilePart } from "../platform/multipart";

export const FILE_FIELD = "file";

/** An upload as it arrived, without anything of the HTTP framework. */
export interface IncomingUpload {
  contentType: string | null;
  contentLength: string | null;
  body: ReadableStream<Uint8Array> | null;
}

const MB = 1024 * 1024;
const tooLarge = (max: number) =>
  new AppError("payload_too_large", { field: FILE_FIELD, detail: `The image may be at most ${max / MB} MB.`, extra: { limit: max } });

/** Reads the `file` part (413 past `maxBytes`, while it streams) and makes the stored image of it. */
export async function readImage(upload: IncomingUpload, rules: Omit<ImageRules, "field">): Promise<ProcessedImage> {
  const boundary = multipartBoundary(upload.contentType);
  if (!boundary)
    throw new AppError("unsupported_media_type", { detail: `Send the image as multipart/form-data in the field "${FILE_FIELD}".` });
  if (Number(upload.contentLength ?? 0) > rules.maxBytes + OVERHEAD_BYTES) throw tooLarge(rules.maxBytes);
  const missing = () => invalid(FILE_FIELD, `is required: send the image as the multipart field "${FILE_FIELD}"`);
  if (!upload.body) throw missing();
  let bytes: Uint8Array;
  try {
    const part = await readFilePart(upload.body, boundary, FILE_FIELD, rules.maxBytes);
    if (!part) throw missing();
    const chunks: Uint8Array[] = [];
    for await (const chunk of part.body) chunks.push(chunk);
    // The form has no other field: one sent (before or after the file) is a 400 naming it.
    await part.fields();
    bytes = Buffer.concat(chunks);
  } catch (err) {
    if (err instanceof MultipartError)
      throw err.kind === "too_large" ? tooLarge(rules.maxBytes) : invalid("body", `is not a valid multipart form: ${err.message}`);
    throw err;
  }
  return processImage(bytes, { ...rules, field: FILE_FIELD });
}

/**
 * Puts the image in the blob store, then runs `record` (which writes the row referring to it,
 * in its own transaction). If `record` throws, a blob this call created is deleted again.
 */
export async function storeImage<T>(core: Core, image: ProcessedImage, record: (sha256: string, size: number) => T): Promise<T> {
  const lease = await blobStore(core).put(once(image.bytes));
  let recorded = false;
  try {
    const result = record(lease.sha256, lease.size);
    recorded = true;
    return result;
  } finally {
    lease.release();
    if (!recorded && lease.created) deleteUnusedBlobs(core, [lease.sha256]);
  }
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}
