/**
 * The element each node and mark of a stored document is drawn as, with its attributes and
 * class: one table that the server's HTML (html.ts: exports, the site, a cold view's first
 * screen) and the reading view's React mapping (src/web/features/page/render/nodes.tsx and
 * marks.tsx) both read, so the two cannot drift apart. What is more than one element (a task's
 * box, a panel's icon, a code block's colours, a page link's title, a link's target) is drawn by
 * each renderer inside the element given here; html.test.ts compares the two outputs.
 * Attributes are listed in the order both write them; `undefined` and `false` are left out.
 * Imports nothing: the web's reading bundle takes it.
 */
type Attrs = Record<string, unknown>;

/** A CSS declaration list, property names as React spells them (textAlign). */
export type ElementStyle = Record<string, string | undefined>;
export type ElementAttrs = Record<string, string | number | boolean | undefined | ElementStyle>;

export interface ElementSpec {
  tag: string;
  attrs?: ElementAttrs;
  /** Drawn without children or a closing tag (`<hr/>`, `<br/>`). */
  empty?: boolean;
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const str = (v: unknown) => (typeof v === "string" ? v : undefined);
const plain = (tag: string) => (): ElementSpec => ({ tag });

/** A panel's kinds and the names a screen reader hears; an unknown kind is drawn as info. */
export const PANEL_NAMES = { info: "Info", note: "Note", warning: "Warning", success: "Success", error: "Error" } as const;
export type PanelKind = keyof typeof PANEL_NAMES;
export const panelKind = (a: Attrs): PanelKind => (String(a.kind) in PANEL_NAMES ? (a.kind as PanelKind) : "info");

function cell(tag: "td" | "th", a: Attrs): ElementSpec {
  const widths = Array.isArray(a.colwidth) ? (a.colwidth as unknown[]) : null;
  const align = a.align === "center" || a.align === "right" || a.align === "left" ? a.align : undefined;
  return {
    tag,
    attrs: {
      colspan: num(a.colspan) ?? 1,
      rowspan: num(a.rowspan) ?? 1,
      style: { width: widths?.[0] ? `${String(widths[0])}px` : undefined, textAlign: align },
    },
  };
}

/** The element of each node type; `node` for the few that look at their content (a table's width). Unknown types: their content alone. */
export const NODE_ELEMENTS: Record<string, (attrs: Attrs) => ElementSpec> = {
  paragraph: plain("p"),
  heading: (a) => ({ tag: `h${Math.min(6, Math.max(1, num(a.level) ?? 1))}` }),
  blockquote: plain("blockquote"),
  bulletList: plain("ul"),
  orderedList: (a) => ({ tag: "ol", attrs: { start: num(a.start) ?? 1 } }),
  listItem: plain("li"),
  taskList: () => ({ tag: "ul", attrs: { "data-type": "taskList" } }),
  taskItem: (a) => ({ tag: "li", attrs: { "data-type": "taskItem", "data-checked": String(a.checked === true) } }),
  horizontalRule: () => ({ tag: "hr", empty: true }),
  hardBreak: () => ({ tag: "br", empty: true }),
  /** The wrapper that scrolls a wide table; the table itself is TABLE below. */
  table: () => ({ tag: "div", attrs: { class: "tableWrapper", role: "region", "aria-label": "Table", tabindex: 0 } }),
  tableRow: plain("tr"),
  tableHeader: (a) => cell("th", a),
  tableCell: (a) => cell("td", a),
  attachment: () => ({ tag: "div", attrs: { "data-type": "attachment" } }),
  panel: (a) => ({
    tag: "div",
    attrs: { "data-type": "panel", "data-kind": panelKind(a), role: "note", "aria-label": PANEL_NAMES[panelKind(a)] },
  }),
  details: (a) => ({ tag: "details", attrs: { "data-type": "details", open: a.open === true } }),
  detailsSummary: plain("summary"),
  detailsContent: () => ({ tag: "div", attrs: { "data-type": "detailsContent" } }),
  mention: (a) => ({ tag: "span", attrs: { class: "mention", "data-type": "mention", "data-id": String(a.id ?? "") } }),
};

/** Inside the table wrapper: the table, as wide as its columns when all have widths. */
export const TABLE = (width: number | undefined): ElementSpec => ({
  tag: "table",
  attrs: { style: { width: width ? `${width}px` : undefined } },
});
/** Inside a panel, after its icon. */
export const PANEL_BODY: ElementSpec = { tag: "div", attrs: { class: "panel-body" } };
/** A mention's text: the person's name after an @. */
export const mentionText = (name: string) => `@${name}`;
/** A code block's language, or "" for none. */
export const codeLanguage = (a: Attrs) => str(a.language) ?? "";

/** The element of each mark type (the link, whose target is checked first, is drawn by each renderer). Unknown marks: their text alone. */
export const MARK_ELEMENTS: Record<string, (attrs: Attrs) => ElementSpec> = {
  bold: plain("strong"),
  italic: plain("em"),
  underline: plain("u"),
  strike: plain("s"),
  code: plain("code"),
  highlight: plain("mark"),
  subscript: plain("sub"),
  superscript: plain("sup"),
  comment: (a) => ({ tag: "span", attrs: { class: "comment-anchor", "data-comment-id": String(a.commentId ?? "") } }),
  insertion: plain("ins"),
  deletion: plain("del"),
};

/** A style object as CSS text ("width:100px;text-align:center"), as React writes it; "" when empty. */
export function styleText(style: ElementStyle): string {
  return Object.entries(style)
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([k, v]) => `${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}:${v}`)
    .join(";");
}
