/**
 * Creating pages: one (POST /api/pages) or many in one space and one transaction (seeding, a
 * script through the services). Both are the same function, so a page made either way passes
 * the same checks and writes the same rows: the page and its version 1, its links, and its own
 * page.created event (with what the event's recorders write beside it: audit entry, webhook
 * deliveries, notifications).
 *
 * What many pages share is worked out once per call instead of once per page: the space and
 * the caller's right to edit it; each parent named by id (resolveParent, once per parent); and
 * each parent's next position (read once, then counted on, since nothing else writes inside
 * the transaction). Seeding 10,000 pages spent about a seventh of createPage's time on those.
 */
import { requireEditableSpace } from "../access/spaces";
import { requireUser, type Caller, type UserCaller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { invalid } from "../platform/errors";
import { findSpaceByIdOrKey } from "../spaces/service";
import type { SpaceRow } from "../spaces/tables";
import { cleanTitle, contentOf, EMPTY_CONTENT, type CheckedContent } from "./input";
import { nextPosition } from "./positions";
import { resolveParent, toPage, type Page } from "./answer";
import { insertPage } from "./store";
import { PAGE_STATUS } from "./tables";

export interface CreatePageInput {
  spaceId: string;
  parentPageId?: string | null;
  title: string;
  contentJson?: string;
  /** The document as Markdown instead (exclusive with contentJson). */
  contentMarkdown?: string;
}

/** One page of createPages: its parent by id, or an earlier page of the same call by its index. */
export interface NewPageInput {
  parentPageId?: string | null;
  /** The index in the same call's list of an earlier page, to be this one's parent. */
  parentIndex?: number;
  title: string;
  contentJson?: string;
  contentMarkdown?: string;
}

/** POST /api/pages: a published page at the end of its siblings; fires page.created. */
export function createPage(core: Core, caller: Caller, input: CreatePageInput): Page {
  // Only the fields of one page: anything else a request body carries stays ignored, as before.
  const { title, contentJson, contentMarkdown, parentPageId } = input;
  return createPages(core, caller, input.spaceId, [{ title, contentJson, contentMarkdown, parentPageId }])[0];
}

/**
 * Published pages in one space, each at the end of its siblings, in the order given, all or
 * none (the first refused one refuses the call, nothing written). Each fires page.created.
 */
export function createPages(core: Core, caller: Caller, spaceId: string, inputs: readonly NewPageInput[]): Page[] {
  const user = requireUser(caller);
  // Every input is checked before anything is written, as createPage checks before its transaction.
  const checked = inputs.map((input, i) => ({
    title: cleanTitle(input.title),
    content: contentOf(input) ?? EMPTY_CONTENT,
    parent: parentOf(input, i),
  }));
  return core.tx(() => {
    const space = requireEditableSpace(core, user, findSpaceByIdOrKey(core, spaceId));
    const parents = new Map<string, string>();
    const positions = new Map<string | null, number>();
    const made: Page[] = [];
    for (const { title, content, parent } of checked) {
      let parentId: string | null = null;
      if (typeof parent === "number") {
        // A page of this call: published, live, in this space, and the caller may edit it (see below).
        parentId = made[parent].id;
      } else if (parent !== null) {
        parentId = parents.get(parent) ?? resolveParent(core, user, space.id, parent).id;
        parents.set(parent, parentId);
      }
      const position = positions.get(parentId) ?? nextPosition(core, space.id, parentId);
      positions.set(parentId, position + 1);
      made.push(writeNewPage(core, user, space, parentId, title, content, position));
    }
    return made;
  });
}

function parentOf(input: NewPageInput, i: number): string | number | null {
  if (input.parentIndex === undefined) return input.parentPageId || null;
  if (input.parentPageId) throw invalid("parentIndex", "name the parent either by parentPageId or by parentIndex, not both");
  if (!Number.isInteger(input.parentIndex) || input.parentIndex < 0 || input.parentIndex >= i)
    throw invalid("parentIndex", "must be the index of an earlier page in the same list");
  return input.parentIndex;
}

function writeNewPage(
  core: Core,
  user: UserCaller,
  space: SpaceRow,
  parentId: string | null,
  title: string,
  content: CheckedContent,
  position: number,
): Page {
  const page = insertPage(core, user, {
    spaceId: space.id,
    parentId,
    title,
    content,
    status: PAGE_STATUS.Published,
    position,
    comment: null,
  });
  recordEvent(core, {
    type: "page.created",
    targetType: "page",
    targetId: page.id,
    spaceId: space.id,
    actorId: user.user.id,
    ip: user.ip,
    data: { title, parentPageId: parentId },
    document: page.contentJson,
    page: { page, space },
  });
  // The caller may edit the space and the parent (so passes every Edit restriction above it),
  // so they may edit the new page too, which has no restrictions of its own.
  return toPage(page, true);
}
