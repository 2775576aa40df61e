/**
 * Drafts: pages with status Draft, seen only by their creator (access/pages.ts), left out of
 * the tree and announced to nobody. They keep a version history like any page (autosave uses
 * PUT); publishing adds a version and fires page.created, once.
 */
import { requireEditablePage } from "../access/pages";
import { requireEditableSpace } from "../access/spaces";
import { requireUser, type Caller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { AppError } from "../platform/errors";
import { findSpaceByIdOrKey } from "../spaces/service";
import { cleanTitle, contentOf, EMPTY_CONTENT } from "./input";
import { nextPosition } from "./positions";
import { pageFor, resolveParent, type Page } from "./answer";
import { findPage, insertPage, writeVersion } from "./store";
import { deleteDraft, markPublished } from "./store/writes";
import { PAGE_STATUS } from "./tables";

const notADraft = () => new AppError("conflict", { detail: "This page is already published." }, "This page is not a draft");

/** POST /api/pages/draft: an untitled, empty draft where it will be published. */
export function createDraft(core: Core, caller: Caller, input: { spaceId: string; parentPageId?: string | null }): Page {
  const user = requireUser(caller);
  return core.tx(() => {
    const space = requireEditableSpace(core, user, findSpaceByIdOrKey(core, input.spaceId));
    const parentId = input.parentPageId ? resolveParent(core, user, space.id, input.parentPageId).id : null;
    const page = insertPage(core, user, {
      spaceId: space.id,
      parentId,
      title: "",
      content: EMPTY_CONTENT,
      status: PAGE_STATUS.Draft,
      position: 0,
      comment: null,
    });
    return pageFor(core, user, page.id);
  });
}

/**
 * POST /api/pages/{id}/publish: the draft becomes a published page with this title (and
 * document, when sent) at the end of its siblings. If its parent has meanwhile gone (trashed,
 * purged, moved to another space) it lands at the top level.
 */
export function publishDraft(
  core: Core,
  caller: Caller,
  id: string,
  input: { title: string; contentJson?: string; contentMarkdown?: string },
): Page {
  const user = requireUser(caller);
  const title = cleanTitle(input.title);
  const content = contentOf(input);
  return core.tx(() => {
    const { page, space } = requireEditablePage(core, user, findPage(core, id));
    if (page.status !== PAGE_STATUS.Draft) throw notADraft();
    const parent = page.parentId ? findPage(core, page.parentId)?.page : undefined;
    const parentId =
      parent && parent.spaceId === space.id && !parent.deletedAt && parent.status === PAGE_STATUS.Published ? parent.id : null;
    const versionNumber = page.currentVersion + 1;
    markPublished(core, page.id, {
      title,
      content,
      status: PAGE_STATUS.Published,
      parentId,
      position: nextPosition(core, space.id, parentId),
      currentVersion: versionNumber,
      updatedById: user.user.id,
      updatedAt: iso(core.clock.now()),
    });
    writeVersion(
      core,
      {
        pageId: page.id,
        versionNumber,
        title,
        contentJson: content?.json ?? page.contentJson,
        comment: "Published",
        authorId: user.user.id,
      },
      page.contentJson,
    );
    recordEvent(core, {
      type: "page.created",
      targetType: "page",
      targetId: page.id,
      spaceId: space.id,
      actorId: user.user.id,
      ip: user.ip,
      data: { title, parentPageId: parentId, fromDraft: true },
    });
    return pageFor(core, user, page.id);
  });
}

/** DELETE /api/pages/{id}/draft: removes a draft and its history for good. */
export function discardDraft(core: Core, caller: Caller, id: string): void {
  const user = requireUser(caller);
  core.tx(() => {
    const { page } = requireEditablePage(core, user, findPage(core, id));
    if (page.status !== PAGE_STATUS.Draft) throw notADraft();
    deleteDraft(core, page.id);
  });
}
