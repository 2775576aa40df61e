/**
 * The trash. DELETE puts a page and its live subtree in the trash as one batch (they share
 * trashRootId = the page's id); restore and purge handle a page and the part of its batch
 * below it, never a sub-page that was trashed on its own before.
 */
import { and, desc, eq, inArray, isNotNull } from "drizzle-orm";
import { requireChangeablePage, requireEditablePage, visiblePagesFilter } from "../access/pages";
import { requireReadableSpace } from "../access/spaces";
import { requireUser, type Caller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { AppError } from "../platform/errors";
import { findSpaceByIdOrKey } from "../spaces/service";
import { spaces, type SpaceRow } from "../spaces/tables";
import { users } from "../users/tables";
import { nextPosition, renumberSiblings } from "./positions";
import { subtreeIds, trashBatchSize } from "./queries";
import { findPage, pageFor, type Page } from "./store";
import { PAGE_STATUS, pages, type PageRow } from "./tables";

const notInTrash = () => new AppError("conflict", { detail: "Move it to the trash first." }, "This page is not in the trash");

export function chunks<T>(items: T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** DELETE /api/pages/{id}: the page and its live subtree go to the trash together. */
export function trashPage(core: Core, caller: Caller, id: string): void {
  const user = requireUser(caller);
  core.tx(() => {
    const { page, space } = requireEditablePage(core, user, findPage(core, id));
    const ids = subtreeIds(core, page.id, { kind: "live" });
    const now = iso(core.clock.now());
    for (const part of chunks(ids)) {
      core.db.update(pages).set({ deletedAt: now, deletedById: user.user.id, trashRootId: page.id }).where(inArray(pages.id, part)).run();
    }
    renumberSiblings(core, space.id, page.parentId);
    // The space's home page gone to the trash: the space's front shows its recent pages again.
    if (space.homepageId && ids.includes(space.homepageId)) core.db.update(spaces).set({ homepageId: null }).where(eq(spaces.id, space.id)).run();
    if (page.status === PAGE_STATUS.Published) {
      recordEvent(core, { type: "page.trashed", targetType: "page", targetId: page.id, spaceId: space.id, actorId: user.user.id, ip: user.ip, data: { title: page.title, pageIds: ids } });
    }
  });
}

/** GET /api/pages/trash: the roots of trashed batches the caller can see (one query), newest first; spaceId is an id or key. */
export function listTrash(core: Core, caller: Caller, spaceRef: string | undefined) {
  const spaceId = spaceRef === undefined ? undefined : requireReadableSpace(core, caller, findSpaceByIdOrKey(core, spaceRef)).id;
  if (caller.kind !== "user") return [];
  const rows = core.db
    .select({ page: pages, deletedByName: users.displayName, pageCount: trashBatchSize() })
    .from(pages)
    .leftJoin(users, eq(pages.deletedById, users.id))
    .where(and(isNotNull(pages.trashRootId), eq(pages.trashRootId, pages.id), spaceId ? eq(pages.spaceId, spaceId) : undefined, visiblePagesFilter(core, caller)))
    .orderBy(desc(pages.deletedAt), desc(pages.docId))
    .all();
  return rows.map(({ page, deletedByName, pageCount }) => ({
      id: page.id,
      spaceId: page.spaceId,
      parentPageId: page.parentId,
      title: page.title,
      emoji: page.emoji,
      status: page.status,
      deletedAt: page.deletedAt!,
      deletedById: page.deletedById,
      deletedByName: deletedByName ?? null,
      pageCount,
    }));
}

/** A trashed page as the caller may restore or purge it: visible, trashed, editable by the caller. */
/** A page in the trash the caller may change, with the part of its batch at and below it. */
export function trashedPage(core: Core, caller: Caller, id: string): { page: PageRow; space: SpaceRow; batch: string[] } {
  const { page, space } = requireChangeablePage(core, caller, findPage(core, id));
  if (!page.deletedAt || !page.trashRootId) throw notInTrash();
  return { page, space, batch: subtreeIds(core, page.id, { kind: "trashBatch", rootId: page.trashRootId }) };
}

/**
 * POST /api/pages/{id}/restore: the page and its batch below it come back; the page goes back
 * under its old parent when that is still a live, published page of the same space, else to
 * the top level, and in either case at the end of its new siblings.
 */
export function restorePage(core: Core, caller: Caller, id: string): Page {
  const user = requireUser(caller);
  return core.tx(() => {
    const { page, batch } = trashedPage(core, user, id);
    const parent = page.parentId ? findPage(core, page.parentId)?.page : undefined;
    const parentId = parent && parent.spaceId === page.spaceId && !parent.deletedAt && parent.status === PAGE_STATUS.Published ? parent.id : null;
    for (const part of chunks(batch)) {
      core.db.update(pages).set({ deletedAt: null, deletedById: null, trashRootId: null }).where(inArray(pages.id, part)).run();
    }
    core.db
      .update(pages)
      .set({ parentId, position: nextPosition(core, page.spaceId, parentId), updatedById: user.user.id, updatedAt: iso(core.clock.now()) })
      .where(eq(pages.id, page.id))
      .run();
    if (page.status === PAGE_STATUS.Published) {
      recordEvent(core, { type: "page.restored", targetType: "page", targetId: page.id, spaceId: page.spaceId, actorId: user.user.id, ip: user.ip, data: { title: page.title, parentPageId: parentId, pageIds: batch } });
    }
    return pageFor(core, user, page.id);
  });
}
