/**
 * Every row an import will write, built and checked before it is written: fresh ids,
 * references rewritten (links.ts), every version and template through the editor schema
 * (checkContentJson). Anything that cannot come in refuses the whole import here (400
 * import_refused naming the page's path), so write-space.ts only inserts. A server import
 * takes the rows in slices (PlanOptions.slices) into a space nobody sees yet, so a refusal
 * after the first slice removes what was written (imports/staged.ts).
 */
import { inArray } from "drizzle-orm";
import type { Core } from "../core";
import { cleanFilename } from "../attachments/filenames";
import { checkAnchor, checkBody } from "../comments/service";
import type { JSONContent } from "@tiptap/core";
import { checkRepairing, NotRepairable } from "../content/repair";
import { checkContentJson } from "../content/validate";
import { normaliseLabelName } from "../labels/names";
import { cleanEmoji, COMMENT_MAX, TITLE_MAX } from "../pages/input";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { AppError, invalid } from "../platform/errors";
import { tidySingleLine } from "../platform/text";
import { DESCRIPTION_MAX } from "../spaces/service";
import { users } from "../users/tables";
import { newTally, rewriteCommentBody, rewriteContent, type ImportedPerson, type RefTargets } from "./links";
import type { ImportedPage, ImportedSpace } from "./model";
import { importRefused } from "./refused";
import type { attachments } from "../attachments/tables";
import type { comments } from "../comments/tables";
import { PAGE_STATUS, type pages, type pageVersions } from "../pages/tables";
import type { templates } from "../templates/tables";

export interface ImportCounts {
  pages: number;
  versions: number;
  comments: number;
  attachments: number;
  labels: number;
  templates: number;
}

export interface ImportPlan {
  spaceId: string;
  key: string;
  name: string;
  description: string;
  settings: { iconKind: number; iconValue: string | null; iconColor: string | null; treeStyle: number; publicComments: boolean; exports: Record<string, boolean> };
  homepageId: string | null;
  pages: (typeof pages.$inferInsert)[];
  versions: (typeof pageVersions.$inferInsert)[];
  comments: (typeof comments.$inferInsert)[];
  /** sha256, size and content type come from the blob store (write-space.ts storeBlobs). */
  attachments: (Omit<typeof attachments.$inferInsert, "sha256" | "size" | "contentType"> & { blob: string })[];
  /** Folded label names per page id; label rows are found or made in the transaction. */
  labels: { pageId: string; name: string }[];
  templates: (typeof templates.$inferInsert)[];
  /** Versions credited to the importer that keep the name the archive gave their author. */
  versionImportedAuthors: { pageId: string; versionNumber: number; name: string }[];
  /** Accounts authors were matched to (only when the importer may credit others): for the audit log. */
  credited: { userId: string; name: string }[];
  counts: ImportCounts;
  mapped: ImportedSpace["mapped"];
  skipped: ImportedSpace["skipped"];
}

export interface PlanOptions {
  key: string;
  name: string;
  ownerId: string;
  /**
   * The importer may credit other accounts (the owner, or whoever manages users): authors are
   * matched to accounts by e-mail. Otherwise a pack's pages, versions and comments are the
   * importer's, keeping their authors' names as text, and nobody else is named.
   */
  creditAccounts: boolean;
  now: number;
  /** Called after each page is checked (progress). */
  onPage?: () => void;
  /**
   * Staged writing (imports/staged.ts): whenever the pages checked since the last slice reach
   * `pages` or their versions `bytes` of JSON, `write` gets the plan holding just those pages'
   * rows (pages, versions, comments, attachments, imported authors), which are then let go;
   * once more at the end for the rest (possibly none). Labels and templates stay in the plan
   * for the end. Without it every row stays in the plan.
   */
  slices?: { pages: number; bytes: number; write: (plan: ImportPlan) => Promise<void> };
}

/** The rows written slice by slice, emptied after each (labels and templates stay). */
const SLICED = ["pages", "versions", "comments", "attachments", "versionImportedAuthors"] as const;

/** An imported time when it is one, else `fallback`, as the ISO text every row stores. */
function when(value: string | null | undefined, fallback: string): string {
  if (!value) return fallback;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? iso(ms) : fallback;
}

/** Titles are tidied rather than refused: other wikis allow what Cairn's titles do not. */
function tidyTitle(title: string): string {
  return tidySingleLine(title, TITLE_MAX) || "Untitled";
}

/** A check of another domain (a 400 on one field) turned into a refusal naming where. */
function refusedAt<T>(where: string, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof AppError && err.problemCode === "validation_failed") throw importRefused(err.message.replace(/^contentJson: /, ""), where);
    throw err;
  }
}

