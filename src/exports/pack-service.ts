/**
 * GET /api/spaces/{key}/export/pack: the whole space as a wiki pack (format 1), the lossless
 * zip an import turns back into a space (imports/pack-read.ts). What the caller may read and
 * nothing else: published pages of the tree as they see it (a View restriction they fail takes
 * its subtree out), each with every version, its labels, comments (with their anchors) and
 * attachments; the files once each by hash; the space's templates; authors by name and e-mail.
 *
 * Deterministic: the same content gives the same bytes (fixed key order, sorted lists, the
 * zip writer's fixed dates). Streamed: one page's rows are read, written and handed to the zip
 * at a time, pulled by the client, so memory stays flat however large the space.
 *
 *   pages/<00001…>.json   one per page, in tree order (depth first by position)
 *   blobs/<sha256>        the attachments' bytes, once each, in order of first use
 *   templates.json, authors.json, space.json, manifest.json (counts known once all is written)
 */
import { callerId, type Caller } from "../identity/caller";
import type { Core } from "../core";
import type { SpaceRow } from "../spaces/tables";
import { requireReadableSpace } from "../access/spaces";
import { pageTreeJson } from "../pages/tree";
import { findSpaceByKey } from "../spaces/service";
import { AppError } from "../platform/errors";
import { blobStore } from "../platform/blobstore";
import { NO_PROGRESS, startProgress, type Progress } from "../platform/progress";
import { zipStream, type ZipSink } from "../platform/zip/write";
import { PackAuthors, bodyWithAuthorRefs, withAuthorRefs } from "./pack-authors";
import { pagesForPack, templatesForPack, versionCounts, type PackPage } from "./store/pack-source";
import { reportingProgress } from "./streamed-export";

export const PACK_FORMAT = "cairn-pack";
export const PACK_VERSION = 1;
/** Kept as they are in the zip: compressing them again gains nothing. */
const COMPRESSED = new RegExp(
  String.raw`^(image\/(png|jpeg|gif|webp|avif)|video\/|audio\/|` +
    String.raw`application\/(zip|gzip|pdf|x-7z-compressed|x-rar-compressed|x-bzip2|x-xz|zstd|vnd\.openxmlformats-))`,
);
/** Hand the event loop back to other requests this often while a big space is written. */
const YIELD_EVERY_MS = 20;
/**
 * Each page leaves garbage (its rows, its JSON, deflate's buffers) that JavaScriptCore collects
 * only when it next needs room, so resident memory climbs in a sawtooth. A full collection every
 * 1,000 pages (a few ms each) kept a 10,000-page export's growth at 40-72 MB instead of 75-107
 * (a collection merely asked for, as the site export does, changed nothing here).
 */
const GC_EVERY_PAGES = 1000;

export interface PackExport {
  filename: string;
  stream: ReadableStream<Uint8Array>;
}

interface TreeInput {
  id: string;
  children: TreeInput[];
}

/** Checks the caller may have the pack and answers its stream (the work starts as it is read). */
export function exportPack(core: Core, caller: Caller, key: string, opts: { progress?: string } = {}): PackExport {
  const space = requireReadableSpace(core, caller, findSpaceByKey(core, key));
  // Versions, comments and authors' e-mails are for signed-in readers (like page history).
  if (caller.kind !== "user") throw new AppError("unauthenticated");
  if (!space.exportPack)
    throw new AppError("export_disabled", { detail: "A space administrator can switch the wiki pack export on in the space's settings." });
  const progress = startProgress(opts.progress, callerId(caller), { pages: 85, files: 14, finish: 1 });
  const stream = zipStream((zip) => writePack(core, caller, space, zip, progress));
  return { filename: `${space.key}-pack.zip`, stream: reportingProgress(stream, progress, core, "pack export") };
}

/** The pages of the tree as `caller` sees it, depth first, each with its parent. */
function treeOrder(core: Core, caller: Caller, space: SpaceRow): { id: string; parent: string | null }[] {
  const out: { id: string; parent: string | null }[] = [];
  const walk = (nodes: TreeInput[], parent: string | null) => {
    for (const n of nodes) {
      out.push({ id: n.id, parent });
      walk(n.children, n.id);
    }
  };
  walk(JSON.parse(pageTreeJson(core, caller, space.id)) as TreeInput[], null);
  return out;
}

