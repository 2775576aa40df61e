/**
 * Tables are stored as the editor would keep them. prosemirror-tables repairs a ragged table
 * (missing cells, spans that collide or run past the last row, columns whose widths disagree)
 * on the editor's first transaction; doing the same before storing means exports see whole
 * tables and an editor opening the page does not start with a change of its own.
 */
import type { Node as PMNode } from "@tiptap/pm/model";
import { EditorState } from "@tiptap/pm/state";
import { fixTables } from "@tiptap/pm/tables";
import { invalid } from "../platform/errors";

/** Grid slots (rows × columns) of all tables in a page; repair work is proportional to it. */
export const MAX_TABLE_CELLS = 50_000;

/** Rows × columns of a table, columns counting cells that reach into a row from above. */
function gridSize(table: PMNode): number {
  const rows = table.childCount;
  const change = new Array<number>(rows + 1).fill(0);
  table.forEach((row, _, r) => {
    row.forEach((cell) => {
      const colspan = Number(cell.attrs.colspan) || 1;
      change[r] += colspan;
      change[Math.min(r + (Number(cell.attrs.rowspan) || 1), rows)] -= colspan;
    });
  });
  let width = 0;
  let columns = 0;
  for (let r = 0; r < rows; r++) width = Math.max(width, (columns += change[r]));
  return rows * width;
}

function pathOf(doc: PMNode, pos: number): string {
  const $pos = doc.resolve(pos);
  return Array.from({ length: $pos.depth + 1 }, (_, d) => `content[${$pos.index(d)}]`).join(".");
}

/** The document with every table repaired (the same document when none needed it). */
export function completeTables(doc: PMNode): PMNode {
  let slots = 0;
  let tables = false;
  doc.descendants((node, pos) => {
    if (node.type.spec.tableRole !== "table") return true;
    tables = true;
    slots += gridSize(node);
    if (slots > MAX_TABLE_CELLS) {
      throw invalid(
        "contentJson",
        `${pathOf(doc, pos)}: the tables of a page may hold at most ${MAX_TABLE_CELLS} cells (rows × columns) in all`,
      );
    }
    return true;
  });
  if (!tables) return doc;
  // One pass may leave work for the next (new cells get their column widths on the second), as
  // in the editor, where fixTables runs again on its own transaction. A few passes settle it.
  let state = EditorState.create({ doc });
  for (let pass = 0; pass < 4; pass++) {
    const tr = fixTables(state);
    if (!tr) break;
    state = state.apply(tr);
  }
  return state.doc;
}
