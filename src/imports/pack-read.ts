/**
 * A Cairn wiki pack (format 1, written by exports/pack-*.ts) read into an ImportedSpace. The
 * pack keeps its rows' original ids, so they serve as the refs; content keeps its own URLs
 * (links.ts rewrites those of the old space). Every file is checked for shape here and refused
 * naming its path: a pack is trusted no more than any other upload.
 */
import type { JSONContent } from "@tiptap/core";
import type { OpenedZip } from "../platform/zip/read";
import type { ImportedAttachment, ImportedComment, ImportedPage, ImportedSpace, ImportedTemplate, ImportedVersion } from "./model";
import { importRefused } from "./refused";

export const PACK_FORMAT = "cairn-pack";
/** The newest pack format this Cairn reads. */
export const PACK_VERSION = 1;
const PAGE_FILE = /^pages\/(\d{5,})\.json$/;
const BLOB_FILE = /^blobs\/([0-9a-f]{64})$/;
/** Page files read at once; their inflating and parsing runs in one turn of the event loop. */
const READ_AHEAD = 16;
const GC_EVERY_PAGES = 1_024;

export function isPack(zip: OpenedZip): boolean {
  return zip.get("manifest.json") !== undefined;
}

type Obj = Record<string, unknown>;

/** Typed reads of one JSON file's fields, refusing with the file's path and the field. */
class Fields {
  constructor(
    readonly file: string,
    readonly o: Obj,
    readonly at = "",
  ) {}
  private bad(field: string, what: string): never {
    throw importRefused(`${this.at}${field} must be ${what}`, this.file);
  }
  str(f: string): string {
    const v = this.o[f];
    return typeof v === "string" ? v : this.bad(f, "a string");
  }
  strOr(f: string): string | null {
    const v = this.o[f];
    return v === null || v === undefined ? null : typeof v === "string" ? v : this.bad(f, "a string or null");
  }
  optStr(f: string): string | undefined {
    return this.strOr(f) ?? undefined;
  }
  int(f: string): number {
    const v = this.o[f];
    return Number.isSafeInteger(v) ? (v as number) : this.bad(f, "an integer");
  }
  bool(f: string): boolean {
    const v = this.o[f];
    return typeof v === "boolean" ? v : this.bad(f, "true or false");
  }
  doc(f: string): JSONContent {
    const v = this.o[f];
    return isObj(v) ? (v as JSONContent) : this.bad(f, "a document object");
  }
  list(f: string): Fields[] {
    const v = this.o[f] ?? [];
    if (!Array.isArray(v)) this.bad(f, "a list");
    return v.map((item, i) => (isObj(item) ? new Fields(this.file, item, `${this.at}${f}[${i}].`) : this.bad(`${f}[${i}]`, "an object")));
  }
  strings(f: string): string[] {
    const v = this.o[f] ?? [];
    if (!Array.isArray(v) || v.some((s) => typeof s !== "string")) this.bad(f, "a list of strings");
    return v as string[];
  }
}

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

async function json(zip: OpenedZip, path: string, required: boolean): Promise<unknown> {
  const entry = zip.get(path);
  if (!entry) {
    if (required) throw importRefused("is missing from the pack", path);
    return undefined;
  }
  try {
    return JSON.parse(await entry.text());
  } catch (err) {
    if (err instanceof SyntaxError) throw importRefused(`is not valid JSON (${err.message})`, path);
    throw err;
  }
}

async function object(zip: OpenedZip, path: string): Promise<Fields> {
  const v = await json(zip, path, true);
  if (!isObj(v)) throw importRefused("must hold a JSON object", path);
  return new Fields(path, v);
}

async function list(zip: OpenedZip, path: string): Promise<Fields[]> {
  const v = (await json(zip, path, false)) ?? [];
  if (!Array.isArray(v)) throw importRefused("must hold a JSON list", path);
  return v.map((item, i) => {
    if (!isObj(item)) throw importRefused(`[${i}] must be an object`, path);
    return new Fields(path, item, `[${i}].`);
  });
}

/** Refuses a manifest that is not a Cairn pack this version reads. */
async function checkManifest(zip: OpenedZip): Promise<void> {
  const manifest = await object(zip, "manifest.json");
  if (manifest.o.format !== PACK_FORMAT)
    throw importRefused(`is not a Cairn pack's manifest (format is not "${PACK_FORMAT}")`, "manifest.json");
  const version = manifest.int("version");
  if (version > PACK_VERSION) {
    throw importRefused(
      `the pack is of format version ${version}, newer than this Cairn reads (${PACK_VERSION}): upgrade Cairn, then import it again`,
      "manifest.json",
    );
  }
  if (version < 1) throw importRefused(`version ${version} is not a pack format`, "manifest.json");
}

