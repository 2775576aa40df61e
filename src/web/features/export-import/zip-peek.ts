/**
 * What a chosen .zip says of itself, read in the browser before anything is uploaded, so the
 * import dialog can propose the space's own name and key: a Cairn pack's `space.json` (its key
 * and name), or else the one folder that wraps everything (a repository's or an export's zip),
 * which the server also takes as the space's name. Only the zip's directory at its end and, for
 * a pack, the one small file are read; anything unusual (zip64, a huge directory) answers
 * nothing, and the dialog keeps what the file's name suggests.
 */

export interface ZipPeek {
  key: string | null;
  name: string | null;
}

const NOTHING: ZipPeek = { key: null, name: null };
const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** The directory of 20,000 entries is about 2 MB; a larger one is not worth reading for a name. */
const MAX_DIRECTORY = 4 * 1024 * 1024;
const MAX_SPACE_JSON = 1024 * 1024;

interface Entry {
  name: string;
  method: number;
  size: number;
  offset: number;
}

async function bytes(file: Blob, start: number, end: number): Promise<DataView> {
  return new DataView(await file.slice(start, end).arrayBuffer());
}

async function directory(file: File): Promise<Entry[] | null> {
  const tailStart = Math.max(0, file.size - 65_557);
  const tail = await bytes(file, tailStart, file.size);
  let at = -1;
  for (let i = tail.byteLength - 22; i >= 0; i--) {
    if (tail.getUint32(i, true) === EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) return null;
  const size = tail.getUint32(at + 12, true);
  const offset = tail.getUint32(at + 16, true);
  if (offset === 0xffffffff || size > MAX_DIRECTORY || offset + size > file.size) return null;
  const dir = await bytes(file, offset, offset + size);
  const decoder = new TextDecoder();
  const entries: Entry[] = [];
  for (let p = 0; p + 46 <= dir.byteLength && dir.getUint32(p, true) === CENTRAL; ) {
    const nameLength = dir.getUint16(p + 28, true);
    const name = decoder.decode(new Uint8Array(dir.buffer, dir.byteOffset + p + 46, nameLength));
    entries.push({ name, method: dir.getUint16(p + 10, true), size: dir.getUint32(p + 20, true), offset: dir.getUint32(p + 42, true) });
    p += 46 + nameLength + dir.getUint16(p + 30, true) + dir.getUint16(p + 32, true);
  }
  return entries;
}

async function read(file: File, entry: Entry): Promise<string | null> {
  if (entry.size > MAX_SPACE_JSON || (entry.method !== 0 && entry.method !== 8)) return null;
  const head = await bytes(file, entry.offset, entry.offset + 30);
  if (head.getUint32(0, true) !== LOCAL) return null;
  const start = entry.offset + 30 + head.getUint16(26, true) + head.getUint16(28, true);
  const raw = file.slice(start, start + entry.size);
  const stream = entry.method === 8 ? raw.stream().pipeThrough(new DecompressionStream("deflate-raw")) : raw.stream();
  return new Response(stream).text();
}

const hidden = (name: string) => name.split("/").some((s) => s.startsWith(".") || s === "__MACOSX");

/** The pack's key and name, or the wrapping folder's name; nothing when the zip says neither. */
export async function peekZip(file: File): Promise<ZipPeek> {
  try {
    const entries = await directory(file);
    if (!entries?.length) return NOTHING;
    const spaceJson = entries.find((e) => e.name === "space.json");
    if (spaceJson && entries.some((e) => e.name === "manifest.json")) {
      const space = JSON.parse((await read(file, spaceJson)) ?? "{}") as { key?: unknown; name?: unknown };
      return {
        key: typeof space.key === "string" ? space.key : null,
        name: typeof space.name === "string" ? space.name.trim() || null : null,
      };
    }
    const tops = new Set(
      entries.filter((e) => !hidden(e.name)).map((e) => (e.name.includes("/") ? e.name.slice(0, e.name.indexOf("/")) : "")),
    );
    const [top] = tops;
    if (tops.size !== 1 || !top) return NOTHING;
    // Notion's folders end with the page's id; the server drops it too.
    return { key: null, name: top.replace(/\s+[0-9a-f]{32}$/i, "").trim() || null };
  } catch {
    return NOTHING;
  }
}
