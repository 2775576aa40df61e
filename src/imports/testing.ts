/** Test helpers for imports: uploads, packs taken apart and put back, hand-built hostile zips. */
import { deflateRawSync } from "node:zlib";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, type TestEnv, type Who } from "../../tests/harness";
import { filesUnder } from "../attachments/testing";
import { openZip } from "../platform/zip/read";
import { zipBytes } from "../platform/zip/write";

/**
 * POST /api/spaces/import with the archive; `key`/`name` as form fields before the file, or
 * after it (`after`, curl's order), or in the query (`inQuery`).
 */
export function importZip(
  env: TestEnv,
  who: Who,
  bytes: Uint8Array,
  opts: { key?: string; name?: string; progress?: string; inQuery?: boolean; after?: boolean; filename?: string } = {},
) {
  const form = new FormData();
  const query = new URLSearchParams();
  const file = () => form.append("file", new File([bytes as BlobPart], opts.filename ?? "archive.zip", { type: "application/zip" }));
  if (opts.after) file();
  for (const field of ["key", "name"] as const) {
    const value = opts[field];
    if (value === undefined) continue;
    if (opts.inQuery) query.set(field, value);
    else form.append(field, value);
  }
  if (!opts.after) file();
  if (opts.progress) query.set("progress", opts.progress);
  const q = query.size ? `?${query}` : "";
  return call(env, "POST", `/api/spaces/import${q}`, { as: who, body: form });
}

