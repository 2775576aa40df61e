import { canEditPage, editableNow, pageAccess, requireEditablePage } from "../access/pages";
import { principalParams } from "../access/principals";
import { requireUser, type Caller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { keptBodiesUntilWrite, keptBody, keptUntilWrite } from "../platform/db/kept-answers";
import { invalid, notFound } from "../platform/errors";
import { versionConflict } from "./conflict";
import { cleanComment, cleanEmoji, cleanTitle, contentOf } from "./input";
import { pageFor, toPage, type Page } from "./answer";
import { findPage, findPageMeta, writeNextVersion } from "./store";
import { updatePresentation } from "./store/writes";
import { PAGE_STATUS, type PageMeta, type PageRow } from "./tables";

export { createPage, createPages, type CreatePageInput, type NewPageInput } from "./create";

/**
 * Pages already answered, as JSON text and its bytes, until the next write
 * (platform/db/kept-answers.ts), by page and canEdit: the only part of the answer that
 * depends on the caller.
 */
const keptPages = keptBodiesUntilWrite("pages", 16 * 1024 * 1024);
/**
 * Who may read which page, and edit it, until anything changes: by the caller's principals
 * (account and built-in groups), whether its token is read-only, and the page.
 */
const keptReads = keptUntilWrite<{ page: PageMeta; canEdit: boolean } | null>("page-reads", 20_000);

/**
 * GET /api/pages/{id}, as JSON text and the row it came from (for the ETag). Access is worked
 * out on the row without its document; a page in the trash is still readable (never editable).
 */
export function getPageJson(core: Core, caller: Caller, id: string): { json: string; body: Blob; page: PageMeta } {
  const p = principalParams(caller);
  const readOnly = caller.kind === "user" && caller.token?.readOnly === true;
  const read = keptReads(core.stamp, `${p.uid}|${p.builtins}|${readOnly}|${id}`, () => {
    const f = findPageMeta(core, id);
    const access = f && pageAccess(core, caller, f.space, f.page);
    return f && access?.read ? { page: f.page, canEdit: editableNow(access, f.space, f.page) } : null;
  });
  if (!read) throw notFound("Page not found");
  const kept = keptPages(core.stamp, `${id}|${read.canEdit}`, () =>
    keptBody(JSON.stringify(toPage(findPage(core, id)!.page, read.canEdit))),
  );
  return { json: kept.text, body: kept.body, page: read.page };
}

export interface UpdatePageInput {
  title?: string;
  contentJson?: string;
  /** The document as Markdown instead (exclusive with contentJson). */
  contentMarkdown?: string;
  changeComment?: string | null;
  baseVersion?: number;
}

/**
 * PUT /api/pages/{id}: version N+1. A baseVersion other than the current version is a
 * 409 version_conflict carrying the current page (conflict.ts); no contentJson renames only.
 * A title and document equal to the current version's change nothing (docs/decisions.md, "Unchanged
 * updates"): no version, no event, so autosaves and retried requests do not pile up empty versions
 * and notifications.
 */
export function updatePage(core: Core, caller: Caller, id: string, input: UpdatePageInput): Page {
  const user = requireUser(caller);
  if (input.title === undefined && input.contentJson === undefined && input.contentMarkdown === undefined) {
    throw invalid("title", "send a title, a document (contentJson or contentMarkdown) or both");
  }
  const content = contentOf(input);
  const comment = cleanComment(input.changeComment);
  return core.tx(() => {
    const { page, space } = requireEditablePage(core, user, findPage(core, id));
    // A stale base is refused before anything else, like a failed precondition.
    if (input.baseVersion !== undefined && input.baseVersion !== page.currentVersion)
      throw versionConflict(toPage(page, canEditPage(core, user, space, page)), input.baseVersion);
    const draft = page.status === PAGE_STATUS.Draft;
    const title = input.title === undefined ? page.title : cleanTitle(input.title, { allowBlank: draft });
    // Both are normalised (contentOf checks through the schema), so equal documents compare equal as text.
    const changed = content !== null && content.json !== page.contentJson ? content : null;
    // Nothing to record: a changeComment alone describes no change. The caller may edit (above).
    if (title === page.title && changed === null) return toPage(page, true);
    const updated = writeNextVersion(core, page, { title, content: changed, comment, authorId: user.user.id });
    const versionNumber = updated.currentVersion;
    // Drafts are private: nobody is told about them until they are published.
    if (!draft) {
      recordEvent(core, {
        type: "page.updated",
        targetType: "page",
        targetId: page.id,
        spaceId: space.id,
        actorId: user.user.id,
        ip: user.ip,
        data: { versionNumber, renamed: title !== page.title, contentChanged: changed !== null },
        document: updated.contentJson,
        page: { page: updated, space },
      });
    }
    // requireEditablePage passed and a new version changes no access: the caller may still edit.
    return toPage(updated, true);
  });
}

/** PUT /emoji and /layout: presentation only, so no new version. */
export function setPresentation(core: Core, caller: Caller, id: string, change: { emoji?: string | null; fullWidth?: boolean }): Page {
  const user = requireUser(caller);
  const set: Partial<PageRow> = {};
  if (change.emoji !== undefined) set.emoji = cleanEmoji(change.emoji);
  if (change.fullWidth !== undefined) set.fullWidth = change.fullWidth;
  return core.tx(() => {
    const { page, space } = requireEditablePage(core, user, findPage(core, id));
    updatePresentation(core, page.id, set, { userId: user.user.id, at: iso(core.clock.now()) });
    if (page.status === PAGE_STATUS.Published) {
      recordEvent(core, {
        type: "page.updated",
        targetType: "page",
        targetId: page.id,
        spaceId: space.id,
        actorId: user.user.id,
        ip: user.ip,
        data: { ...set },
      });
    }
    return pageFor(core, user, page.id);
  });
}
