/**
 * Who may see and change a page. The ONE place these rules live (see access/spaces.ts); page
 * restrictions (a later issue) go here.
 *
 * For now: a page is visible to whoever may read its space, except drafts, which only their
 * creator sees. Editing needs the space to be editable and not archived, and the page not to be
 * in the trash.
 */
import { eq, or, sql, type SQL } from "drizzle-orm";
import type { Caller } from "../auth/caller";
import type { Core } from "../core";
import { AppError, notFound } from "../platform/errors";
import { PAGE_STATUS, pages, type PageRow } from "../pages/tables";
import type { SpaceRow } from "../spaces/tables";
import { canEditSpace, canReadSpace, spaceArchived } from "./spaces";

export function canReadPage(core: Core, caller: Caller, space: SpaceRow, page: PageRow): boolean {
  if (!canReadSpace(core, caller, space)) return false;
  if (page.status === PAGE_STATUS.Draft) return caller.kind === "user" && page.createdById === caller.user.id;
  return true;
}

export function canEditPage(core: Core, caller: Caller, space: SpaceRow, page: PageRow): boolean {
  return canReadPage(core, caller, space, page) && canEditSpace(core, caller, space) && !space.archivedAt && !page.deletedAt;
}

/**
 * The SQL condition for lists (tree, trash, search): pages of readable spaces that the caller
 * may see. The space itself is checked by the caller of this function.
 */
export function visiblePageFilter(caller: Caller): SQL {
  if (caller.kind !== "user") return sql`0`;
  return or(eq(pages.status, PAGE_STATUS.Published), eq(pages.createdById, caller.user.id))!;
}

export interface PageInSpace {
  page: PageRow;
  space: SpaceRow;
}

/** A page the caller may not see answers 404, exactly like a missing one. */
export function requireReadablePage(core: Core, caller: Caller, found: PageInSpace | undefined): PageInSpace {
  if (!found || !canReadPage(core, caller, found.space, found.page)) throw notFound("Page not found");
  return found;
}

/** Visible (404), space not archived (403), caller may edit (403), not in the trash (409). */
export function requireEditablePage(core: Core, caller: Caller, found: PageInSpace | undefined): PageInSpace {
  const f = requireReadablePage(core, caller, found);
  if (f.space.archivedAt) throw spaceArchived();
  if (!canEditSpace(core, caller, f.space)) throw new AppError("forbidden", {}, "You may not edit this page");
  if (f.page.deletedAt) throw inTrash();
  return f;
}

export const inTrash = () => new AppError("conflict", { detail: "Restore it from the trash first." }, "This page is in the trash");

/**
 * Comments are seen by the page's readers; anonymous readers (public spaces, a later issue) see
 * them only where the space turns publicComments on.
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
