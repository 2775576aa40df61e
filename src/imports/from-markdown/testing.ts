/**
 * Real zips for the converters' tests: built with fflate, written to a temp file and opened
 * with the same reader an upload goes through (platform/zip/read.ts).
 */
import type { JSONContent } from "@tiptap/core";
import { zipSync } from "fflate";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkContentJson } from "../../content/validate";
import { openZip, type OpenedZip } from "../../platform/zip/read";
import { newTally, rewriteContent, type RefTargets } from "../links";
import type { ImportedPage, ImportedSpace } from "../model";

let dir: string | null = null;
let made = 0;

/** The zip of `files`, opened; entries read from the file, so it stays until removeTestZips(). */
export async function openTestZip(files: Record<string, string | Uint8Array>): Promise<OpenedZip> {
  dir ??= mkdtempSync(join(tmpdir(), "cairn-import-"));
  const path = join(dir, `test-${++made}.zip`);
  const data = Object.fromEntries(
    Object.entries(files).map(([name, body]) => [name, typeof body === "string" ? new TextEncoder().encode(body) : body]),
  );
  writeFileSync(path, zipSync(data));
  return openZip(path);
}

/** For afterAll. */
export function removeTestZips(): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
}

/** A PNG's first bytes: enough for a file that is an image by name and by signature. */
export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

export function pageTitled(space: ImportedSpace, title: string): ImportedPage {
  const page = space.pages.find((p) => p.title === title);
  if (!page) throw new Error(`no page "${title}" among ${space.pages.map((p) => p.title).join(", ")}`);
  return page;
}

export const content = (page: ImportedPage): JSONContent => page.versions.at(-1)!.content;

/** Every node of a document, depth first. */
export function nodes(doc: JSONContent): JSONContent[] {
  return [doc, ...(doc.content ?? []).flatMap(nodes)];
}

/** Every link address in a document. */
export function hrefs(doc: JSONContent): string[] {
  return nodes(doc).flatMap((n) => (n.marks ?? []).filter((m) => m.type === "link").map((m) => String(m.attrs?.href)));
}

export function textOf(node: JSONContent): string {
  return node.text ?? (node.content ?? []).map(textOf).join(node.type === "doc" ? "\n" : "");
}

/**
 * Checks a page's content as the writer does: refs rewritten to new ids (links.ts), then the
 * editor schema's check (throws when the editor could not open it).
 */
export function checkAsWritten(space: ImportedSpace, page: ImportedPage): void {
  const id = (ref: string) => `00000000-0000-4000-8000-${ref.replace(/\W/g, "").padStart(12, "0").slice(-12)}`;
  const targets: RefTargets = {
    key: "TEST",
    pages: new Map(space.pages.map((p) => [p.ref, id(p.ref)])),
    attachments: new Map(space.pages.flatMap((p) => p.attachments.map((a) => [a.ref, id(a.ref)] as const))),
    comments: new Map(),
    authors: new Map(space.authors.map((a) => [a.ref, { id: null, name: a.name }])),
    oldKey: null,
  };
  checkContentJson(JSON.stringify(rewriteContent(content(page), targets, newTally())));
}
