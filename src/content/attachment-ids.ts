/**
 * Renaming attachments inside a document (a page copy gets its own attachment rows): the
 * attachment blocks' `attachmentId`, and our own attachment addresses
 * (`/api/attachments/<id>/…`, relative or on any host) in images' `src` and links' `href`.
 * Walks the document; text and every other attribute are left alone.
 */
import type { JSONContent } from "@tiptap/core";

const ATTACHMENT_URL = /^((?:https?:\/\/[^/?#]+)?\/api\/attachments\/)([A-Za-z0-9-]{1,100})(?=[/?#]|$)/i;

function renamedUrl(url: unknown, idMap: ReadonlyMap<string, string>): string | undefined {
  if (typeof url !== "string") return undefined;
  const m = ATTACHMENT_URL.exec(url);
  const to = m && idMap.get(m[2]);
  return to ? m[1] + to + url.slice(m[0].length) : undefined;
}

/**
 * The document with the attachments of `idMap` (old id to new id) renamed, changed in place;
 * answers whether anything changed. Walks with its own stack (no recursion limit).
 */
export function renameAttachments(doc: JSONContent, idMap: ReadonlyMap<string, string>): boolean {
  if (idMap.size === 0) return false;
  let changed = false;
  const stack: JSONContent[] = [doc];
  while (stack.length) {
    const node = stack.pop()!;
    if (!node || typeof node !== "object") continue;
    const attrs = node.attrs;
    if (attrs) {
      if (node.type === "attachment" && typeof attrs.attachmentId === "string" && idMap.has(attrs.attachmentId)) {
        attrs.attachmentId = idMap.get(attrs.attachmentId);
        changed = true;
      }
      const src = renamedUrl(attrs.src, idMap);
      if (src !== undefined) {
        attrs.src = src;
        changed = true;
      }
    }
    for (const mark of node.marks ?? []) {
      const href = renamedUrl(mark.attrs?.href, idMap);
      if (href !== undefined) {
        mark.attrs!.href = href;
        changed = true;
      }
    }
    if (Array.isArray(node.content)) for (const child of node.content) stack.push(child);
  }
  return changed;
}

/** The same on a document's JSON text: the same text when nothing is renamed. */
export function renameAttachmentsInJson(json: string, idMap: ReadonlyMap<string, string>): string {
  if (idMap.size === 0) return json;
  const doc = JSON.parse(json) as JSONContent;
  return renameAttachments(doc, idMap) ? JSON.stringify(doc) : json;
}