/** Authors matched to accounts by e-mail (case-insensitive) when `credit`; the rest stay names. */
function matchAuthors(core: Core, imported: ImportedSpace, credit: boolean): Map<string, ImportedPerson> {
  if (!credit) return new Map(imported.authors.map((a) => [a.ref, { id: null, name: a.name }]));
  const emails = [...new Set(imported.authors.map((a) => a.email?.trim().toLowerCase()).filter((e): e is string => !!e))];
  const byEmail = new Map<string, string>();
  for (let i = 0; i < emails.length; i += 500) {
    for (const u of core.db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, emails.slice(i, i + 500))).all()) byEmail.set(u.email, u.id);
  }
  const people = new Map<string, ImportedPerson>();
  for (const a of imported.authors) people.set(a.ref, { id: (a.email && byEmail.get(a.email.trim().toLowerCase())) || null, name: a.name });
  return people;
}

const GC_EVERY_PAGES = 1_000;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function planImport(core: Core, imported: ImportedSpace, opts: PlanOptions): Promise<ImportPlan> {
  const now = iso(opts.now);
  const people = matchAuthors(core, imported, opts.creditAccounts);
  const userOf = (ref: string | null) => (ref ? (people.get(ref)?.id ?? null) : null);
  const pageIds = new Map<string, string>();
  const attachmentIds = new Map<string, string>();
  const commentIds = new Map<string, string>();
  // Ids first, so links and marks may point forwards.
  for (const p of imported.pages) {
    if (pageIds.has(p.ref)) throw importRefused(`a second page with the id ${p.ref}`, p.sourcePath);
    pageIds.set(p.ref, newId());
    for (const a of p.attachments) {
      if (attachmentIds.has(a.ref)) throw importRefused(`a second attachment with the id ${a.ref}`, p.sourcePath);
      attachmentIds.set(a.ref, newId());
    }
    for (const c of p.comments) {
      if (commentIds.has(c.ref)) throw importRefused(`a second comment with the id ${c.ref}`, p.sourcePath);
      commentIds.set(c.ref, newId());
    }
  }
  const targets: RefTargets = {
    key: opts.key,
    pages: pageIds,
    attachments: attachmentIds,
    comments: commentIds,
    authors: people,
    oldKey: imported.format === "cairn-pack" ? (imported.space.key ?? null) : null,
  };
  const tally = newTally();
  const plan: ImportPlan = {
    spaceId: newId(),
    key: opts.key,
    name: opts.name,
    // Several lines of prose, as the spaces service allows: tab and line feed are the only controls kept.
    description: (imported.space.description ?? "").replace(/\r\n?/g, "\n").replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "").trim().slice(0, DESCRIPTION_MAX),
    settings: settingsOf(imported.space.settings),
    homepageId: imported.homepage ? (pageIds.get(imported.homepage) ?? null) : null,
    pages: [],
    versions: [],
    comments: [],
    attachments: [],
    labels: [],
    templates: [],
    versionImportedAuthors: [],
    credited: [],
    counts: { pages: 0, versions: 0, comments: 0, attachments: 0, labels: 0, templates: 0 },
    mapped: [...imported.mapped],
    skipped: [...imported.skipped],
  };
  const placed = new Set<string>();
  const labelNames = new Set<string>();
  // Rows already handed to slices.write, counted before they are let go.
  const written = { pages: 0, versions: 0, comments: 0, attachments: 0 };
  let pendingBytes = 0;
  const flush = async () => {
    if (!opts.slices) return;
    await opts.slices.write(plan);
    written.pages += plan.pages.length;
    written.versions += plan.versions.length;
    written.comments += plan.comments.length;
    written.attachments += plan.attachments.length;
    for (const rows of SLICED) plan[rows] = [];
    pendingBytes = 0;
  };
  for (const [i, p] of imported.pages.entries()) {
    const where = p.sourcePath ?? `page ${i + 1} (${p.title})`;
    if (p.parent !== null && !placed.has(p.parent)) throw importRefused(`its parent ${p.parent} is not a page that comes before it`, where);
    placed.add(p.ref);
    const versionsBefore = plan.versions.length;
    planPage(plan, p, where, { id: pageIds.get(p.ref)!, parentId: p.parent ? pageIds.get(p.parent)! : null, now, userOf, targets, tally, labelNames, importedBy: imported.format === "cairn-pack" ? null : { id: opts.ownerId, format: imported.format, people }, asImporter: imported.format === "cairn-pack" && !opts.creditAccounts ? { id: opts.ownerId, people } : null });
    // The page's documents are rows now: let them go, so the archive's copy and the plan's are
    // never both held for every page (at 10,000 pages, ~270 MB each).
    p.versions.length = 0;
    for (let v = versionsBefore; v < plan.versions.length; v++) pendingBytes += plan.versions[v].contentJson.length;
    opts.onPage?.();
    if (opts.slices && (plan.pages.length >= opts.slices.pages || pendingBytes >= opts.slices.bytes)) await flush();
    // Checking thousands of documents takes seconds: let progress and other requests through.
    if (i % 50 === 49) await yieldToLoop();
    // Checking a document leaves its ProseMirror nodes behind, which JavaScriptCore collects
    // only when it next needs room: a collection is asked for now and then instead, so the
    // server's memory follows what the import holds. Not a synchronous one: a full collection
    // held every request for 150 to 450 ms (measured on a loaded machine).
    if (i % GC_EVERY_PAGES === GC_EVERY_PAGES - 1) Bun.gc(false);
  }
  for (const t of imported.templates) {
    const where = `template "${t.name}"`;
    const content = refusedAt(where, () => checkContentJson(JSON.stringify(rewriteContent(t.content, targets, tally))));
    const name = tidyTitle(t.name).slice(0, 100);
    const createdAt = when(t.createdAt, now);
    plan.templates.push({ id: newId(), spaceId: plan.spaceId, name, description: t.description.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "").trim().slice(0, 1000), contentJson: content.json, createdById: userOf(t.createdBy), createdAt, updatedAt: when(t.updatedAt, createdAt) });
  }
  plan.counts = { pages: written.pages + plan.pages.length, versions: written.versions + plan.versions.length, comments: written.comments + plan.comments.length, attachments: written.attachments + plan.attachments.length, labels: labelNames.size, templates: plan.templates.length };
  await flush();
  const credited = new Map<string, string>();
  for (const a of imported.authors) {
    const id = people.get(a.ref)?.id;
    if (id && !credited.has(id)) credited.set(id, a.name);
  }
  plan.credited = [...credited].map(([userId, name]) => ({ userId, name }));
  const unmatched = imported.authors.filter((a) => !people.get(a.ref)?.id).length;
  if (imported.format === "cairn-pack" && !opts.creditAccounts) {
    if (imported.authors.length) plan.mapped.push({ what: "authors named in the archive", count: imported.authors.length, reason: 'their pages, versions and comments are yours, who imported them, each showing the name the archive gave ("Name (imported)"): only the owner or someone who manages people may credit other accounts' });
  } else if (unmatched) {
    const shown = imported.format === "cairn-pack" ? "their pages and comments show no author" : "their pages name you, who imported them, and each page's history note names them";
    plan.mapped.push({ what: "authors without an account here", count: unmatched, reason: `no account has their e-mail: ${shown}, and mentions of them are plain text with their name` });
  }
  if (tally.deadLinks) plan.mapped.push({ what: "links to pages or files not in the import", count: tally.deadLinks, reason: "kept as plain text" });
  if (tally.unknownAttachments) plan.mapped.push({ what: "images and files not in the import", count: tally.unknownAttachments, reason: "images left out, file blocks kept without their file" });
  return plan;
}

