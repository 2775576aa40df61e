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
import { pageForPack, templatesForPack } from "./pack-source";

export const PACK_FORMAT = "cairn-pack";
export const PACK_VERSION = 1;
/** Kept as they are in the zip: compressing them again gains nothing. */
const COMPRESSED = /^(image\/(png|jpeg|gif|webp|avif)|video\/|audio\/|application\/(zip|gzip|pdf|x-7z-compressed|x-rar-compressed|x-bzip2|x-xz|zstd|vnd\.openxmlformats-))/;
/** Hand the event loop back to other requests this often while a big space is written. */
const YIELD_EVERY_MS = 20;

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
  if (!space.exportPack) throw new AppError("export_disabled", { detail: "A space administrator can switch the wiki pack export on in the space's settings." });
  const progress = startProgress(opts.progress, callerId(caller), { pages: 85, files: 14, finish: 1 });
  const stream = zipStream((zip) => writePack(core, caller, space, zip, progress));
  return { filename: `${space.key}-pack.zip`, stream: reportingDone(stream, progress, core) };
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

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * Writes the pack of what `caller` may read of the space into `zip` (exportPack's work; also
 * called directly by the benchmark).
 */
export async function writePack(core: Core, caller: Caller, space: SpaceRow, zip: ZipSink, progress: Progress = NO_PROGRESS): Promise<void> {
  const order = treeOrder(core, caller, space);
  const exported = new Set(order.map((p) => p.id));
  const authors = new PackAuthors(core);
  const store = blobStore(core);
  const blobs = new Map<string, string>(); // sha256 → content type of its first use
  const labelNames = new Set<string>();
  const counts = { pages: 0, versions: 0, comments: 0, attachments: 0, blobs: 0, labels: 0, templates: 0, authors: 0 };
  let pausedAt = performance.now();

  progress.phase("pages", order.length);
  for (const [index, { id, parent }] of order.entries()) {
    const found = pageForPack(core, id);
    progress.step();
    if (!found) continue; // deleted while the export ran
    const { page } = found;
    const kept = [];
    for (const a of found.attachments) {
      // A file missing from the store (damaged data) is left out rather than named and absent.
      if (!blobs.has(a.sha256) && !(await store.has(a.sha256))) continue;
      if (!blobs.has(a.sha256)) blobs.set(a.sha256, a.contentType);
      kept.push(a);
    }
    const file = {
      id,
      parent,
      position: page.position,
      title: page.title,
      emoji: page.emoji,
      fullWidth: page.fullWidth,
      createdBy: authors.of(page.createdById),
      updatedBy: authors.of(page.updatedById),
      createdAt: page.createdAt,
      updatedAt: page.updatedAt,
      labels: found.labels,
      versions: found.versions.map((v) => ({
        number: v.number,
        title: v.title,
        changeComment: v.changeComment,
        author: authors.of(v.authorId),
        createdAt: v.createdAt,
        content: withAuthorRefs(JSON.parse(v.contentJson), authors),
      })),
      comments: found.comments.map((c) => ({
        id: c.id,
        parent: c.parentId,
        body: bodyWithAuthorRefs(c.body, authors),
        anchor: c.anchorJson === null ? null : JSON.parse(c.anchorJson),
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
    await zip.add(`pages/${String(index + 1).padStart(5, "0")}.json`, json(file));
    counts.pages++;
    counts.versions += file.versions.length;
    counts.comments += file.comments.length;
    counts.attachments += file.attachments.length;
    for (const name of file.labels) labelNames.add(name);
    if (performance.now() - pausedAt > YIELD_EVERY_MS) {
      await new Promise((r) => setTimeout(r, 0));
      pausedAt = performance.now();
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
    content: withAuthorRefs(JSON.parse(t.contentJson), authors),
    createdBy: authors.of(t.createdById),
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  }));
  await zip.add("templates.json", json(templates));
  await zip.add("authors.json", json(authors.list));
  await zip.add("space.json", json(spaceFile(space, exported)));
  Object.assign(counts, { labels: labelNames.size, templates: templates.length, authors: authors.list.length });
  await zip.add("manifest.json", json({ format: PACK_FORMAT, version: PACK_VERSION, counts }));
  progress.step();
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
    exports: { markdown: space.exportMarkdown, html: space.exportHtml, pdf: space.exportPdf, site: space.exportSite, pack: space.exportPack },
    homepage: space.homepageId && exported.has(space.homepageId) ? space.homepageId : null,
    createdAt: space.createdAt,
    updatedAt: space.updatedAt,
  };
}

/** The zip's stream, reporting done once the client has read it all, or the failure. */
function reportingDone(stream: ReadableStream<Uint8Array>, progress: Progress, core: Core): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            progress.done();
            controller.close();
          } else controller.enqueue(value);
        } catch (err) {
          core.log.error("pack export failed", { err: String(err) });
          progress.fail("internal_error", "The export stopped on an error.");
          controller.error(err);
        }
      },
      cancel(reason) {
        progress.fail("cancelled", "The download was cancelled.");
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
