import { requireEditablePage } from "../access/pages";
import { requireEditableSpace } from "../access/spaces";
import { requireUser, type Caller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { AppError, invalid } from "../platform/errors";
import { findSpaceByIdOrKey } from "../spaces/service";
import { placeAmongSiblings, renumberSiblings } from "./positions";
import { pageFor, resolveParent, type Page } from "./answer";
import { findPage, subtreeIds } from "./store";
import { moveToSpace, setParent } from "./store/writes";
import { PAGE_STATUS } from "./tables";

export interface MoveInput {
  /** null: the top level; absent: the same parent when staying in the space, else the top level. */
  parentPageId?: string | null;
  /** Among the new siblings, 0 first; absent or past the end: last. */
  index?: number;
  /** Another space (id or key): the whole subtree goes there. */
  spaceId?: string;
}

/**
 * PUT /api/pages/{id}/move, in one transaction:
 * 1. the page must be editable (404/403/409) and published (drafts have no place yet: 409);
 * 2. the target space (when another) must be editable on its own (404/403);
 * 3. the target parent must be visible, in the target space, published and live, and neither
 *    the page itself nor one of its descendants (400 on parentPageId);
 * 4. across spaces, every descendant (drafts and trashed ones included) changes space with it;
 * 5. the page takes `index` among its new siblings and they are numbered again; the siblings
 *    it left are numbered again too;
 * 6. page.moved records where it came from and where it went.
 */
export function movePage(core: Core, caller: Caller, id: string, input: MoveInput): Page {
  const user = requireUser(caller);
  if (input.index !== undefined && (!Number.isInteger(input.index) || input.index < 0))
    throw invalid("index", "must be a whole number, 0 or more");
  return core.tx(() => {
    // 1.
    const { page, space } = requireEditablePage(core, user, findPage(core, id));
    if (page.status !== PAGE_STATUS.Published)
      throw new AppError("conflict", { detail: "Publish the draft before moving it." }, "Drafts cannot be moved");
    // 2.
    const named = input.spaceId === undefined ? space : findSpaceByIdOrKey(core, input.spaceId);
    const target = named?.id === space.id ? space : requireEditableSpace(core, user, named);
    const crossSpace = target.id !== space.id;
    // 3.
    let parentId: string | null;
    if (input.parentPageId === undefined) parentId = crossSpace ? null : page.parentId;
    else if (input.parentPageId === null) parentId = null;
    else parentId = resolveParent(core, user, target.id, input.parentPageId).id;
    const subtree = subtreeIds(core, page.id, { kind: "all" });
    if (parentId !== null && subtree.includes(parentId)) {
      throw invalid("parentPageId", parentId === page.id ? "cannot be the page itself" : "cannot be one of the page's own descendants");
    }
    // 4.
    const now = iso(core.clock.now());
    if (crossSpace) moveToSpace(core, subtree, target.id, now);
    // 5.
    setParent(core, page.id, parentId, { userId: user.user.id, at: now });
    const index = placeAmongSiblings(core, page.id, target.id, parentId, input.index);
    if (crossSpace || parentId !== page.parentId) renumberSiblings(core, space.id, page.parentId);
    // 6.
    recordEvent(core, {
      type: "page.moved",
      targetType: "page",
      targetId: page.id,
      spaceId: target.id,
      actorId: user.user.id,
      ip: user.ip,
      data: {
        from: { spaceId: space.id, parentPageId: page.parentId, position: page.position },
        to: { spaceId: target.id, parentPageId: parentId, position: index },
        pageCount: subtree.length,
      },
    });
    return pageFor(core, user, page.id);
  });
}
