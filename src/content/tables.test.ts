import { describe, expect, test } from "bun:test";
import { MAX_TABLE_CELLS } from "./tables";
import { docOf, para, rejection, text } from "./testing";
import { checkContentJson } from "./validate";

const cell = (t?: string, attrs?: Record<string, unknown>) => ({
  type: "tableCell",
  ...(attrs && { attrs }),
  content: [t ? para(text(t)) : para()],
});
const row = (...cells: unknown[]) => ({ type: "tableRow", content: cells });
const table = (...rows: unknown[]) => ({ type: "table", content: rows });
const stored = (doc: unknown) => JSON.parse(checkContentJson(JSON.stringify(doc)).json).content[0];
const shape = (t: any) =>
  t.content.map((r: any) => (r.content ?? []).map((c: any) => [c.attrs.colspan, c.attrs.rowspan, c.attrs.colwidth]));

describe("tables are stored complete, as the editor keeps them", () => {
  test("a short row gets the missing cells", () => {
    expect(shape(stored(docOf(table(row(cell("a"), cell("b"), cell("c")), row(cell("d"))))))).toEqual([
      [
        [1, 1, null],
        [1, 1, null],
        [1, 1, null],
      ],
      [
        [1, 1, null],
        [1, 1, null],
        [1, 1, null],
      ],
    ]);
  });

  test("an empty row is filled", () => {
    expect(shape(stored(docOf(table(row(cell("a"), cell("b")), row()))))).toEqual([
      [
        [1, 1, null],
        [1, 1, null],
      ],
      [
        [1, 1, null],
        [1, 1, null],
      ],
    ]);
  });

  test("a rowspan past the last row is cut to fit", () => {
    expect(shape(stored(docOf(table(row(cell("a", { rowspan: 5 }), cell("b")), row(cell("c"))))))).toEqual([
      [
        [1, 2, null],
        [1, 1, null],
      ],
      [[1, 1, null]],
    ]);
  });

  test("column widths agree down each column", () => {
    const t = stored(docOf(table(row(cell("a", { colwidth: [150] }), cell("b")), row(cell("c"), cell("d", { colwidth: [90] })))));
    expect(shape(t)).toEqual([
      [
        [1, 1, [150]],
        [1, 1, [90]],
      ],
      [
        [1, 1, [150]],
        [1, 1, [90]],
      ],
    ]);
  });

  test("a whole table is left as it is, and completing is idempotent", () => {
    const whole = docOf(table(row(cell("a", { colspan: 2 })), row(cell("b"), cell("c"))));
    const first = checkContentJson(JSON.stringify(whole)).json;
    expect(shape(JSON.parse(first).content[0])).toEqual([
      [[2, 1, null]],
      [
        [1, 1, null],
        [1, 1, null],
      ],
    ]);
    expect(checkContentJson(first).json).toBe(first);
  });

  test("tables nested in cells are completed too", () => {
    const inner = table(row(cell("x"), cell("y")), row(cell("z")));
    const outer = stored(docOf(table(row({ type: "tableCell", content: [inner] }))));
    expect(shape(outer.content[0].content[0].content[0])).toEqual([
      [
        [1, 1, null],
        [1, 1, null],
      ],
      [
        [1, 1, null],
        [1, 1, null],
      ],
    ]);
  });

  test("the grid of all tables is limited, naming the table that passes the limit", () => {
    const wide = (rows: number) => table(...Array.from({ length: rows }, () => row(cell(undefined, { colspan: 1000 }))));
    const rows = Math.floor(MAX_TABLE_CELLS / 1000);
    expect(() => checkContentJson(JSON.stringify(docOf(wide(rows))))).not.toThrow();
    expect(rejection(JSON.stringify(docOf(para(), wide(rows), wide(1))))).toBe(
      `content[2]: the tables of a page may hold at most ${MAX_TABLE_CELLS} cells (rows × columns) in all`,
    );
  });

  test("a ragged table that would grow past the size limit is refused", () => {
    const first = row(...Array.from({ length: 1000 }, () => cell()));
    const rest = Array.from({ length: 45 }, () => row(cell()));
    expect(rejection(JSON.stringify(docOf(table(first, ...rest))))).toContain("too large once its tables are completed");
  });
});
