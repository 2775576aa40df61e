import type { UserCaller } from "../identity/caller";
import type { Core } from "../core";
import { renameAttachmentsInJson } from "../content/attachment-ids";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { attachmentsOfPage, copyTo } from "./store";
import type { AttachmentRow } from "./tables";

/**
 * A page copy's attachments, in its transaction: the copy gets its own attachment rows sharing
 * the source's blobs (no bytes are copied), and its document points at them, so images and
 * attachment blocks keep working for readers of the copy even if the source goes away. The
 * new ids are chosen before the copy is written, so its page row and its version 1 are written
 * once, already pointing at them (content/attachment-ids.ts walks the document).
 */
export interface AttachmentCopies {
  rows: AttachmentRow[];
  /** Source attachment id to the copy's. */
  idMap: Map<string, string>;
}

/** New ids for the attachments of `fromPageId`. */
export function planAttachmentCopies(core: Core, fromPageId: string): AttachmentCopies {
  const rows = attachmentsOfPage(core, fromPageId);
  return { rows, idMap: new Map(rows.map((r) => [r.id, newId()])) };
}

/** The source's document pointing at the copy's attachments. */
export function copiedDocument(json: string, copies: AttachmentCopies): string {
  return renameAttachmentsInJson(json, copies.idMap);
}

/** The copy's attachment rows, once its page row exists. */
export function copyAttachments(core: Core, caller: UserCaller, copies: AttachmentCopies, toPageId: string): void {
  if (copies.rows.length === 0) return;
  copyTo(core, { id: toPageId }, copies.rows, copies.idMap, { userId: caller.user.id, at: iso(core.clock.now()) });
}
