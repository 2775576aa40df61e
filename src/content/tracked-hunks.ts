/**
 * The ids of tracked changes. Each hunk of a trackChanges result (a run of adjacent deletions and
 * insertions) gets its own, `<meta.id>.<n>` with n counting from 1 in document order, so that a
 * reader can accept or reject it alone and still see which external edit it came from.
 */
import type { JSONContent } from "@tiptap/core";
import type { Mark, Schema } from "@tiptap/pm/model";

export interface ChangeMeta {
  id: string;
  authorId: string | null;
  createdAt: string;
}

/** What a diff needs to mark its hunks; `count` hands out their temporary ids. */
export interface DiffContext {
  schema: Schema;
  meta: ChangeMeta;
  count: number;
}

/**
 * A run of adjacent changes shares one id, taken only once something is marked with it. Ids are
 * handed out as hunks are built, which is not quite document order (a block pair is merged before
 * the removed blocks ahead of it are written), so they are temporary: see numberHunks.
 */
export class Hunk {
  private id?: string;
  constructor(private ctx: DiffContext) {}
  mark(name: "insertion" | "deletion"): Mark {
    this.id ??= `${TEMPORARY}${++this.ctx.count}`;
    const { authorId, createdAt } = this.ctx.meta;
    return this.ctx.schema.marks[name].create({ id: this.id, authorId, createdAt });
  }
}

const TEMPORARY = "\u0000hunk-";

/** Gives the hunks of a trackChanges result their ids, `<meta.id>.<n>`, n counting in document order. */
export function numberHunks(json: JSONContent, meta: ChangeMeta): JSONContent {
  const ids = new Map<string, string>();
  const walk = (node: JSONContent) => {
    for (const mark of node.marks ?? []) {
      const id = mark.attrs?.id;
      if (typeof id !== "string" || !id.startsWith(TEMPORARY)) continue;
      if (!ids.has(id)) ids.set(id, `${meta.id}.${ids.size + 1}`);
      mark.attrs!.id = ids.get(id);
    }
    node.content?.forEach(walk);
  };
  walk(json);
  return json;
}
