/**
 * How each node of the page schema (src/content/extensions.ts) is drawn in the reading view.
 * Each node's element, attributes and class come from the table the server's HTML renderer reads
 * too (src/content/elements.ts); they mirror what TipTap's editor draws for the same node, so one
 * stylesheet (src/content/reading.css) gives both the same look: switching to Edit moves nothing.
 */
import { createElement, type ReactNode } from "react";
import {
  codeLanguage,
  mentionText,
  NODE_ELEMENTS,
  PANEL_BODY,
  panelKind,
  TABLE,
  type ElementAttrs,
  type ElementSpec,
} from "../../../../content/elements";
import { CircleAlert, FileText, Info, Lightbulb, CircleCheck, TriangleAlert } from "../../../ui/icons";
import { CodeBlock } from "./CodeBlock";
import { PageImage } from "./page-image";
import { PageLinkView } from "./page-link";
import { safeImageSrc } from "./safe-url";
import { TaskBox } from "./task-ticks";

type Attrs = Record<string, unknown>;
export interface NodeProps {
  node: { type: string; attrs?: Attrs; text?: string; content?: unknown[] };
  children?: ReactNode;
}

const a = (p: NodeProps) => p.node.attrs ?? {};
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const PANEL_ICONS = { info: Info, note: Lightbulb, warning: TriangleAlert, success: CircleCheck, error: CircleAlert } as const;

/** HTML's attribute names as React spells them. */
const REACT_NAMES: Record<string, string> = { class: "className", tabindex: "tabIndex", colspan: "colSpan", rowspan: "rowSpan" };
export const reactProps = (attrs: ElementAttrs = {}) =>
  Object.fromEntries(Object.entries(attrs).map(([k, v]) => [REACT_NAMES[k] ?? k, v === false ? undefined : v]));

/** An element of the table around its children; `first`: props React writes before the table's (a comparison's class). */
export const drawElement = (spec: ElementSpec, children?: ReactNode, first?: Record<string, unknown>) =>
  spec.empty ? createElement(spec.tag, reactProps(spec.attrs)) : createElement(spec.tag, { ...first, ...reactProps(spec.attrs) }, children);

/** `diff`: how a version comparison marks it (history's doc-diff.ts); absent when reading. */
function Cell({ diff, ...p }: NodeProps & { diff?: string }) {
  return drawElement(NODE_ELEMENTS[p.node.type]!(a(p)), p.children, { className: diff ? `cmp-${diff}` : undefined });
}

/**
 * A table whose columns all have widths is as wide as they add up to, as in the editor
 * (TipTap's table view); otherwise it fills the column.
 */
function tableWidth(table: NodeProps["node"]): number | undefined {
  const firstRow = (table.content?.[0] ?? {}) as NodeProps["node"];
  let total = 0;
  for (const cell of (firstRow.content ?? []) as Array<NodeProps["node"]>) {
    const widths = cell.attrs?.colwidth;
    const span = num(cell.attrs?.colspan) ?? 1;
    if (!Array.isArray(widths) || widths.length < span || widths.some((w) => typeof w !== "number" || !w)) return undefined;
    total += (widths as number[]).reduce((a, b) => a + b, 0);
  }
  return total || undefined;
}

/** A block's text when it is only unmarked text (what a code block holds once published). */
function plainText(node: NodeProps["node"]): string | null {
  let text = "";
  for (const child of (node.content ?? []) as Array<NodeProps["node"] & { marks?: unknown[] }>) {
    if (child.type !== "text" || child.marks?.length) return null;
    text += child.text ?? "";
  }
  return text;
}

/** The plain elements of the table: the element around the node's children. */
const plainElements = Object.fromEntries(
  Object.entries(NODE_ELEMENTS).map(([type, spec]) => [type, (p: NodeProps) => drawElement(spec(a(p)), p.children)]),
);

export const nodeMapping: Record<string, (p: NodeProps) => ReactNode> = {
  ...plainElements,
  doc: (p) => <>{p.children}</>,
  text: (p) => <>{p.node.text}</>,
  taskItem: (p) =>
    drawElement(
      NODE_ELEMENTS.taskItem!(a(p)),
      <>
        <label>
          <TaskBox node={p.node} checked={a(p).checked === true} />
        </label>
        <div>{p.children}</div>
      </>,
    ),
  codeBlock: (p) => {
    const language = codeLanguage(a(p));
    return (
      <CodeBlock language={language} text={plainText(p.node)}>
        {p.children}
      </CodeBlock>
    );
  },
  table: (p) => drawElement(NODE_ELEMENTS.table!(a(p)), drawElement(TABLE(tableWidth(p.node)), <tbody>{p.children}</tbody>)),
  tableHeader: (p) => <Cell {...p} />,
  tableCell: (p) => <Cell {...p} />,
  image: (p) => {
    const src = safeImageSrc(a(p).src);
    if (!src) return null;
    const alt = typeof a(p).alt === "string" ? (a(p).alt as string) : "";
    const title = typeof a(p).title === "string" ? (a(p).title as string) : undefined;
    return <PageImage src={src} alt={alt} title={title} width={num(a(p).width)} height={num(a(p).height)} />;
  },
  attachment: (p) => {
    const id = typeof a(p).attachmentId === "string" ? (a(p).attachmentId as string) : "";
    const name = String(a(p).filename ?? "") || "Attachment";
    return drawElement(
      NODE_ELEMENTS.attachment!(a(p)),
      <>
        <FileText size={16} aria-hidden="true" />
        {id ? <a href={`/api/attachments/${encodeURIComponent(id)}/download`}>{name}</a> : <span>{name}</span>}
      </>,
    );
  },
  panel: (p) => {
    const Icon = PANEL_ICONS[panelKind(a(p))];
    return drawElement(
      NODE_ELEMENTS.panel!(a(p)),
      <>
        <Icon className="panel-icon" size={18} aria-hidden="true" />
        {drawElement(PANEL_BODY, p.children)}
      </>,
    );
  },
  pageLink: (p) => <PageLinkView pageId={String(a(p).pageId ?? "")} />,
  mention: (p) => drawElement(NODE_ELEMENTS.mention!(a(p)), mentionText(String(a(p).label ?? a(p).id ?? ""))),
};
