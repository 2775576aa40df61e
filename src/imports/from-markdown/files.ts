/**
 * What the Markdown and Confluence converters share about the files of an opened zip
 * (platform/zip/read.ts's openZip): paths resolved the way
 * a browser resolves a relative link, content types from names, and refs numbered in order.
 */
import type { OpenedZip, ZipEntry } from "../../platform/zip/read";

export type ZipFile = ZipEntry;
export type { OpenedZip };

/** Folders and files a desktop or an app leaves beside the content (macOS, Obsidian, git). */
export function isHiddenPath(path: string): boolean {
  return path.split("/").some((segment) => segment.startsWith(".") || segment === "__MACOSX" || segment === "Thumbs.db");
}

/** The folder part of a path ("" at the top). */
export function folderOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

export function extensionOf(path: string): string {
  const name = baseName(path);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot + 1).toLowerCase();
}

/** Percent-decoded, or as written when it is not valid percent-encoding. */
export function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * `target` (an address from a link or image, already split from its #fragment) resolved from
 * the folder `from`, as a zip path; null when it climbs above the top of the zip. A leading `/`
 * means the top of the zip (Obsidian and some wikis write vault-absolute links).
 */
export function resolvePath(from: string, target: string): string | null {
  const parts = target.startsWith("/") ? [] : from.split("/").filter(Boolean);
  for (const segment of target.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.join("/").normalize("NFC");
}

/** A relative address: no scheme, no `//host`, not only a #fragment. */
export function isRelativeAddress(href: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith("//") && !href.startsWith("#") && href.trim() !== "";
}

/** `path#fragment?query` → the path part and the fragment (the query is dropped). */
export function splitAddress(href: string): { path: string; fragment: string | null } {
  const hash = href.indexOf("#");
  const beforeHash = hash < 0 ? href : href.slice(0, hash);
  const query = beforeHash.indexOf("?");
  return { path: query < 0 ? beforeHash : beforeHash.slice(0, query), fragment: hash < 0 ? null : href.slice(hash + 1) };
}

const TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  bmp: "image/bmp",
  avif: "image/avif",
  pdf: "application/pdf",
  txt: "text/plain",
  csv: "text/csv",
  json: "application/json",
  xml: "application/xml",
  zip: "application/zip",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  mp4: "video/mp4",
  mp3: "audio/mpeg",
};

/**
 * A content type from the file name: a claim, like the one a client sends. The writer stores
 * what the attachment's bytes say, as an upload does (attachments/sniff.ts).
 */
export function contentTypeOf(path: string): string {
  return TYPES[extensionOf(path)] ?? "application/octet-stream";
}

const IMAGE_EXTENSIONS = new Set(["png", "jpg", "jpeg", "gif", "webp", "svg", "bmp", "avif"]);

export function isImagePath(path: string): boolean {
  return IMAGE_EXTENSIONS.has(extensionOf(path));
}

/** Names compared as people sort them: case-insensitively, "2 Setup" before "10 Deploy". */
export const naturalOrder = new Intl.Collator("en", { numeric: true, sensitivity: "base" }).compare;

/** Refs numbered in order of creation: p1, p2… for pages, a1, a2… for attachments. */
export function refCounter(prefix: string): () => string {
  let n = 0;
  return () => `${prefix}${++n}`;
}

/** A tally of what was mapped to something close, kept in the order first met. */
export class MappedTally {
  private readonly counts = new Map<string, { what: string; count: number; reason: string }>();

  add(what: string, reason: string, count = 1): void {
    const entry = this.counts.get(what);
    if (entry) entry.count += count;
    else this.counts.set(what, { what, count, reason });
  }

  list(): { what: string; count: number; reason: string }[] {
    return [...this.counts.values()];
  }
}
