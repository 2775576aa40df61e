/**
 * One imported page's rows for the plan (plan.ts): its versions through the editor schema, its
 * labels, attachments and comments with references rewritten, its authors credited or kept as
 * names; and the small checks the whole plan shares (times, titles, refusals naming where).
 */
import type { JSONContent } from "@tiptap/core";
import { cleanFilename } from "../attachments/filenames";
import { checkAnchor, checkBody } from "../comments/service";
import { checkRepairing, NotRepairable } from "../content/repair";
import { checkContentJson } from "../content/validate";
import { normaliseLabelName } from "../labels/names";
import { cleanEmoji, COMMENT_MAX, TITLE_MAX } from "../pages/input";
import { PAGE_STATUS } from "../pages/tables";
import { iso } from "../platform/clock";
import { AppError, invalid } from "../platform/errors";
import { tidySingleLine } from "../platform/text";
import { newTally, rewriteCommentBody, rewriteContent, type ImportedPerson, type RefTargets } from "./links";
import type { ImportedPage, ImportedSpace } from "./model";
import type { ImportPlan } from "./plan-types";
import { importRefused } from "./refused";

/** An imported time when it is one, else `fallback`, as the ISO text every row stores. */
export function when(value: string | null | undefined, fallback: string): string {
  if (!value) return fallback;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? iso(ms) : fallback;
}

/** Titles are tidied rather than refused: other wikis allow what Cairn's titles do not. */
export function tidyTitle(title: string): string {
  return tidySingleLine(title, TITLE_MAX) || "Untitled";
}

/** A check of another domain (a 400 on one field) turned into a refusal naming where. */
export function refusedAt<T>(where: string, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof AppError && err.problemCode === "validation_failed")
      throw importRefused(err.message.replace(/^contentJson: /, ""), where);
    throw err;
  }
}

export interface PageContext {
  id: string;
  parentId: string | null;
  now: string;
  userOf: (ref: string | null) => string | null;
  targets: RefTargets;
  tally: ReturnType<typeof newTally>;
  labelNames: Set<string>;
  /** A Markdown or Confluence import: who brought it in, and the names its authors had there. */
  importedBy: { id: string; format: ImportedSpace["format"]; people: Map<string, ImportedPerson> } | null;
  /** A pack imported by someone who may not credit others: its authors become the importer, keeping their names. */
  asImporter: { id: string; people: Map<string, ImportedPerson> } | null;
}

/** The name the archive gave `ref` when the item goes to the importer instead (asImporter), else null. */
function nameKept(c: PageContext, ref: string | null): string | null {
  const name = c.asImporter && ref !== null ? c.asImporter.people.get(ref)?.name : undefined;
  if (name === undefined) return null;
  // Shown beside "(imported)": no controls, no bidirectional overrides that could move that word.
  return tidySingleLine(name.replace(/[\u200e\u200f]/g, ""), 100) || "Someone";
}

/**
 * What the page's last version says of where it came from, for a page made by a Markdown or
 * Confluence import: "Imported from README.md", "Imported from Confluence, last edited there by
 * Alice Chen" (an author with no account here). The reading view's byline reads it.
 */
function importedFrom(p: ImportedPage, v: ImportedPage["versions"][number], c: PageContext): string | null {
  if (!c.importedBy) return null;
  const source = p.sourcePath ? p.sourcePath.slice(p.sourcePath.lastIndexOf("/") + 1) : null;
  if (c.importedBy.format === "confluence") {
    const name = v.author && !c.userOf(v.author) ? c.importedBy.people.get(v.author)?.name : null;
    return `Imported from Confluence${name ? `, last edited there by ${name}` : ""}`;
  }
  return source ? `Imported from ${source}` : "Imported";
}

