import { requirePurgeable } from "../access/pages";
import { deleteUnusedBlobs } from "../attachments/blob-refs";
import { removeAttachmentsOfPages } from "../attachments/store";
import { requireReauth } from "../auth/service";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { requireUser, type Caller } from "../identity/caller";
import { deletePages } from "../pages/store/writes";
import { trashedPage } from "../pages/trash";
import { PAGE_STATUS } from "../pages/tables";

/**
 * DELETE /api/pages/{id}/purge, for good:
 * 1. needs a recent re-authentication (tokens: 403 reauth_required);
 * 2. the page must be visible (404), in the trash (409), in an editable space (403), and every
 *    page of the batch the caller's own unless they are a space admin or hold pages.delete_any
 *    (403, requirePurgeable in access/pages.ts);
 * 3. in ONE transaction: record page.purged (not for a private draft), delete the attachment
 *    rows (noting their blobs), the versions, then the pages of the batch below it. Other page
 *    data hangs off pages with ON DELETE CASCADE and goes with them; sub-pages trashed
 *    separately keep their own trash entry (their parent link is set to null, so a restore
 *    puts them at the top level);
 * 4. after COMMIT, delete the blobs nothing refers to any more (files are not transactional).
 */
export function purgePage(core: Core, caller: Caller, id: string): void {
  // 1.
  const user = requireUser(caller);
  requireReauth(core, user);
  const blobs = core.tx(() => {
    // 2.
    const { page, space, batch } = trashedPage(core, user, id);
    requirePurgeable(core, user, space, batch);
    // 3.
    if (page.status === PAGE_STATUS.Published) {
      recordEvent(core, {
        type: "page.purged",
        targetType: "page",
        targetId: page.id,
        spaceId: page.spaceId,
        actorId: user.user.id,
        ip: user.ip,
        data: { title: page.title, pageIds: batch },
      });
    }
    const used = removeAttachmentsOfPages(core, batch);
    deletePages(core, batch);
    return used;
  });
  // 4.
  deleteUnusedBlobs(core, blobs);
}
