/**
 * Rewriting the references inside imported content to the new rows (model.ts says which forms
 * a converter writes). Runs on every version of every page and on templates, before the
 * document is checked, so what is stored names only rows of this instance.
 *
 * Also, for a Cairn pack: links written in the old space (`/s/<OLDKEY>/p/<oldId>-slug`, relative
 * or on any host), page link nodes (`pageLink {pageId}`) and attachment URLs
 * (`/api/attachments/<oldId>/view`) point at rows of the pack (refs are their old ids there), so
 * they are rewritten to the new ones the same way.
 *
 * A link to an imported page is stored in the form every link between pages has
 * (content/page-links.ts): `/p/<newId>` with its fragment, by id, with no host and no space key.
 */
import type { JSONContent } from "@tiptap/core";
import { pageHref } from "../content/page-links";
import { ATTACHMENT_REF, AUTHOR_REF, PAGE_REF } from "./model";

/** Who an `author:<ref>` became: an account of this instance (id) or only a name (id null). */
export interface ImportedPerson {
  id: string | null;
  name: string;
}

export interface RefTargets {
  /** The new space's key (page URLs). */
  key: string;
  pages: ReadonlyMap<string, string>;
  attachments: ReadonlyMap<string, string>;
  comments: ReadonlyMap<string, string>;
  authors: ReadonlyMap<string, ImportedPerson>;
  /** The pack's own space key, whose page URLs are rewritten too (null: not a pack). */
  oldKey: string | null;
}

/** What a rewrite could not point anywhere, counted for the summary's `mapped`. */
export interface RewriteTally {
  deadLinks: number;
  unknownAttachments: number;
  mentionsAsText: number;
}

export const newTally = (): RewriteTally => ({ deadLinks: 0, unknownAttachments: 0, mentionsAsText: 0 });

export const attachmentViewUrl = (id: string) => `/api/attachments/${id}/view`;
export const attachmentDownloadUrl = (id: string) => `/api/attachments/${id}/download`;

