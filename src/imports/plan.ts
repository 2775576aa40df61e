/**
 * Every row an import will write, built and checked before it is written: fresh ids,
 * references rewritten (links.ts), every version and template through the editor schema
 * (checkContentJson). Anything that cannot come in refuses the whole import here (400
 * import_refused naming the page's path), so write-space.ts only inserts. A server import
 * takes the rows in slices (PlanOptions.slices) into a space nobody sees yet, so a refusal
 * after the first slice removes what was written (imports/staged.ts).
 */
import { accountIdsByEmail } from "../users/store/accounts";
import type { Core } from "../core";
import { checkContentJson } from "../content/validate";
import { cleanEmoji } from "../pages/input";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { DESCRIPTION_MAX } from "../spaces/service";
import { newTally, rewriteContent, type ImportedPerson, type RefTargets } from "./links";
import type { ImportedSpace } from "./model";
import { importRefused } from "./refused";
import { planPage, refusedAt, tidyTitle, when } from "./plan-page";
import type { ImportPlan, PlanOptions } from "./plan-types";

export type { ImportCounts, ImportPlan, PlanOptions } from "./plan-types";

/** The rows written slice by slice, emptied after each (labels and templates stay). */
const SLICED = ["pages", "versions", "comments", "attachments", "versionImportedAuthors"] as const;

/** Authors matched to accounts by e-mail (case-insensitive) when `credit`; the rest stay names. */
function matchAuthors(core: Core, imported: ImportedSpace, credit: boolean): Map<string, ImportedPerson> {
  if (!credit) return new Map(imported.authors.map((a) => [a.ref, { id: null, name: a.name }]));
  const emails = [...new Set(imported.authors.map((a) => a.email?.trim().toLowerCase()).filter((e): e is string => !!e))];
  const byEmail = accountIdsByEmail(core, emails);
  const people = new Map<string, ImportedPerson>();
  for (const a of imported.authors) people.set(a.ref, { id: (a.email && byEmail.get(a.email.trim().toLowerCase())) || null, name: a.name });
  return people;
}

const GC_EVERY_PAGES = 1_000;
/** The longest the plan checks pages before it lets other requests through. */
const RUN_MS = 10;
/**
 * Pages whose versions are read from the archive at once (each read waits on the file). Their
 * inflating and parsing runs in one turn, before the plan's own: 32 at once made that turn
 * several times RUN_MS.
 */
const READ_AHEAD = 8;