/** GET the space's wiki pack. */
export async function packOf(env: TestEnv, who: Who, key: string): Promise<Uint8Array> {
  const res = await env.handle(
    new Request(`http://cairn.test/api/spaces/${key}/export/pack`, {
      headers: who.cookie ? { cookie: `cairn_session=${who.cookie}` } : { authorization: `Bearer ${who.token}` },
    }),
  );
  if (res.status !== 200) throw new Error(`pack of ${key}: ${res.status} ${await res.text()}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** Every file of a zip, by path, in order. */
export async function unzip(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  const dir = mkdtempSync(join(tmpdir(), "cairn-unzip-"));
  try {
    const file = join(dir, "a.zip");
    await Bun.write(file, bytes);
    const zip = await openZip(file);
    const out = new Map<string, Uint8Array>();
    for (const e of zip.entries) out.set(e.path, await e.read());
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A zip of these files, in order. */
export function zipOf(files: Map<string, Uint8Array | string> | [string, Uint8Array | string][]): Promise<Uint8Array> {
  return zipBytes(async (zip) => {
    for (const [path, data] of files) await zip.add(path, data);
  });
}

/** The pack with some files changed (a function answering the new text or bytes; undefined keeps it). */
export async function editPack(
  pack: Uint8Array,
  edit: (path: string, text: () => string) => string | Uint8Array | undefined | null,
): Promise<Uint8Array> {
  const files = await unzip(pack);
  const out: [string, Uint8Array | string][] = [];
  for (const [path, bytes] of files) {
    const changed = edit(path, () => new TextDecoder().decode(bytes));
    if (changed === null) continue;
    out.push([path, changed ?? bytes]);
  }
  return zipOf(out);
}

/** How many rows of what an import writes, and the stored files: compared before and after a refusal. */
export function footprint(env: TestEnv) {
  const count = (table: string) => (env.core.sqlite.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  return {
    rows: Object.fromEntries(
      ["spaces", "space_grants", "pages", "page_versions", "comments", "attachments", "labels", "page_labels", "templates"].map((t) => [
        t,
        count(t),
      ]),
    ),
    files: filesUnder(env, "files"),
    tmp: filesUnder(env, "tmp"),
  };
}

export interface RawEntry {
  name: string;
  data?: Uint8Array;
  deflate?: boolean;
  flags?: number;
  /** Upper byte 3: made on Unix, so `external` holds the file mode. */
  madeBy?: number;
  external?: number;
  /** Declared uncompressed size (default: the truth). */
  size?: number;
}

/** A zip built byte by byte, so it can lie and carry what no honest writer would. */
export function rawZip(entries: RawEntry[]): Uint8Array {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = e.data ?? new Uint8Array(0);
    const body = e.deflate ? deflateRawSync(data) : Buffer.from(data);
    const name = Buffer.from(e.name);
    const crc = Bun.hash.crc32(data);
    const size = e.size ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.flags ?? 0x800, 6);
    local.writeUInt16LE(e.deflate ? 8 : 0, 8);
    local.writeUInt32LE(0x00210000, 10);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(e.madeBy ?? 20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(e.flags ?? 0x800, 8);
    cd.writeUInt16LE(e.deflate ? 8 : 0, 10);
    cd.writeUInt32LE(0x00210000, 12);
    cd.writeUInt32LE(crc, 16);
    cd.writeUInt32LE(body.length, 20);
    cd.writeUInt32LE(size, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE((e.external ?? 0) >>> 0, 38);
    cd.writeUInt32LE(offset, 42);
    parts.push(local, name, body);
    central.push(cd, name);
    offset += local.length + name.length + body.length;
  }
  const cdLength = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cdLength, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...parts, ...central, end]));
}

/** A paragraph document with one text. */
export const paragraphDoc = (text: string) => ({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });

export interface HandPage {
  id: string;
  parent?: string | null;
  title?: string;
  content?: unknown;
  attachments?: { id: string; filename: string; sha256: string }[];
  labels?: string[];
  /** Comments as a pack holds them (author refs of authors.json). */
  comments?: { id: string; body: string; author: string | null; createdAt?: string }[];
  /** The author ref of the page and its version (a1 unless told). */
  author?: string;
}

/** A wiki pack written by hand (format 1 as exports/pack-*.ts writes it), `edit` changing any file. */
export function handPack(
  pages: HandPage[],
  opts: {
    version?: number;
    key?: string;
    blobs?: Record<string, Uint8Array>;
    extra?: [string, string][];
    authors?: { ref: string; name: string; email: string | null }[];
  } = {},
): Promise<Uint8Array> {
  const json = (v: unknown) => JSON.stringify(v, null, 2) + "\n";
  const files: [string, Uint8Array | string][] = [
    ["manifest.json", json({ format: "cairn-pack", version: opts.version ?? 1, counts: { pages: pages.length } })],
    [
      "space.json",
      json({
        key: opts.key ?? "HAND",
        name: "Hand made",
        description: "",
        isPublic: false,
        publicComments: false,
        iconKind: 0,
        iconValue: null,
        iconColor: null,
        treeStyle: 0,
        exports: {},
        homepage: pages[0]?.id ?? null,
        createdAt: "2025-01-01T00:00:00.000Z",
        updatedAt: "2025-01-01T00:00:00.000Z",
      }),
    ],
    ["authors.json", json(opts.authors ?? [{ ref: "a1", name: "Ann Author", email: "ann@example.com" }])],
  ];
  pages.forEach((p, i) =>
    files.push([
      `pages/${String(i).padStart(5, "0")}.json`,
      json({
        id: p.id,
        parent: p.parent ?? null,
        position: i,
        title: p.title ?? `Page ${i}`,
        emoji: null,
        fullWidth: false,
        createdBy: p.author ?? "a1",
        updatedBy: p.author ?? "a1",
        createdAt: "2025-01-02T00:00:00.000Z",
        updatedAt: "2025-01-02T00:00:00.000Z",
        labels: p.labels ?? [],
        versions: [
          {
            number: 1,
            title: p.title ?? `Page ${i}`,
            changeComment: null,
            author: p.author ?? "a1",
            createdAt: "2025-01-02T00:00:00.000Z",
            content: p.content ?? paragraphDoc(`Text of page ${i}`),
          },
        ],
        comments: (p.comments ?? []).map((c) => ({
          id: c.id,
          parent: null,
          body: c.body,
          anchor: null,
          author: c.author,
          createdAt: c.createdAt ?? "2025-01-02T00:00:00.000Z",
          updatedAt: c.createdAt ?? "2025-01-02T00:00:00.000Z",
          resolvedAt: null,
          resolvedBy: null,
        })),
        attachments: (p.attachments ?? []).map((a) => ({
          ...a,
          contentType: "application/octet-stream",
          size: 0,
          uploadedBy: p.author ?? "a1",
          createdAt: "2025-01-02T00:00:00.000Z",
        })),
      }),
    ]),
  );
  for (const [sha, bytes] of Object.entries(opts.blobs ?? {})) files.push([`blobs/${sha}`, bytes]);
  files.push(["templates.json", json([])], ...(opts.extra ?? []));
  return zipOf(files);
}

export const sha256Of = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
