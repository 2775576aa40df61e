/**
 * Labels: folded names (names.ts) shared by the whole wiki, put on pages by those who may edit them.
 * Lists (GET /api/labels, a label's pages) only count and show pages the caller can see:
 * published, not in the trash, visible (access/pages.ts) in a readable space (access/spaces.ts).
 */
import { requireEditablePage, requireReadablePage, visiblePagesFilter } from "../access/pages";
import { canReadSpace } from "../access/spaces";
import { requireUser, type Caller, type UserCaller } from "../identity/caller";
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { notFound } from "../platform/errors";
import { findPage } from "../pages/store";
import { PAGE_STATUS, type PageRow } from "../pages/tables";
import { findSpaceById } from "../spaces/service";
import type { SpaceRow } from "../spaces/tables";
import { normaliseLabelName } from "./names";
import { addPageLabel, copyPageLabels, labelCountsBySpace, labelsOfPage, pagesWithLabel, removePageLabel } from "./store";

export interface Label {
  id: string;
  name: string;
}

export interface LabelWithCount extends Label {
  pageCount: number;
}

/** A page carrying a label, as GET /api/labels/{name}/pages lists it. */
export interface LabelledPage {
  id: string;
  spaceId: string;
  spaceKey: string;
  title: string;
  emoji: string | null;
  updatedAt: string;
}

/** The spaces among `ids` that the caller may read (each looked up once). */
function readableSpaces(core: Core, caller: Caller, ids: Iterable<string>): Map<string, SpaceRow> {
  const out = new Map<string, SpaceRow>();
  for (const id of new Set(ids)) {
    const space = findSpaceById(core, id);
    if (space && canReadSpace(core, caller, space)) out.set(id, space);
  }
  return out;
}

/** GET /api/labels: every label on at least one page the caller can see, by name, with how many. */
export function listLabels(core: Core, caller: Caller): LabelWithCount[] {
  const rows = labelCountsBySpace(core, visiblePagesFilter(core, caller));
  const readable = readableSpaces(
    core,
    caller,
    rows.map((r) => r.spaceId),
  );
  const byId = new Map<string, LabelWithCount>();
  for (const r of rows) {
    if (!readable.has(r.spaceId)) continue;
    const entry = byId.get(r.id) ?? { id: r.id, name: r.name, pageCount: 0 };
    entry.pageCount += r.n;
    byId.set(r.id, entry);
  }
  // A Map keeps the order in which names were first met: the query's.
  return [...byId.values()];
}

/** GET /api/labels/{name}/pages: the visible pages carrying it, by title. Unknown label: []. */
export function labelPages(core: Core, caller: Caller, rawName: string): LabelledPage[] {
  const name = normaliseLabelName(rawName);
  const rows = pagesWithLabel(core, name, visiblePagesFilter(core, caller));
  const readable = readableSpaces(
    core,
    caller,
    rows.map((r) => r.spaceId),
  );
  return rows.filter((r) => readable.has(r.spaceId)).map((r) => ({ ...r, spaceKey: readable.get(r.spaceId)!.key }));
}

/** GET /api/pages/{id}/labels: the page's labels by name (needs only to see the page). */
export function pageLabelList(core: Core, caller: Caller, pageId: string): Label[] {
  const { page } = requireReadablePage(core, caller, findPage(core, pageId));
  return labelsOfPage(core, page.id);
}

function labelEvent(core: Core, caller: UserCaller, type: "label.added" | "label.removed", page: PageRow, label: Label): void {
  // Drafts are private: nobody is told about them until they are published.
  if (page.status !== PAGE_STATUS.Published) return;
  recordEvent(core, {
    type,
    targetType: "page",
    targetId: page.id,
    spaceId: page.spaceId,
    actorId: caller.user.id,
    ip: caller.ip,
    data: { labelId: label.id, name: label.name, title: page.title },
  });
}

/**
 * POST /api/pages/{id}/labels: needs Edit on the page. Answers the label and whether it was
 * added now; adding one the page already has changes nothing and records nothing.
 */
export function addLabel(core: Core, caller: Caller, pageId: string, rawName: string): { label: Label; added: boolean } {
  const user = requireUser(caller);
  const name = normaliseLabelName(rawName);
  return core.tx(() => {
    const { page } = requireEditablePage(core, user, findPage(core, pageId));
    const now = iso(core.clock.now());
    const { label, added } = addPageLabel(core, page.id, name, { userId: user.user.id, at: now });
    if (added) labelEvent(core, user, "label.added", page, label);
    return { label, added };
  });
}

/** DELETE /api/pages/{id}/labels/{name}: needs Edit on the page; 404 when the page lacks it. */
export function removeLabel(core: Core, caller: Caller, pageId: string, rawName: string): void {
  const user = requireUser(caller);
  const name = normaliseLabelName(rawName);
  core.tx(() => {
    const { page } = requireEditablePage(core, user, findPage(core, pageId));
    const label = removePageLabel(core, page.id, name);
    if (!label) throw notFound(`This page has no label "${name}"`);
    labelEvent(core, user, "label.removed", page, label);
  });
}

/** A copied page carries its source's labels (inside the copy's transaction; no label events). */
export function copyLabels(core: Core, caller: UserCaller, fromPageId: string, toPageId: string): void {
  const now = iso(core.clock.now());
  copyPageLabels(core, fromPageId, toPageId, caller.user.id, now);
}
