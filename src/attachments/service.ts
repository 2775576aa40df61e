/**
 * Attachments: files on pages. Reading follows the page's visibility (an attachment of a page
 * the caller may not see is a 404, exactly like a missing one); uploading and deleting need
 * Edit on the page. The bytes live in the blob store; rows here point at them by SHA-256.
 */
import { canReadPage, requireEditablePage, requireReadablePage } from "../access/pages";
import { requireUser, type Caller, type UserCaller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { PAGE_STATUS } from "../pages/tables";
import { findPage } from "../pages/store";
import { blobStore, type BlobLease } from "../platform/blobstore";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { AppError, invalid, notFound } from "../platform/errors";
import { MultipartError, multipartBoundary, OVERHEAD_BYTES, readFilePart } from "../platform/multipart";
import { deleteUnusedBlobs } from "./blob-refs";
import { cleanFilename } from "./filenames";
import { ContentSniffer } from "./sniff";
import { attachmentById, attachmentsOfPage, deleteAttachmentRow, insertAttachment } from "./store";
import type { AttachmentRow } from "./tables";
import { ATTACHMENT_MAX_BYTES } from "../common/limits";

/** 25 MB (docs/api.md, "Body size"); the limits live in src/common/limits.ts, shared with the web UI. */
export { ATTACHMENT_MAX_BYTES };
/** The multipart field that carries the file. */
export const FILE_FIELD = "file";

/** An attachment as the API answers it (docs/api.md, "Response shapes"). */
export function toAttachment(row: AttachmentRow) {
  return {
    id: row.id,
    pageId: row.pageId,
    filename: row.filename,
    contentType: row.contentType,
    size: row.size,
    uploadedById: row.uploadedById,
    createdAt: row.createdAt,
  };
}

export type Attachment = ReturnType<typeof toAttachment>;

/** An upload as it arrived, without anything of the HTTP framework. */
export interface IncomingUpload {
  contentType: string | null;
  contentLength: string | null;
  body: ReadableStream<Uint8Array> | null;
}

export const tooLarge = () =>
  new AppError("payload_too_large", {
    detail: `Attachments may be at most ${ATTACHMENT_MAX_BYTES / (1024 * 1024)} MB.`,
    extra: { limit: ATTACHMENT_MAX_BYTES },
  });

/**
 * POST /api/pages/{pageId}/attachments:
 * 1. the page must be visible (404), the caller signed in (401) and allowed to edit it
 *    (403; 409 in the trash), all before a byte of the body is read;
 * 2. the body must be multipart/form-data (415) and not declare more than the limit (413);
 * 3. the part `file` streams into the blob store (hashed, sniffed, counted: past 25 MB it is a
 *    413 and the partial file is removed); no such part is a 400 on `file`;
 * 4. in ONE transaction: the page is checked again (it may have been trashed meanwhile), the
 *    row is inserted and attachment.created recorded (not for a private draft);
 * 5. the blob's lease ends; if the transaction failed, a blob this upload created is deleted
 *    again unless something else refers to it.
 */
export async function uploadAttachment(core: Core, caller: Caller, pageId: string, upload: IncomingUpload): Promise<Attachment> {
  // 1.
  requireReadablePage(core, caller, findPage(core, pageId));
  const user = requireUser(caller);
  requireEditablePage(core, user, findPage(core, pageId));
  // 2.
  const boundary = multipartBoundary(upload.contentType);
  if (!boundary) {
    throw new AppError("unsupported_media_type", { detail: `Send the file as multipart/form-data in the field "${FILE_FIELD}".` });
  }
  if (Number(upload.contentLength ?? 0) > ATTACHMENT_MAX_BYTES + OVERHEAD_BYTES) throw tooLarge();
  // 3.
  const { lease, filename, contentType } = await storeFilePart(core, upload.body, boundary);
  // 4.
  let committed = false;
  try {
    const row = core.tx(() => {
      const { page, space } = requireEditablePage(core, user, findPage(core, pageId));
      const inserted = insertAttachment(core, {
        id: newId(),
        pageId: page.id,
        filename,
        contentType,
        size: lease.size,
        sha256: lease.sha256,
        uploadedById: user.user.id,
        createdAt: iso(core.clock.now()),
      });
      if (page.status === PAGE_STATUS.Published) {
        recordEvent(core, {
          type: "attachment.created",
          targetType: "attachment",
          targetId: inserted.id,
          spaceId: space.id,
          actorId: user.user.id,
          ip: user.ip,
          data: { pageId: page.id, filename, contentType, size: lease.size },
        });
      }
      return inserted;
    });
    committed = true;
    return toAttachment(row);
  } finally {
    // 5.
    lease.release();
    if (!committed && lease.created) deleteUnusedBlobs(core, [lease.sha256]);
  }
}

async function storeFilePart(
  core: Core,
  body: ReadableStream<Uint8Array> | null,
  boundary: string,
): Promise<{ lease: BlobLease; filename: string; contentType: string }> {
  const missing = () => invalid(FILE_FIELD, `is required: send the file as the multipart field "${FILE_FIELD}"`);
  if (!body) throw missing();
  try {
    // The body comes from the server (fresh chunks), and the blob store writes each piece before
    // it asks for the next: each chunk is freed once past (a 20 MB upload grows memory by 1–4 MB
    // instead of 9–22).
    const part = await readFilePart(body, boundary, FILE_FIELD, ATTACHMENT_MAX_BYTES, { freeChunks: true });
    if (!part) throw missing();
    const sniffer = new ContentSniffer();
    const lease = await blobStore(core).put(tap(part.body, (chunk) => sniffer.update(chunk)));
    try {
      // The form has no other field: one sent (before or after the file) is a 400 naming it.
      await part.fields();
    } catch (err) {
      lease.release();
      if (lease.created) deleteUnusedBlobs(core, [lease.sha256]);
      throw err;
    }
    return { lease, filename: cleanFilename(part.filename), contentType: sniffer.result() };
  } catch (err) {
    if (err instanceof MultipartError)
      throw err.kind === "too_large" ? tooLarge() : invalid("body", `is not a valid multipart form: ${err.message}`);
    throw err;
  }
}

async function* tap(source: AsyncIterable<Uint8Array>, see: (chunk: Uint8Array) => void): AsyncIterable<Uint8Array> {
  for await (const chunk of source) {
    see(chunk);
    yield chunk;
  }
}

/** GET /api/pages/{pageId}/attachments: oldest first. */
export function listAttachments(core: Core, caller: Caller, pageId: string): Attachment[] {
  const { page } = requireReadablePage(core, caller, findPage(core, pageId));
  return attachmentsOfPage(core, page.id).map(toAttachment);
}

/** An attachment the caller may not see (its page is not visible) is exactly as missing as one that does not exist. */
function readableAttachment(core: Core, caller: Caller, id: string): AttachmentRow {
  const row = attachmentById(core, id);
  const found = row && findPage(core, row.pageId);
  if (!row || !found || !canReadPage(core, caller, found.space, found.page)) throw notFound("Attachment not found");
  return row;
}

/** GET /api/attachments/{id}. */
export function getAttachment(core: Core, caller: Caller, id: string): Attachment {
  return toAttachment(readableAttachment(core, caller, id));
}

/** GET /api/attachments/{id}/download and /view: the row and its bytes. */
export async function openAttachment(
  core: Core,
  caller: Caller,
  id: string,
): Promise<{ attachment: Attachment; sha256: string; blob: Blob }> {
  const row = readableAttachment(core, caller, id);
  const blob = await blobStore(core).open(row.sha256);
  if (!blob) {
    core.log.error("attachment blob missing", { attachmentId: row.id, sha256: row.sha256 });
    throw new AppError("internal_error", { detail: "The file of this attachment is missing from the store." });
  }
  return { attachment: toAttachment(row), sha256: row.sha256, blob };
}

/**
 * DELETE /api/attachments/{id}: visible (404), Edit on the page (401/403; 409 in the trash).
 * The row goes in one transaction; the blob after COMMIT, if nothing else refers to it.
 */
export function deleteAttachment(core: Core, caller: Caller, id: string): void {
  readableAttachment(core, caller, id);
  const user: UserCaller = requireUser(caller);
  const row = core.tx(() => {
    const current = readableAttachment(core, user, id);
    const { page, space } = requireEditablePage(core, user, findPage(core, current.pageId));
    deleteAttachmentRow(core, current.id);
    if (page.status === PAGE_STATUS.Published) {
      recordEvent(core, {
        type: "attachment.deleted",
        targetType: "attachment",
        targetId: current.id,
        spaceId: space.id,
        actorId: user.user.id,
        ip: user.ip,
        data: { pageId: page.id, filename: current.filename },
      });
    }
    return current;
  });
  deleteUnusedBlobs(core, [row.sha256]);
}
