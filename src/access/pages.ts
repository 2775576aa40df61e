/**
 * Who may see and change a page. The ONE place these rules live (with access/spaces.ts).
 *
 * 1. The page's space must be readable (access/spaces.ts).
 * 2. A draft is seen by its creator only (space admins included: a draft is private).
 * 3. Restrictions are inherited down the tree, and every one above a page (and on it) must be
 *    satisfied: a View restriction hides the page and its subtree from everyone it does not
 *    name (directly or through a group); an Edit restriction lets only those it names edit.
 *    Anonymous callers are named by nothing, so they never see below a View restriction.
 * 4. Space admins are never shut out by restrictions.
 * 5. Editing also needs Edit on the space, a caller who writes (not a read-only token), the
 *    space not archived (403) and the page not in the trash (409).
 * 6. Purging others' pages needs Admin on the space or pages.delete_any (requirePurgeable).
 * Comment threads: access/comments.ts.
 *
 * Single pages cost one prepared query for the restrictions above them (a recursive walk up
 * the parents); lists use the SQL filters below, one statement for the whole list.
 */
import type { SQL } from "drizzle-orm";
import type { Caller, UserCaller } from "../identity/caller";
import type { Core } from "../core";
import { keptUntilWrite } from "../platform/db/kept-answers";
import { AppError, notFound } from "../platform/errors";
import { PAGE_STATUS, pages, type PageMeta, type PageRow } from "../pages/tables";
import type { SpaceRow } from "../spaces/tables";
import { principalParams } from "./principals";
import { anyCreatedByOthers, failedRestrictions, pageIdsWhere, restrictionsAboveOf, visiblePagesWhere } from "./store/reads";
import { notHiddenFilter } from "./hidden-cache";
import { hasRight } from "../identity/rights";
import { canAdminSpace, spaceArchived, spaceOperation } from "./spaces";
import { OPERATION } from "./tables";

export interface PageAccess {
  read: boolean;
  /** May change it, leaving aside archival and the trash (canEditPage adds those). */
  edit: boolean;
}

const NONE: PageAccess = { read: false, edit: false };

// (account, built-in groups, page) → restrictions passed, until anything changes.
const keptPassed = keptUntilWrite<{ view: boolean; edit: boolean }>("page-access", 20_000);

/** Whether the caller passes the View and the Edit restrictions at and above the page. */
export function restrictionsPassed(core: Core, caller: Caller, pageId: string): { view: boolean; edit: boolean } {
  const params = principalParams(caller);
  return keptPassed(core.stamp, `${params.uid}|${params.builtins}|${pageId}`, () => {
    let view = true;
    let edit = true;
    for (const r of restrictionsAboveOf(core, pageId, params)) {
      if (r.named) continue;
      if (r.op === OPERATION.View) view = false;
      else edit = false;
    }
    return { view, edit };
  });
}

/** Everything the caller may do with the page, worked out once. */
export function pageAccess(core: Core, caller: Caller, space: SpaceRow, page: PageMeta): PageAccess {
  const op = spaceOperation(core, caller, space);
  if (op < OPERATION.View) return NONE;
  if (page.status === PAGE_STATUS.Draft && !(caller.kind === "user" && page.createdById === caller.user.id)) return NONE;
  const writes = caller.kind === "user" && !caller.token?.readOnly;
  if (op >= OPERATION.Admin) return { read: true, edit: writes };
  const passed = restrictionsPassed(core, caller, page.id);
  if (!passed.view) return NONE;
  return { read: true, edit: writes && op >= OPERATION.Edit && passed.edit };
}

export function canReadPage(core: Core, caller: Caller, space: SpaceRow, page: PageMeta): boolean {
  return pageAccess(core, caller, space, page).read;
}

export function canEditPage(core: Core, caller: Caller, space: SpaceRow, page: PageRow): boolean {
  return editableNow(pageAccess(core, caller, space, page), space, page);
}

/** canEditPage from an access already worked out (GET page answers canEdit without asking twice). */
export function editableNow(access: PageAccess, space: SpaceRow, page: PageMeta): boolean {
  return access.edit && !space.archivedAt && !page.deletedAt;
}

export interface PageInSpace {
  page: PageRow;
  space: SpaceRow;
}

/** A page the caller may not see answers 404, exactly like a missing one. (With or without its document.) */
export function requireReadablePage<F extends { page: PageMeta; space: SpaceRow }>(core: Core, caller: Caller, found: F | undefined): F {
  if (!found || !canReadPage(core, caller, found.space, found.page)) throw notFound("Page not found");
  return found;
}

/**
 * Visible (404), signed in (401), space not archived (403), caller may edit (403); the trash
 * is checked by the caller: requireEditablePage refuses it (409), restore and purge need it.
 */
export function requireChangeablePage(core: Core, caller: Caller, found: PageInSpace | undefined): PageInSpace {
  if (!found) throw notFound("Page not found");
  const access = pageAccess(core, caller, found.space, found.page);
  if (!access.read) throw notFound("Page not found");
  if (caller.kind !== "user") throw new AppError("unauthenticated");
  if (found.space.archivedAt) throw spaceArchived();
  if (!access.edit) throw new AppError("forbidden", {}, "You may not edit this page");
  return found;
}