const ATTACHMENT_URL = /^(?:https?:\/\/[^/?#]+)?\/api\/attachments\/([A-Za-z0-9-]{1,100})\/(view|download)(?:[?#].*)?$/i;

/** The page a link points at: a `cairn-page:` ref, or (pack) an URL of the old space. */
function pageRefOf(href: string, t: RefTargets): { ref: string; fragment: string } | null {
  if (href.startsWith(PAGE_REF)) {
    const rest = href.slice(PAGE_REF.length);
    const hash = rest.indexOf("#");
    return hash < 0 ? { ref: rest, fragment: "" } : { ref: rest.slice(0, hash), fragment: rest.slice(hash) };
  }
  if (!t.oldKey) return null;
  // The pack's own links by id (`/p/<id>`, content/page-links.ts): no key to check.
  const byId = /^(?:https?:\/\/[^/?#]+)?\/p\/([0-9a-fA-F-]{36})(.*)$/.exec(href);
  if (byId) return { ref: byId[1].toLowerCase(), fragment: byId[2] };
  const m = /^(?:https?:\/\/[^/?#]+)?\/s\/([A-Za-z0-9]{2,50})\/p\/([0-9a-fA-F-]{36})(.*)$/.exec(href);
  if (!m || m[1].toUpperCase() !== t.oldKey.toUpperCase()) return null;
  // The slug, …/edit, …/history/3, a query and a fragment are kept; only the page's id changes.
  return { ref: m[2].toLowerCase(), fragment: m[3] };
}

/** The new href of a link, or null when it pointed at a page or file that did not come in. */
export function rewriteHref(href: string, t: RefTargets, tally: RewriteTally): string | null {
  const page = pageRefOf(href, t);
  if (page) {
    const id = t.pages.get(page.ref);
    // The page itself (a slug, a #fragment): by id. A path below it (…/edit, …/history/3) keeps its form.
    const self = /^(?:-[^/?#]*)?(#.*)?$/.exec(page.fragment);
    if (id) return self ? pageHref(id, self[1] ?? "") : `/s/${t.key}/p/${id}${page.fragment}`;
    // An URL of the old space whose page is not in the pack (a trashed page, a draft) is left
    // as it was; a cairn-page: ref that names nothing cannot be followed anywhere.
    if (!href.startsWith(PAGE_REF)) return href;
    tally.deadLinks++;
    return null;
  }
  const attachment = attachmentRefOf(href, t);
  if (attachment !== undefined) {
    if (attachment) return attachmentDownloadUrl(attachment);
    if (!href.startsWith(ATTACHMENT_REF)) return href;
    tally.deadLinks++;
    return null;
  }
  return href;
}

/** undefined: not an attachment reference; null: one that names nothing imported. */
function attachmentRefOf(url: string, t: RefTargets): string | null | undefined {
  if (url.startsWith(ATTACHMENT_REF)) return t.attachments.get(url.slice(ATTACHMENT_REF.length)) ?? null;
  const m = ATTACHMENT_URL.exec(url);
  if (!m) return undefined;
  // Only a pack's own attachments (its refs are their old ids); any other URL stays as it is.
  return t.attachments.get(m[1].toLowerCase()) ?? t.attachments.get(m[1]) ?? undefined;
}

function personOf(value: unknown, t: RefTargets): ImportedPerson | null | undefined {
  if (typeof value !== "string" || !value.startsWith(AUTHOR_REF)) return undefined;
  return t.authors.get(value.slice(AUTHOR_REF.length)) ?? null;
}

/**
 * The document with every reference rewritten, IN PLACE: an import's documents are its own and
 * each is rewritten once (copying 10,000 documents first would cost seconds). Walks with its own
 * stack: an imported document may be nested deeper than a recursion can go (the checks that
 * refuse such a document come after).
 */
export function rewriteContent(doc: JSONContent, t: RefTargets, tally: RewriteTally): JSONContent {
  const root = doc;
  const stack: JSONContent[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (!node || typeof node !== "object") continue;
    if (node.marks) node.marks = rewriteMarks(node.marks, t, tally);
    if (Array.isArray(node.content)) {
      node.content = node.content.flatMap((child) => rewriteNode(child, t, tally));
      for (const child of node.content) stack.push(child);
    }
  }
  return root;
}

/** One node in place of `node` (or none: an image whose file did not come in). */
function rewriteNode(node: JSONContent, t: RefTargets, tally: RewriteTally): JSONContent[] {
  if (!node || typeof node !== "object") return [node];
  const attrs = node.attrs;
  if (node.type === "mention" && attrs) {
    const person = personOf(attrs.id, t);
    if (person === undefined) return [node];
    if (person?.id) return [{ ...node, attrs: { ...attrs, id: person.id } }];
    // Someone without an account here: their name as plain text.
    tally.mentionsAsText++;
    const name = person?.name ?? (typeof attrs.label === "string" ? attrs.label : "someone");
    return [{ type: "text", text: `@${name}`, ...(node.marks ? { marks: node.marks } : {}) }];
  }
  if (node.type === "pageLink" && attrs && typeof attrs.pageId === "string") {
    // A page of the pack gets its new id; any other keeps the id it had (on the instance the
    // pack came from, that page may well be this instance's own).
    const id = t.pages.get(attrs.pageId.toLowerCase()) ?? t.pages.get(attrs.pageId);
    return [id ? { ...node, attrs: { ...attrs, pageId: id } } : node];
  }
  if (node.type === "image" && attrs && typeof attrs.src === "string") {
    const id = attachmentRefOf(attrs.src, t);
    if (id === undefined) return [node];
    if (id) return [{ ...node, attrs: { ...attrs, src: attachmentViewUrl(id) } }];
    if (!attrs.src.startsWith(ATTACHMENT_REF)) return [node];
    tally.unknownAttachments++;
    return [];
  }
  if (node.type === "attachment" && attrs && typeof attrs.attachmentId === "string") {
    const id = t.attachments.get(attrs.attachmentId);
    if (id) return [{ ...node, attrs: { ...attrs, attachmentId: id } }];
    // A file that did not come in: the block keeps its name (and the id it had, which names nothing here).
    tally.unknownAttachments++;
    return [node];
  }
  return [node];
}

function rewriteMarks(marks: NonNullable<JSONContent["marks"]>, t: RefTargets, tally: RewriteTally): JSONContent["marks"] {
  if (!Array.isArray(marks)) return marks;
  const out: NonNullable<JSONContent["marks"]> = [];
  for (const mark of marks) {
    const attrs = mark?.attrs;
    if (mark?.type === "link" && attrs && typeof attrs.href === "string") {
      const href = rewriteHref(attrs.href, t, tally);
      if (href !== null) out.push({ ...mark, attrs: { ...attrs, href } });
    } else if (mark?.type === "comment" && attrs && typeof attrs.commentId === "string") {
      // A comment that did not come in (deleted, left out) keeps the id it had, which names nothing here.
      const id = t.comments.get(attrs.commentId);
      out.push(id ? { ...mark, attrs: { ...attrs, commentId: id } } : mark);
    } else if ((mark?.type === "insertion" || mark?.type === "deletion") && attrs) {
      const person = personOf(attrs.authorId, t);
      out.push(person === undefined ? mark : { ...mark, attrs: { ...attrs, authorId: person?.id ?? null } });
    } else out.push(mark);
  }
  return out;
}

const BODY_MENTION = /@\[([^\]\n]{1,200})\]\(([A-Za-z0-9:-]{1,110})\)/g;

/** A comment body's mentions `@[Name](author:<ref>)`: the account's id, or the name as plain text. */
export function rewriteCommentBody(body: string, t: RefTargets, tally: RewriteTally): string {
  return body.replace(BODY_MENTION, (whole, name: string, id: string) => {
    const person = personOf(id, t);
    if (person === undefined) return whole;
    if (person?.id) return `@[${name}](${person.id})`;
    tally.mentionsAsText++;
    return `@${name}`;
  });
}
