import { inTrash, readablePageIds, requireReadablePage } from "../access/pages";
import { copiedDocument, copyAttachments, planAttachmentCopies } from "../attachments/copy";
import { requireEditableSpace } from "../access/spaces";
import { requireUser, type Caller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { copyLabels } from "../labels/service";
import { copyRestrictions } from "../permissions/restrictions";
import { AppError } from "../platform/errors";
import { findSpaceByIdOrKey } from "../spaces/service";
import { TITLE_MAX } from "../pages/input";
import { nextPosition } from "../pages/positions";
import { pageFor, resolveParent, type Page } from "../pages/answer";
import { findPage, insertPage, subtreeIds } from "../pages/store";
import { pagesByIds } from "../pages/store/reads";
import { PAGE_STATUS } from "../pages/tables";

export interface CopyInput {
  /** Target space (id or key); absent: the source's space. */
  spaceId?: string;
  /** null: the top level; absent: beside the source when in its space, else the top level. */
  parentPageId?: string | null;
  includeChildren?: boolean;
}

/**
 * POST /api/pages/{id}/copy. The source needs only to be readable; the target space and the
 * target parent are authorised on their own. Each copy is a new published page with a fresh
 * history (version 1), its source's labels and attachments (not its comments) and its own page.created event.
 * A copy landing beside its source is titled "Copy of …"; elsewhere it keeps the title. With
 * includeChildren the published, live subtree is copied with its order (drafts and the trash
 * stay behind, and so does whatever a View restriction hides from the caller). Each copy
 * carries the restrictions set on its source page, so copying never opens up restricted
 * content; restrictions inherited from above the copied page are the new place's.
 */
export function copyPage(core: Core, caller: Caller, id: string, input: CopyInput): Page {
  const user = requireUser(caller);
  return core.tx(() => {
    const source = requireReadablePage(core, user, findPage(core, id));
    if (source.page.deletedAt) throw inTrash();
    if (source.page.status !== PAGE_STATUS.Published)
      throw new AppError("conflict", { detail: "Publish the draft before copying it." }, "Drafts cannot be copied");
    const target = input.spaceId
      ? requireEditableSpace(core, user, findSpaceByIdOrKey(core, input.spaceId))
      : requireEditableSpace(core, user, source.space);
    // The parent is authorised even when the caller did not name it (a copy beside its source
    // lands under the source's parent, whose Edit restrictions may leave the caller out).
    const wanted = input.parentPageId === undefined ? (target.id === source.space.id ? source.page.parentId : null) : input.parentPageId;
    const parentId = wanted === null ? null : resolveParent(core, user, target.id, wanted, "parentPageId").id;

    // Read everything to copy before writing, so a copy into its own subtree cannot loop.
    let ids = input.includeChildren ? subtreeIds(core, source.page.id, { kind: "published" }) : [source.page.id];
    if (ids.length > 1) {
      const readable = readablePageIds(core, user, ids);
      ids = ids.filter((pageId) => readable.has(pageId));
    }
    const rows = pagesByIds(core, ids);
    const beside = target.id === source.space.id && parentId === source.page.parentId;
    const newIds = new Map<string, string>();
    for (const oldId of ids) {
      const row = rows.get(oldId)!;
      const isRoot = oldId === source.page.id;
      const title = isRoot && beside ? `Copy of ${row.title}`.slice(0, TITLE_MAX) : row.title;
      const files = planAttachmentCopies(core, oldId);
      const copy = insertPage(core, user, {
        spaceId: target.id,
        parentId: isRoot ? parentId : newIds.get(row.parentId!)!,
        title,
        content: { json: copiedDocument(row.contentJson, files), text: row.plainText },
        status: PAGE_STATUS.Published,
        position: isRoot ? nextPosition(core, target.id, parentId) : row.position,
        emoji: row.emoji,
        fullWidth: row.fullWidth,
        comment: `Copied from “${row.title}” (version ${row.currentVersion})`,
      });
      newIds.set(oldId, copy.id);
      copyLabels(core, user, oldId, copy.id);
      copyAttachments(core, user, files, copy.id);
      copyRestrictions(core, user, oldId, copy.id);
      recordEvent(core, {
        type: "page.created",
        targetType: "page",
        targetId: copy.id,
        spaceId: target.id,
        actorId: user.user.id,
        ip: user.ip,
        data: { title, parentPageId: copy.parentId, copiedFromId: oldId },
      });
    }
    return pageFor(core, user, newIds.get(source.page.id)!);
  });
}
