/**
 * ImportedSpace: the one funnel every import goes through. A Cairn pack, a Markdown zip and a
 * Confluence export are each converted into this shape (pack-read.ts, from-markdown/,
 * from-confluence/); write-space.ts alone turns it into rows.
 *
 * Everything is named by refs local to the import. Inside content the same refs are used:
 * a link to another imported page has the href `cairn-page:<ref>`, an attachment node
 * `attachmentId: <ref>`, an image `src: "cairn-attachment:<ref>"`, a comment mark
 * `commentId: <ref>`, a user (mention `id`, tracked change `authorId`) `author:<ref>`. The writer
 * rewrites them all to the new rows' ids.
 */
import type { JSONContent } from "@tiptap/core";

/**
 * Where a blob's bytes are read from. A zip entry (platform/zip/read.ts ZipEntry) is one; kept
 * structural so converters may hand anything that can be read once.
 */
export interface BlobSource {
  size: number;
  read(): Promise<Uint8Array>;
  /** The bytes in slices (a zip entry has it): streamed into the blob store when present. */
  chunks?(): AsyncIterable<Uint8Array>;
}

export type ImportFormat = "cairn-pack" | "markdown" | "confluence";

export interface ImportedSpaceSettings {
  iconKind: number;
  iconValue: string | null;
  iconColor: string | null;
  treeStyle: number;
  exports: Partial<{ markdown: boolean; html: boolean; pdf: boolean; site: boolean; pack: boolean }>;
  publicComments: boolean;
}

export interface ImportedAuthor {
  ref: string;
  name: string;
  email: string | null;
}

export interface ImportedTemplate {
  ref: string;
  name: string;
  description: string;
  content: JSONContent;
  createdBy: string | null;
  createdAt?: string;
  updatedAt?: string;
}

export interface ImportedVersion {
  title: string;
  changeComment: string | null;
  author: string | null;
  createdAt?: string;
  content: JSONContent;
}

export interface ImportedComment {
  ref: string;
  parent: string | null;
  body: string;
  anchor: unknown;
  author: string | null;
  createdAt?: string;
  updatedAt?: string;
  resolvedAt: string | null;
  resolvedBy: string | null;
}

export interface ImportedAttachment {
  ref: string;
  filename: string;
  contentType: string;
  /** A key of ImportedSpace.blobs. */
  blob: string;
  uploadedBy: string | null;
  createdAt?: string;
}

export interface ImportedPage {
  ref: string;
  parent: string | null;
  position: number;
  title: string;
  emoji: string | null;
  fullWidth: boolean;
  createdBy: string | null;
  updatedBy: string | null;
  createdAt?: string;
  updatedAt?: string;
  labels: string[];
  /** At least one; the last is the page's current content (empty until readVersions when that is given). */
  versions: ImportedVersion[];
  /**
   * The versions read from the archive only when the plan reaches the page (a pack's pages):
   * held for every page at once, their documents were most of an import's memory.
   */
  readVersions?: () => Promise<ImportedVersion[]>;
  comments: ImportedComment[];
  attachments: ImportedAttachment[];
  /** For error messages ("pages/00012.json", "Guides/Setup.md"). */
  sourcePath?: string;
}

export interface ImportedSpace {
  format: ImportFormat;
  space: { key?: string; name: string; description?: string; settings?: Partial<ImportedSpaceSettings> };
  authors: ImportedAuthor[];
  /** Parents before children. */
  pages: ImportedPage[];
  templates: ImportedTemplate[];
  /** Blob key (a sha256 in a pack, any key elsewhere) → where its bytes are. */
  blobs: Map<string, BlobSource>;
  /** A page ref. */
  homepage: string | null;
  /** What had no exact equivalent and was turned into something close. */
  mapped: { what: string; count: number; reason: string }[];
  /** What was left out. */
  skipped: { path: string; reason: string }[];
}

/** The prefixes refs take inside content. */
export const PAGE_REF = "cairn-page:";
export const ATTACHMENT_REF = "cairn-attachment:";
export const AUTHOR_REF = "author:";