/**
 * A pack file's JSON: the fields indented, one per line, but documents (wrapped in `Compact`)
 * on one line each: half the bytes to deflate, and a diff of two packs still reads by field.
 */
function json(value: unknown): string {
  const documents: unknown[] = [];
  const text = JSON.stringify(value, (_key, v) => (v instanceof Compact ? `${PLACEHOLDER}${documents.push(v.json) - 1}` : v), 2);
  return `${documents.length ? text.replace(PLACEHOLDERS, (_m, i: string) => documents[Number(i)] as string) : text}\n`;
}

// A placeholder no content can hold (a random part, new each start), replaced before writing.
const PLACEHOLDER = `cairn-document-${crypto.randomUUID()}-`;
const PLACEHOLDERS = new RegExp(`"${PLACEHOLDER}(\\d+)"`, "g");

/** JSON text written on one line by json(). */
class Compact {
  constructor(readonly json: string) {}

  static of(value: unknown): Compact {
    return new Compact(JSON.stringify(value));
  }

  /**
   * A stored document with its user ids as author refs. Most documents name nobody: their stored
   * text (compact JSON already) goes in as it is, without a parse and a stringify.
   */
  static document(stored: string, authors: PackAuthors): Compact {
    if (!stored.includes('"mention"') && !stored.includes('"authorId"')) return new Compact(stored);
    return Compact.of(withAuthorRefs(JSON.parse(stored), authors));
  }
}

/**
 * Writes the pack of what `caller` may read of the space into `zip` (exportPack's work; also
 * called directly by the benchmark).
 */
export async function writePack(
  core: Core,
  caller: Caller,
  space: SpaceRow,
  zip: ZipSink,
  progress: Progress = NO_PROGRESS,
): Promise<void> {
  const order = treeOrder(core, caller, space);
  const written = new Set<string>();
  const authors = new PackAuthors(core);
  const store = blobStore(core);
  const blobs = new Map<string, string>(); // sha256 → content type of its first use
  const labelNames = new Set<string>();
  const counts = { pages: 0, versions: 0, comments: 0, attachments: 0, blobs: 0, labels: 0, templates: 0, authors: 0 };
  let pausedAt = performance.now();

  progress.phase("pages", order.length);
  for (const batch of batches(core, order)) {
    const found = pagesForPack(
      core,
      batch.map((p) => p.id),
    );
    for (const { id, parent, index } of batch) {
      const rows = found.get(id);
      progress.step();
      // Purged while the export ran: left out with its subtree, as the tree leaves out a hidden page.
      if (!rows || (parent !== null && !written.has(parent))) continue;
      const file = await pageFile(rows, parent, authors, async (a) => {
        // A file missing from the store (damaged data) is left out rather than named and absent.
        if (blobs.has(a.sha256)) return true;
        if (!(await store.has(a.sha256))) return false;
        blobs.set(a.sha256, a.contentType);
        return true;
      });
      await zip.add(`pages/${String(index + 1).padStart(5, "0")}.json`, json(file));
      written.add(id);
      counts.pages++;
      counts.versions += file.versions.length;
      counts.comments += file.comments.length;
      counts.attachments += file.attachments.length;
      for (const name of file.labels) labelNames.add(name);
      if (index % GC_EVERY_PAGES === GC_EVERY_PAGES - 1) Bun.gc(true);
      if (performance.now() - pausedAt > YIELD_EVERY_MS) {
        await new Promise((r) => setTimeout(r, 0));
        pausedAt = performance.now();
      }
    }
  }

  progress.phase("files", blobs.size);
  for (const [sha256, contentType] of blobs) {
    const blob = await store.open(sha256);
    // Checked above; a blob gone since (it cannot be while referenced) would leave a dangling name.
    if (!blob) throw new Error(`blob ${sha256} vanished during the export`);
    await zip.add(`blobs/${sha256}`, blob, { store: COMPRESSED.test(contentType) });
    counts.blobs++;
    progress.step();
  }

  progress.phase("finish", 1);
  const templates = templatesForPack(core, space.id).map((t) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    content: Compact.document(t.contentJson, authors),
    createdBy: authors.of(t.createdById),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  }));
  await zip.add("templates.json", json(templates));
  await zip.add("authors.json", json(authors.list));
  await zip.add("space.json", json(spaceFile(space, written)));
  Object.assign(counts, { labels: labelNames.size, templates: templates.length, authors: authors.list.length });
  await zip.add("manifest.json", json({ format: PACK_FORMAT, version: PACK_VERSION, counts }));
  progress.step();
}