export async function readPack(zip: OpenedZip, onPage: () => void = () => {}): Promise<ImportedSpace> {
  await checkManifest(zip);
  const space = await object(zip, "space.json");
  const exportsField = space.o.exports;
  const imported: ImportedSpace = {
    format: "cairn-pack",
    space: {
      key: space.str("key"),
      name: space.str("name"),
      description: space.optStr("description"),
      settings: {
        iconKind: space.int("iconKind"),
        iconValue: space.strOr("iconValue"),
        iconColor: space.strOr("iconColor"),
        treeStyle: space.int("treeStyle"),
        publicComments: space.bool("publicComments"),
        exports: isObj(exportsField) ? Object.fromEntries(Object.entries(exportsField).filter(([, v]) => typeof v === "boolean")) : {},
      },
    },
    authors: (await list(zip, "authors.json")).map((a) => ({ ref: a.str("ref"), name: a.str("name"), email: a.strOr("email") })),
    pages: [],
    templates: (await list(zip, "templates.json")).map(readTemplate),
    blobs: new Map(),
    homepage: space.strOr("homepage"),
    mapped: [],
    skipped: [],
  };
  const pageFiles: { n: bigint; path: string }[] = [];
  for (const entry of zip.entries) {
    const page = PAGE_FILE.exec(entry.path);
    const blob = BLOB_FILE.exec(entry.path);
    if (page) pageFiles.push({ n: BigInt(page[1]), path: entry.path });
    else if (blob) imported.blobs.set(blob[1], entry);
    else if (!["manifest.json", "space.json", "authors.json", "templates.json"].includes(entry.path))
      imported.skipped.push({ path: entry.path, reason: "not part of a Cairn pack" });
  }
  pageFiles.sort((a, b) => (a.n < b.n ? -1 : a.n > b.n ? 1 : 0));
  // Several entries are read at once: each read is two small reads of the file, and waiting
  // for them one by one costs more than parsing.
  for (let i = 0; i < pageFiles.length; i += READ_AHEAD) {
    const batch = await Promise.all(pageFiles.slice(i, i + READ_AHEAD).map(({ path }) => object(zip, path)));
    for (const page of batch) {
      imported.pages.push(readPage(zip, page));
      onPage();
    }
    // Each page file's parsed object is garbage once read (its documents are read again later):
    // collected now and then, not when JavaScriptCore next needs room (~100 MB per 3,000 pages);
    // asked for without waiting for it (a synchronous full collection held every request).
    if (i % GC_EVERY_PAGES < READ_AHEAD) Bun.gc(false);
  }
  return imported;
}

/**
 * A page without its versions: they are read from the archive again when the plan reaches the
 * page (readVersions), so only a slice's documents are held at a time, never every page's.
 * Each page file is inflated and parsed twice; held whole, the documents of a 10,000-page pack
 * grew the server by ~270 MB.
 */
function readPage(zip: OpenedZip, f: Fields): ImportedPage {
  const path = f.file;
  return {
    ref: f.str("id"),
    parent: f.strOr("parent"),
    position: f.int("position"),
    title: f.str("title"),
    emoji: f.strOr("emoji"),
    fullWidth: f.bool("fullWidth"),
    createdBy: f.strOr("createdBy"),
    updatedBy: f.strOr("updatedBy"),
    createdAt: f.optStr("createdAt"),
    updatedAt: f.optStr("updatedAt"),
    labels: f.strings("labels"),
    versions: [],
    readVersions: async () => readVersions(await object(zip, path)),
    comments: f.list("comments").map(
      (c): ImportedComment => ({
        ref: c.str("id"),
        parent: c.strOr("parent"),
        body: c.str("body"),
        anchor: c.o.anchor ?? null,
        author: c.strOr("author"),
        createdAt: c.optStr("createdAt"),
        updatedAt: c.optStr("updatedAt"),
        resolvedAt: c.strOr("resolvedAt"),
        resolvedBy: c.strOr("resolvedBy"),
      }),
    ),
    attachments: f.list("attachments").map(
      (a): ImportedAttachment => ({
        ref: a.str("id"),
        filename: a.str("filename"),
        contentType: a.str("contentType"),
        blob: a.str("sha256"),
        uploadedBy: a.strOr("uploadedBy"),
        createdAt: a.optStr("createdAt"),
      }),
    ),
    sourcePath: f.file,
  };
}

function readVersions(f: Fields): ImportedVersion[] {
  const versions = f.list("versions").map((v): ImportedVersion & { number: number } => ({
    number: v.int("number"),
    title: v.str("title"),
    changeComment: v.strOr("changeComment"),
    author: v.strOr("author"),
    createdAt: v.optStr("createdAt"),
    content: v.doc("content"),
  }));
  versions.sort((a, b) => a.number - b.number);
  return versions.map(({ number: _, ...v }) => v);
}

function readTemplate(t: Fields): ImportedTemplate {
  return {
    ref: t.str("id"),
    name: t.str("name"),
    description: t.optStr("description") ?? "",
    content: t.doc("content"),
    createdBy: t.strOr("createdBy"),
    createdAt: t.optStr("createdAt"),
    updatedAt: t.optStr("updatedAt"),
  };
}