export function planPage(plan: ImportPlan, p: ImportedPage, where: string, c: PageContext): void {
  if (!p.versions.length) throw importRefused("the page has no version", where);
  const createdAt = when(p.createdAt, c.now);
  let current = { json: "", text: "" };
  // Who wrote a version is kept when they have an account here; else, for a Markdown or Confluence
  // import, the person who imported it is named, and the version says where it came from.
  // A pack imported by someone who may not credit others: every author it names is the importer.
  const byImporter = (ref: string | null) => c.userOf(ref) ?? c.importedBy?.id ?? (nameKept(c, ref) !== null ? c.asImporter!.id : null);
  for (const [n, v] of p.versions.entries()) {
    const at = `${where}, version ${n + 1}`;
    const rewritten = rewriteContent(v.content, c.targets, c.tally);
    current = c.importedBy ? checkKeepingText(plan, at, rewritten) : refusedAt(at, () => checkContentJson(JSON.stringify(rewritten)));
    const comment = (v.changeComment?.trim() || importedFrom(p, v, c))?.slice(0, COMMENT_MAX) || null;
    plan.versions.push({
      pageId: c.id,
      versionNumber: n + 1,
      title: tidyTitle(v.title),
      changeComment: comment,
      authorId: byImporter(v.author),
      createdAt: when(v.createdAt, createdAt),
      contentJson: current.json,
    });
    const kept = nameKept(c, v.author);
    if (kept !== null) plan.versionImportedAuthors.push({ pageId: c.id, versionNumber: n + 1, name: kept });
  }
  const title = tidyTitle(p.title);
  let emoji: string | null = null;
  try {
    emoji = cleanEmoji(p.emoji);
  } catch {
    // Not one emoji: the page simply has none.
  }
  plan.pages.push({
    id: c.id,
    spaceId: plan.spaceId,
    parentId: c.parentId,
    title,
    currentVersion: p.versions.length,
    position: Number.isSafeInteger(p.position) ? p.position : 0,
    status: PAGE_STATUS.Published,
    emoji,
    fullWidth: p.fullWidth === true,
    createdById: byImporter(p.createdBy),
    updatedById: byImporter(p.updatedBy),
    createdAt,
    updatedAt: when(p.updatedAt, createdAt),
    contentJson: current.json,
    plainText: current.text,
  });
  const names = new Set<string>();
  for (const raw of p.labels) {
    try {
      // Two spellings of one label ("Ops", "ops") are one label.
      names.add(normaliseLabelName(raw));
    } catch {
      plan.skipped.push({ path: where, reason: `the label "${raw}" is not a valid label name` });
    }
  }
  for (const name of names) {
    c.labelNames.add(name);
    plan.labels.push({ pageId: c.id, name });
  }
  for (const a of p.attachments) {
    if (!c.targets.attachments.has(a.ref)) continue;
    plan.attachments.push({
      id: c.targets.attachments.get(a.ref)!,
      pageId: c.id,
      filename: cleanFilename(a.filename),
      blob: a.blob,
      uploadedById: c.userOf(a.uploadedBy),
      createdAt: when(a.createdAt, createdAt),
    });
  }
  const own = new Map(p.comments.map((cm) => [cm.ref, cm]));
  for (const cm of p.comments) {
    const body = rewriteCommentBody(cm.body, c.targets, c.tally);
    if (!body.trim()) {
      plan.skipped.push({ path: where, reason: "an empty comment" });
      continue;
    }
    const at = `${where}, comment ${cm.ref}`;
    // One level of replies: a reply to a reply (or to a comment not here) hangs off the thread's top.
    let parent = cm.parent ? own.get(cm.parent) : undefined;
    for (let hops = 0; parent?.parent && hops < p.comments.length; hops++) parent = own.get(parent.parent);
    if (parent?.parent) parent = undefined; // a loop of replies: this one starts a thread
    const commentAt = when(cm.createdAt, createdAt);
    plan.comments.push({
      id: c.targets.comments.get(cm.ref)!,
      pageId: c.id,
      parentId: parent && parent !== cm ? c.targets.comments.get(parent.ref)! : null,
      body: refusedAt(at, () => checkBody(body)),
      anchorJson: refusedAt(at, () => checkAnchor(cm.anchor === null || cm.anchor === undefined ? null : JSON.stringify(cm.anchor))),
      authorId: c.userOf(cm.author) ?? (nameKept(c, cm.author) !== null ? c.asImporter!.id : null),
      importedAuthor: nameKept(c, cm.author),
      createdAt: commentAt,
      updatedAt: when(cm.updatedAt, commentAt),
      resolvedAt: cm.resolvedAt ? when(cm.resolvedAt, commentAt) : null,
      resolvedById: c.userOf(cm.resolvedBy),
    });
  }
}

/**
 * A Markdown or Confluence page's document checked as every version is, but a construct that
 * cannot be stored is kept as its text (named in `skipped`) instead of refusing the whole import:
 * such archives come from tools that never knew Cairn's schema. A pack, written by Cairn, is
 * refused instead: a pack that does not fit is damaged.
 */
function checkKeepingText(plan: ImportPlan, where: string, doc: JSONContent): { json: string; text: string } {
  const notes: string[] = [];
  const checked = refusedAt(where, () => {
    try {
      return checkRepairing(doc, notes, "contentJson");
    } catch (err) {
      if (err instanceof NotRepairable) throw invalid("contentJson", err.message);
      throw err;
    }
  });
  for (const note of notes) plan.skipped.push({ path: where, reason: `a construct that cannot be stored is kept as text: ${note}` });
  return checked;
}