/** The versions of the READ_AHEAD pages from `from`, for those that read theirs late (a pack's). */
async function readVersionsAhead(pages: ImportedSpace["pages"], from: number): Promise<void> {
  await Promise.all(
    pages.slice(from, from + READ_AHEAD).map(async (p) => {
      if (!p.readVersions) return;
      p.versions = await p.readVersions();
      p.readVersions = undefined;
    }),
  );
}
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
    description: (imported.space.description ?? "")
      .replace(/\r\n?/g, "\n")
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "")
      .trim()
      .slice(0, DESCRIPTION_MAX),
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
  let ranSince = performance.now();
  const flush = async () => {
    if (!opts.slices) return;
    await opts.slices.write(plan);
    written.pages += plan.pages.length;
    written.versions += plan.versions.length;
    written.comments += plan.comments.length;
    written.attachments += plan.attachments.length;
    for (const rows of SLICED) plan[rows] = [];
    pendingBytes = 0;
    ranSince = performance.now();
  };
  for (const [i, p] of imported.pages.entries()) {
    const where = p.sourcePath ?? `page ${i + 1} (${p.title})`;
    if (i % READ_AHEAD === 0) {
      await readVersionsAhead(imported.pages, i);
      // The reads were inflated and parsed in the turn they completed in: the plan's run takes a
      // turn of its own.
      await yieldToLoop();
      ranSince = performance.now();
    }
    if (p.parent !== null && !placed.has(p.parent)) throw importRefused(`its parent ${p.parent} is not a page that comes before it`, where);
    placed.add(p.ref);
    const versionsBefore = plan.versions.length;
    planPage(plan, p, where, {
      id: pageIds.get(p.ref)!,
      parentId: p.parent ? pageIds.get(p.parent)! : null,
      now,
      userOf,
      targets,
      tally,
      labelNames,
      importedBy: imported.format === "cairn-pack" ? null : { id: opts.ownerId, format: imported.format, people },
      asImporter: imported.format === "cairn-pack" && !opts.creditAccounts ? { id: opts.ownerId, people } : null,
    });
    // The page's documents are rows now: let them go, so the archive's copy and the plan's are
    // never both held for every page (at 10,000 pages, ~270 MB each).
    p.versions.length = 0;
    for (let v = versionsBefore; v < plan.versions.length; v++) pendingBytes += plan.versions[v].contentJson.length;
    opts.onPage?.();
    if (opts.slices && (plan.pages.length >= opts.slices.pages || pendingBytes >= opts.slices.bytes)) await flush();
    // Checking thousands of documents takes seconds: let progress and other requests through
    // every few milliseconds (a count of pages held them up to several hundred on a loaded
    // machine: a page's check takes from a fraction of a millisecond to tens).
    if (performance.now() - ranSince >= RUN_MS) {
      await yieldToLoop();
      ranSince = performance.now();
    }
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
    plan.templates.push({
      id: newId(),
      spaceId: plan.spaceId,
      name,
      description: t.description
        .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "")
        .trim()
        .slice(0, 1000),
      contentJson: content.json,
      createdById: userOf(t.createdBy),
      createdAt,
      updatedAt: when(t.updatedAt, createdAt),
    });
  }
  plan.counts = {
    pages: written.pages + plan.pages.length,
    versions: written.versions + plan.versions.length,
    comments: written.comments + plan.comments.length,
    attachments: written.attachments + plan.attachments.length,
    labels: labelNames.size,
    templates: plan.templates.length,
  };
  await flush();
  const credited = new Map<string, string>();
  for (const a of imported.authors) {
    const id = people.get(a.ref)?.id;
    if (id && !credited.has(id)) credited.set(id, a.name);
  }
  plan.credited = [...credited].map(([userId, name]) => ({ userId, name }));
  const unmatched = imported.authors.filter((a) => !people.get(a.ref)?.id).length;
  if (imported.format === "cairn-pack" && !opts.creditAccounts) {
    if (imported.authors.length)
      plan.mapped.push({
        what: "authors named in the archive",
        count: imported.authors.length,
        reason:
          "their pages, versions and comments are yours, who imported them, each showing the name the archive gave " +
          '("Name (imported)"): only the owner or someone who manages people may credit other accounts',
      });
  } else if (unmatched) {
    const shown =
      imported.format === "cairn-pack"
        ? "their pages and comments show no author"
        : "their pages name you, who imported them, and each page's history note names them";
    plan.mapped.push({
      what: "authors without an account here",
      count: unmatched,
      reason: `no account has their e-mail: ${shown}, and mentions of them are plain text with their name`,
    });
  }
  if (tally.deadLinks)
    plan.mapped.push({ what: "links to pages or files not in the import", count: tally.deadLinks, reason: "kept as plain text" });
  if (tally.unknownAttachments)
    plan.mapped.push({
      what: "images and files not in the import",
      count: tally.unknownAttachments,
      reason: "images left out, file blocks kept without their file",
    });
  return plan;
}

function settingsOf(s: ImportedSpace["space"]["settings"] = {}): ImportPlan["settings"] {
  let iconValue: string | null = null;
  try {
    // An emoji icon comes along; an uploaded image (kind 2) names a file the pack does not carry.
    if (s.iconKind === 1) iconValue = cleanEmoji(s.iconValue ?? null);
  } catch {
    iconValue = null;
  }
  const exports = Object.fromEntries(
    Object.entries(s.exports ?? {}).filter(([k, v]) => ["markdown", "html", "pdf", "site", "pack"].includes(k) && typeof v === "boolean"),
  ) as Record<string, boolean>;
  return {
    iconKind: iconValue ? 1 : 0,
    iconValue,
    iconColor: typeof s.iconColor === "string" && /^#[0-9a-fA-F]{6}$/.test(s.iconColor) ? s.iconColor.toLowerCase() : null,
    treeStyle: s.treeStyle === 1 || s.treeStyle === 2 ? s.treeStyle : 0,
    publicComments: s.publicComments === true,
    exports,
  };
}