/** One page's file of the pack. */
async function pageFile(
  rows: PackPage,
  parent: string | null,
  authors: PackAuthors,
  keepFile: (a: PackPage["attachments"][number]) => Promise<boolean>,
) {
  const { page } = rows;
  const kept = [];
  for (const a of rows.attachments) if (await keepFile(a)) kept.push(a);
  return {
    id: page.id,
    parent,
    position: page.position,
    title: page.title,
    emoji: page.emoji,
    fullWidth: page.fullWidth,
    createdBy: authors.of(page.createdById),
    updatedBy: authors.of(page.updatedById),
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
    labels: rows.labels,
    versions: rows.versions.map((v) => ({
      number: v.number,
      title: v.title,
      changeComment: v.changeComment,
      author: authors.of(v.authorId),
      createdAt: v.createdAt,
      content: Compact.document(v.contentJson, authors),
    })),
    comments: rows.comments.map((c) => ({
      id: c.id,
      parent: c.parentId,
      body: bodyWithAuthorRefs(c.body, authors),
      anchor: c.anchorJson === null ? null : Compact.of(JSON.parse(c.anchorJson)),
      author: authors.of(c.authorId),
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
      resolvedAt: c.resolvedAt,
      resolvedBy: authors.of(c.resolvedById),
    })),
    attachments: kept.map((a) => ({
      id: a.id,
      filename: a.filename,
      contentType: a.contentType,
      size: a.size,
      sha256: a.sha256,
      uploadedBy: authors.of(a.uploadedById),
      createdAt: a.createdAt,
    })),
  };
}

const BATCH_PAGES = 50;
/** A batch holds at most this many versions (one page with more is a batch of its own). */
const BATCH_VERSIONS = 1000;

/** The pages in tree order, cut into batches small enough to hold in memory at once. */
function* batches<P extends { id: string }>(core: Core, order: P[]): Generator<(P & { index: number })[]> {
  for (let start = 0; start < order.length; start += BATCH_PAGES) {
    const slice = order.slice(start, start + BATCH_PAGES).map((p, i) => ({ ...p, index: start + i }));
    const sizes = versionCounts(
      core,
      slice.map((p) => p.id),
    );
    let batch: (P & { index: number })[] = [];
    let versions = 0;
    for (const p of slice) {
      const n = sizes.get(p.id) ?? 0;
      if (batch.length > 0 && versions + n > BATCH_VERSIONS) {
        yield batch;
        batch = [];
        versions = 0;
      }
      batch.push(p);
      versions += n;
    }
    if (batch.length > 0) yield batch;
  }
}

function spaceFile(space: SpaceRow, exported: ReadonlySet<string>) {
  return {
    key: space.key,
    name: space.name,
    description: space.description,
    isPublic: space.isPublic,
    publicComments: space.publicComments,
    iconKind: space.iconKind,
    iconValue: space.iconValue,
    iconColor: space.iconColor,
    treeStyle: space.treeStyle,
    exports: {
      markdown: space.exportMarkdown,
      html: space.exportHtml,
      pdf: space.exportPdf,
      site: space.exportSite,
      pack: space.exportPack,
    },
    homepage: space.homepageId && exported.has(space.homepageId) ? space.homepageId : null,
    createdAt: space.createdAt,
    updatedAt: space.updatedAt,
  };
}
