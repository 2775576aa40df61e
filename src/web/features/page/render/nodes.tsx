/**
 * How each node of the page schema (src/content/extensions.ts) is drawn in the reading view.
 * The elements and attributes mirror what TipTap's editor draws for the same node, so one
 * stylesheet (src/content/reading.css) gives both the same look: switching to Edit moves nothing.
 */
import type { ReactNode } from "react";
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
const PANEL_NAMES = { info: "Info", note: "Note", warning: "Warning", success: "Success", error: "Error" } as const;

/** `diff`: how a version comparison marks it (history's doc-diff.ts); absent when reading. */
function Cell({ tag: Tag, diff, ...p }: NodeProps & { tag: "td" | "th"; diff?: string }) {
  const attrs = a(p);
  const widths = Array.isArray(attrs.colwidth) ? (attrs.colwidth as number[]) : null;
  const align = attrs.align === "center" || attrs.align === "right" || attrs.align === "left" ? attrs.align : undefined;
  return (
    <Tag className={diff ? `cmp-${diff}` : undefined} colSpan={num(attrs.colspan) ?? 1} rowSpan={num(attrs.rowspan) ?? 1} style={{ width: widths?.[0] ? `${widths[0]}px` : undefined, textAlign: align }}>
      {p.children}
    </Tag>
  );
}

/**
 * A table whose columns all have widths is as wide as they add up to, as in the editor
 * (TipTap's table view); otherwise it fills the column.
 */
function tableWidth(table: NodeProps["node"]): React.CSSProperties | undefined {
  const firstRow = (table.content?.[0] ?? {}) as NodeProps["node"];
  let total = 0;
  for (const cell of (firstRow.content ?? []) as Array<NodeProps["node"]>) {
    const widths = cell.attrs?.colwidth;
    const span = num(cell.attrs?.colspan) ?? 1;
    if (!Array.isArray(widths) || widths.length < span || widths.some((w) => typeof w !== "number" || !w)) return undefined;
    total += (widths as number[]).reduce((a, b) => a + b, 0);
  }
  return total ? { width: `${total}px` } : undefined;
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

export const nodeMapping: Record<string, (p: NodeProps) => ReactNode> = {
  doc: (p) => <>{p.children}</>,
  text: (p) => <>{p.node.text}</>,
  paragraph: (p) => <p>{p.children}</p>,
  heading: (p) => {
    const level = Math.min(6, Math.max(1, num(a(p).level) ?? 1));
    const H = `h${level}` as "h1";
    return <H>{p.children}</H>;
  },
  blockquote: (p) => <blockquote>{p.children}</blockquote>,
  bulletList: (p) => <ul>{p.children}</ul>,
  orderedList: (p) => <ol start={num(a(p).start) ?? 1}>{p.children}</ol>,
  listItem: (p) => <li>{p.children}</li>,
  taskList: (p) => <ul data-type="taskList">{p.children}</ul>,
  taskItem: (p) => {
    const checked = a(p).checked === true;
    return (
      <li data-type="taskItem" data-checked={checked}>
        <label>
          <TaskBox node={p.node} checked={checked} />
        </label>
        <div>{p.children}</div>
      </li>
    );
  },
  codeBlock: (p) => {
    const language = typeof a(p).language === "string" ? (a(p).language as string) : "";
    return (
      <CodeBlock language={language} text={plainText(p.node)}>
        {p.children}
      </CodeBlock>
    );
  },
  horizontalRule: () => <hr />,
  hardBreak: () => <br />,
  table: (p) => (
    <div className="tableWrapper" role="region" aria-label="Table" tabIndex={0}>
      <table style={tableWidth(p.node)}>
        <tbody>{p.children}</tbody>
      </table>
    </div>
  ),
  tableRow: (p) => <tr>{p.children}</tr>,
  tableHeader: (p) => <Cell tag="th" {...p} />,
  tableCell: (p) => <Cell tag="td" {...p} />,
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
    return (
      <div data-type="attachment">
        <FileText size={16} aria-hidden="true" />
        {id ? <a href={`/api/attachments/${encodeURIComponent(id)}/download`}>{name}</a> : <span>{name}</span>}
      </div>
    );
  },
  panel: (p) => {
    const kind = (String(a(p).kind) in PANEL_ICONS ? a(p).kind : "info") as keyof typeof PANEL_ICONS;
    const Icon = PANEL_ICONS[kind];
    return (
      <div data-type="panel" data-kind={kind} role="note" aria-label={PANEL_NAMES[kind]}>
        <Icon className="panel-icon" size={18} aria-hidden="true" />
        <div className="panel-body">{p.children}</div>
      </div>
    );
  },
  details: (p) => (
    <details data-type="details" open={a(p).open === true || undefined}>
      {p.children}
    </details>
  ),
  detailsSummary: (p) => <summary>{p.children}</summary>,
  detailsContent: (p) => <div data-type="detailsContent">{p.children}</div>,
  pageLink: (p) => <PageLinkView pageId={String(a(p).pageId ?? "")} />,
  mention: (p) => (
    <span className="mention" data-type="mention" data-id={String(a(p).id ?? "")}>
      @{String(a(p).label ?? a(p).id ?? "")}
    </span>
  ),
};