/** Visible (404), signed in (401), space not archived (403), caller may edit (403), not in the trash (409). */
export function requireEditablePage(core: Core, caller: Caller, found: PageInSpace | undefined): PageInSpace {
  const f = requireChangeablePage(core, caller, found);
  if (f.page.deletedAt) throw inTrash();
  return f;
}

export const inTrash = () => new AppError("conflict", { detail: "Restore it from the trash first." }, "This page is in the trash");

/** Versions, restrictions and other page history need an account on top of seeing the page (401). */
export function requireSignedInReader(core: Core, caller: Caller, found: PageInSpace | undefined): PageInSpace {
  const f = requireReadablePage(core, caller, found);
  if (caller.kind !== "user") throw new AppError("unauthenticated");
  return f;
}

/**
 * Purging cannot be undone, so Edit (which only moves pages to and from the trash) is enough
 * only for pages the caller created: every page of the batch, since purging the root takes
 * them all. Anyone else's page (or one whose creator's account is gone) needs Admin on the
 * space or the instance right pages.delete_any (docs/permissions.md, "Deleting for good"). The
 * right does not open a space: its holder still needs Edit on the page, like everyone (instance
 * roles are not space roles), which the caller checks first (requireChangeablePage).
 */
export function requirePurgeable(core: Core, caller: UserCaller, space: SpaceRow, batch: string[]): void {
  if (canAdminSpace(core, caller, space) || hasRight(caller, "pages.delete_any")) return;
  if (anyCreatedByOthers(core, batch, caller.user.id)) {
    throw new AppError(
      "forbidden",
      {
        detail:
          "Pages created by others are purged by a space administrator or someone with the right pages.delete_any; you may restore them.",
      },
      "You may not purge pages others created",
    );
  }
}

/**
 * The restricted pages of one space that the caller fails (not their subtrees): under `hidden`
 * (View) the tree drops them and everything below; under `locked` (Edit) it shows them, marked
 * read-only with everything below. Space admins fail none.
 */
export function failedRootIds(core: Core, caller: Caller, space: SpaceRow): { hidden: string[]; locked: string[] } {
  if (spaceOperation(core, caller, space) >= OPERATION.Admin) return { hidden: [], locked: [] };
  const params = principalParams(caller);
  // Sorted copies: the kept lists are shared by every request that asks.
  const failed = keptFailed(core.stamp, `${params.uid}|${params.builtins}|${space.id}`, () => {
    const found = failedRestrictions(core, space.id, params);
    return { view: found.view.sort(), edit: found.edit.sort() };
  });
  return { hidden: [...failed.view], locked: [...failed.edit] };
}

// (account, built-in groups, space) → the restricted pages it fails there, until anything changes:
// every read of a tree asks (a reader's tree was one statement more, prepared again each time).
const keptFailed = keptUntilWrite<{ view: string[]; edit: string[] }>(
  "failed-restrictions",
  20_000,
  (f) => f.view.length + f.edit.length + 1,
);

/**
 * The SQL condition for lists over `pages` (search, trash, labels…): the page is in a space
 * the caller may read, is published or the caller's own draft, and no View restriction above
 * it shuts the caller out. Published/live/trash conditions are the list's own to add.
 */
export function visiblePagesFilter(core: Core, caller: Caller): SQL {
  return visiblePagesWhere(core, caller, notHiddenFilter(core, caller, pages.id));
}

/**
 * Which of these pages (any spaces) the caller may read: one statement for the lot, for lists
 * that hold page ids (audit entries, notifications…). Answers the readable ids.
 */
export function readablePageIds(core: Core, caller: Caller, ids: string[]): Set<string> {
  if (ids.length === 0) return new Set();
  return new Set(pageIdsWhere(core, ids, visiblePagesFilter(core, caller)));
}

/**
 * Comments are seen by the page's readers; anonymous readers of a public space see them only
 * where the space turns publicComments on.
 */
export function canReadComments(core: Core, caller: Caller, space: SpaceRow, page: PageRow): boolean {
  return canReadPage(core, caller, space, page) && (caller.kind === "user" || space.publicComments);
}

/** Writing comments (post, reply, resolve) needs View on the page; anonymous callers never write. */
export function canComment(core: Core, caller: Caller, space: SpaceRow, page: PageRow): boolean {
  return caller.kind === "user" && !caller.token?.readOnly && canReadPage(core, caller, space, page);
}

/** Comments visible (404), signed in (401), space not archived (403), may comment (403), not in the trash (409). */
export function requireCommentablePage(core: Core, caller: Caller, found: PageInSpace | undefined): PageInSpace {
  if (!found || !canReadComments(core, caller, found.space, found.page)) throw notFound("Page not found");
  if (caller.kind !== "user") throw new AppError("unauthenticated");
  if (found.space.archivedAt) throw spaceArchived();
  if (!canComment(core, caller, found.space, found.page)) throw new AppError("forbidden", {}, "You may not comment on this page");
  if (found.page.deletedAt) throw inTrash();
  return found;
}
