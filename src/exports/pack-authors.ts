/**
 * The people of a wiki pack: accounts become refs ("a1", "a2"… in order of first appearance)
 * into authors.json, which holds only a name and an e-mail (no ids, passwords, roles or rights).
 * User ids inside content (a mention's `id`, a tracked change's `authorId`) and inside comment
 * bodies (`@[Name](id)`) are written `author:<ref>`, so an import can match the people again.
 */
import type { Core } from "../core";
import { personForPack } from "./store/pack-source";

export interface PackAuthor {
  ref: string;
  name: string;
  email: string | null;
}

export const AUTHOR_PREFIX = "author:";

export class PackAuthors {
  readonly list: PackAuthor[] = [];
  private readonly refs = new Map<string, string | null>();

  constructor(private readonly core: Core) {}

  /** The ref of an account; null for none or a deleted account. */
  of(userId: string | null): string | null {
    if (userId === null) return null;
    let ref = this.refs.get(userId);
    if (ref === undefined) {
      const person = personForPack(this.core, userId);
      ref = person ? this.add(person.name, person.email) : null;
      this.refs.set(userId, ref);
    }
    return ref;
  }

  /**
   * The ref of someone named in content. An id that is no account (any more) still gets a ref,
   * with the name the content shows and no e-mail, so the import keeps the name as text.
   */
  named(userId: string, shownName: string | null): string {
    const ref = this.of(userId);
    if (ref !== null) return ref;
    const key = `?${userId}`;
    let unknown = this.refs.get(key);
    if (!unknown) this.refs.set(key, (unknown = this.add(shownName?.trim() || "someone", null)));
    return unknown;
  }

  private add(name: string, email: string | null): string {
    const ref = `a${this.list.length + 1}`;
    this.list.push({ ref, name, email });
    return ref;
  }
}

interface Node {
  type?: string;
  attrs?: Record<string, unknown>;
  marks?: { type?: string; attrs?: Record<string, unknown> }[];
  content?: Node[];
}

/** The document with its user ids written as `author:<ref>` (changed in place; answers it). */
export function withAuthorRefs<T>(doc: T, authors: PackAuthors): T {
  const stack: unknown[] = [doc];
  while (stack.length) {
    const node = stack.pop() as Node;
    if (!node || typeof node !== "object") continue;
    if (node.type === "mention" && node.attrs && typeof node.attrs.id === "string") {
      const label = typeof node.attrs.label === "string" ? node.attrs.label : null;
      node.attrs.id = AUTHOR_PREFIX + authors.named(node.attrs.id, label);
    }
    if (Array.isArray(node.marks)) {
      for (const mark of node.marks) {
        if ((mark?.type === "insertion" || mark?.type === "deletion") && mark.attrs && typeof mark.attrs.authorId === "string") {
          const ref = authors.of(mark.attrs.authorId);
          mark.attrs.authorId = ref === null ? null : AUTHOR_PREFIX + ref;
        }
      }
    }
    if (Array.isArray(node.content)) for (const child of node.content) stack.push(child);
  }
  return doc;
}

/** Comment bodies' mentions, `@[Name](userId)` (comments/mentions), the same way. */
const BODY_MENTION = /@\[([^\]\n]{1,200})\]\(([A-Za-z0-9-]{1,100})\)/g;

export function bodyWithAuthorRefs(body: string, authors: PackAuthors): string {
  return body.replace(BODY_MENTION, (_whole, name: string, id: string) => `@[${name}](${AUTHOR_PREFIX}${authors.named(id, name)})`);
}
