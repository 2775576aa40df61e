import { requireAdminSpace } from "../access/spaces";
import { deleteUnusedBlobs } from "../attachments/blob-refs";
import { attachmentTotalsOfSpace, removeAttachmentsOfSpace } from "../attachments/store";
import { requireUser, type Caller } from "../identity/caller";
import { verifyPassword } from "../identity/password";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { AppError, invalid, notFound } from "../platform/errors";
import { pageCountsOfSpace } from "../pages/store/reads";
import { deletePagesOfSpace } from "../pages/store/writes";
import { findSpaceById, findSpaceByKey } from "../spaces/service";
import { deleteSpaceRow } from "../spaces/store";

export interface DeletionPreview {
  key: string;
  name: string;
  /** Every page: published, drafts and the trash. */
  pages: number;
  drafts: number;
  trashed: number;
  versions: number;
  /** Attachments of all those pages, and their total size in bytes (shared files counted each time). */
  attachments: number;
  bytes: number;
}

/** GET /api/spaces/{key}/deletion-preview: what DELETE would remove. Space administrators only. */
export function deletionPreview(core: Core, caller: Caller, key: string): DeletionPreview {
  const space = requireAdminSpace(core, caller, findSpaceByKey(core, key));
  // Three statements: the pages (drafts, trashed), their versions, their attachments and bytes.
  const { counts, versions } = pageCountsOfSpace(core, space.id);
  const files = attachmentTotalsOfSpace(core, space.id);
  return { key: space.key, name: space.name, ...counts, versions, attachments: files.n, bytes: files.bytes };
}

export interface DeleteSpaceInput {
  confirmKey: string;
  password?: string;
  code?: string;
}

/**
 * DELETE /api/spaces/{key}. The body's password is itself the re-authentication
 * (docs/permissions.md, "Re-authentication"), so no separate window is needed; an API token can
 * never give it.
 * 1. refuse tokens (403 reauth_required) before looking at anything else;
 * 2. the space must be visible (404) and administered by the caller (403);
 * 3. confirmKey must name the space (400 on confirmKey);
 * 4. the password must be the caller's (400 on password), checked before the transaction
 *    because argon2 is slow and async;
 * 5. in ONE transaction: re-read the space (it may be gone by now), record space.deleted,
 *    delete the attachment rows (noting their blobs), the versions, the pages and the space.
 *    Tables added later hang off pages or spaces with ON DELETE CASCADE, so they go in the
 *    same transaction;
 * 6. after COMMIT, delete the blobs nothing refers to any more (files are not transactional).
 */
export async function deleteSpace(core: Core, caller: Caller, key: string, input: DeleteSpaceInput): Promise<void> {
  // 1.
  const user = requireUser(caller);
  if (!user.session) throw new AppError("reauth_required", { detail: "API tokens cannot delete a space; do it from a browser session." });
  // 2.
  const space = requireAdminSpace(core, user, findSpaceByKey(core, key));
  // 3.
  if (input.confirmKey.trim().toUpperCase() !== space.key) throw invalid("confirmKey", `must be the space key ${space.key}`);
  // 4.
  if (!input.password) {
    throw invalid("password", input.code ? "is required: two-factor codes cannot confirm this yet" : "is required to delete a space");
  }
  if (!(await verifyPassword(input.password, user.user.passwordHash))) throw invalid("password", "is not correct");
  // 5.
  const blobs = core.tx(() => {
    const current = findSpaceById(core, space.id);
    if (!current) throw notFound("Space not found");
    recordEvent(core, {
      type: "space.deleted",
      targetType: "space",
      targetId: space.id,
      spaceId: space.id,
      actorId: user.user.id,
      ip: user.ip,
      data: { key: space.key, name: space.name },
    });
    const used = removeAttachmentsOfSpace(core, space.id);
    deletePagesOfSpace(core, space.id);
    deleteSpaceRow(core, space.id);
    return used;
  });
  // 6.
  deleteUnusedBlobs(core, blobs);
}
