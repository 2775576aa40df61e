/**
 * The blocks the "/" menu offers, each a command on the editor. Every one makes a node of the
 * shared schema (src/content/extensions.ts), so the server accepts what it makes.
 */
import type { Editor, Range } from "@tiptap/core";

export interface BlockItem {
  id: string;
  title: string;
  hint: string;
  keywords: string;
  run(editor: Editor, range: Range): void;
}

const chain = (editor: Editor, range: Range) => editor.chain().focus().deleteRange(range);
/** What each kind of panel holds, in the block menu's hint. */
const PANEL_FOR: Record<string, string> = { error: "errors", warning: "warnings", success: "good news", note: "notes" };
const panel = (kind: string, title: string): BlockItem => ({
  id: `panel-${kind}`,
  title: `${title} panel`,
  hint: `A coloured box for ${PANEL_FOR[kind] ?? "information"}`,
  keywords: `panel callout ${kind}`,
  run: (e, r) =>
    chain(e, r)
      .insertContent({ type: "panel", attrs: { kind }, content: [{ type: "paragraph" }] })
      .run(),
});

/** Without `pickImage` (nowhere to upload to, as in a template) the menu offers no Image. */
export function blockItems(pickImage?: () => void): BlockItem[] {
  const items: BlockItem[] = [
    { id: "text", title: "Text", hint: "Plain paragraph", keywords: "paragraph text", run: (e, r) => chain(e, r).setParagraph().run() },
    {
      id: "h1",
      title: "Heading 1",
      hint: "Big section heading",
      keywords: "heading title h1 #",
      run: (e, r) => chain(e, r).setHeading({ level: 1 }).run(),
    },
    {
      id: "h2",
      title: "Heading 2",
      hint: "Medium heading",
      keywords: "heading subtitle h2 ##",
      run: (e, r) => chain(e, r).setHeading({ level: 2 }).run(),
    },
    {
      id: "h3",
      title: "Heading 3",
      hint: "Small heading",
      keywords: "heading h3 ###",
      run: (e, r) => chain(e, r).setHeading({ level: 3 }).run(),
    },
    {
      id: "bullets",
      title: "Bulleted list",
      hint: "A simple list",
      keywords: "bullet list unordered ul -",
      run: (e, r) => chain(e, r).toggleBulletList().run(),
    },
    {
      id: "numbers",
      title: "Numbered list",
      hint: "A list with numbers",
      keywords: "numbered ordered list ol 1.",
      run: (e, r) => chain(e, r).toggleOrderedList().run(),
    },
    {
      id: "tasks",
      title: "Task list",
      hint: "Things to do, with checkboxes",
      keywords: "task todo checkbox checklist []",
      run: (e, r) => chain(e, r).toggleTaskList().run(),
    },
    {
      id: "quote",
      title: "Quote",
      hint: "A quotation",
      keywords: "quote blockquote >",
      run: (e, r) => chain(e, r).toggleBlockquote().run(),
    },
    {
      id: "code",
      title: "Code block",
      hint: "Code with syntax colours",
      keywords: "code block snippet ```",
      run: (e, r) => chain(e, r).toggleCodeBlock().run(),
    },
    {
      id: "table",
      title: "Table",
      hint: "Rows and columns with a header row",
      keywords: "table grid",
      run: (e, r) => chain(e, r).insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run(),
    },
    panel("info", "Info"),
    panel("note", "Note"),
    panel("warning", "Warning"),
    panel("success", "Success"),
    panel("error", "Error"),
    {
      id: "expand",
      title: "Expand",
      hint: "A section that opens on click",
      keywords: "expand details toggle collapse",
      run: (e, r) => chain(e, r).setDetails().run(),
    },
    {
      id: "divider",
      title: "Divider",
      hint: "A line between sections",
      keywords: "divider rule hr line ---",
      run: (e, r) => chain(e, r).setHorizontalRule().run(),
    },
    {
      id: "image",
      title: "Image",
      hint: "Upload a picture",
      keywords: "image picture photo upload",
      run: (e, r) => {
        chain(e, r).run();
        pickImage?.();
      },
    },
    {
      id: "page-link",
      title: "Link to page",
      hint: "Find a page and link to it",
      keywords: "link page wiki [[ reference",
      run: (e, r) => chain(e, r).insertContent("[[").run(),
    },
    {
      id: "mention",
      title: "Mention",
      hint: "Tell someone about this page",
      keywords: "mention person @",
      run: (e, r) => chain(e, r).insertContent("@").run(),
    },
  ];
  return pickImage ? items : items.filter((i) => i.id !== "image");
}

export function filterBlocks(items: BlockItem[], query: string): BlockItem[] {
  const q = query.trim().toLowerCase();
  if (!q) return items;
  return items.filter((i) => i.title.toLowerCase().includes(q) || i.keywords.includes(q));
}