interface PageContext {
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

function planPage(plan: ImportPlan, p: ImportedPage, where: string, c: PageContext): void {
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
    plan.versions.push({ pageId: c.id, versionNumber: n + 1, title: tidyTitle(v.title), changeComment: comment, authorId: byImporter(v.author), createdAt: when(v.createdAt, createdAt), contentJson: current.json });
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
    plan.attachments.push({ id: c.targets.attachments.get(a.ref)!, pageId: c.id, filename: cleanFilename(a.filename), blob: a.blob, uploadedById: c.userOf(a.uploadedBy), createdAt: when(a.createdAt, createdAt) });
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

function settingsOf(s: ImportedSpace["space"]["settings"] = {}): ImportPlan["settings"] {
  let iconValue: string | null = null;
  try {
    // An emoji icon comes along; an uploaded image (kind 2) names a file the pack does not carry.
    if (s.iconKind === 1) iconValue = cleanEmoji(s.iconValue ?? null);
  } catch {
    iconValue = null;
  }
  const exports = Object.fromEntries(Object.entries(s.exports ?? {}).filter(([k, v]) => ["markdown", "html", "pdf", "site", "pack"].includes(k) && typeof v === "boolean")) as Record<string, boolean>;
  return {
    iconKind: iconValue ? 1 : 0,
    iconValue,
    iconColor: typeof s.iconColor === "string" && /^#[0-9a-fA-F]{6}$/.test(s.iconColor) ? s.iconColor.toLowerCase() : null,
    treeStyle: s.treeStyle === 1 || s.treeStyle === 2 ? s.treeStyle : 0,
    publicComments: s.publicComments === true,
    exports,
  };
}
