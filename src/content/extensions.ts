/**
 * The one editor schema: the TipTap extensions that define which nodes and marks a page may
 * hold (docs/decisions.md, "One editor schema"). The web editor and the server both load this list,
 * so the server can refuse anything the editor could not open.
 *
 * Everything imported here loads without a DOM (the server has none); the DOM is touched only
 * when an editor view exists. Session behaviour is left to the editor, which adds it on top:
 * undo (UndoRedo, or Collaboration's own history), Dropcursor, Gapcursor, TrailingNode,
 * Placeholder, and the mention suggestion popup (`.configure({ suggestion })` on the mention
 * extension of this list, which keeps its Markdown tokenizer).
 */
import { getExtensionField, type Extensions, type MarkdownTokenizer } from "@tiptap/core";
import Code from "@tiptap/extension-code";
import { Details, DetailsContent, DetailsSummary } from "@tiptap/extension-details";
import Highlight from "@tiptap/extension-highlight";
import Image from "@tiptap/extension-image";
import { TaskItem, TaskList } from "@tiptap/extension-list";
import Mention from "@tiptap/extension-mention";
import Subscript from "@tiptap/extension-subscript";
import Superscript from "@tiptap/extension-superscript";
import { Table, TableCell, TableHeader, TableRow } from "@tiptap/extension-table";
import StarterKit from "@tiptap/starter-kit";
import { Attachment } from "./nodes/attachment";
import { CommentMark } from "./nodes/comment";
import { PageLink } from "./nodes/page-link";
import { Panel } from "./nodes/panel";
import { MarkdownSafeParagraph } from "./nodes/paragraph";
import { Deletion, Insertion } from "./nodes/tracked-change";

/**
 * TipTap's inline code excludes every other mark; ours excludes only the formatting marks, so
 * code can still carry a link, a comment anchor or a tracked change.
 */
const InlineCode = Code.extend({
  excludes: "bold italic underline strike highlight subscript superscript",
});

/**
 * A mention is `[@ id="…" label="…"]` in Markdown. TipTap's tokenizer looks for it with an
 * unanchored pattern at every step of a paragraph (20 KB of "[@ [@ [@" took two minutes);
 * this one finds the start with indexOf and gives the shortcode at most 1,000
 * characters (an id and a label are at most 200 each), so it costs no more than its length.
 * Only the shortcode the exporter writes is one: `[@`, white space, then an `id`. Anything
 * else starting with `[@` is left to the other rules: a link such as `[@y/websocket-server](…)`
 * (an npm scope) was read as a mention without an id, which the schema refused.
 */
const mentionTokenizer = getExtensionField<MarkdownTokenizer>(Mention, "markdownTokenizer")!;
const MentionNode = Mention.extend({
  markdownTokenizer: {
    ...mentionTokenizer,
    start: (src: string) => src.indexOf("[@"),
    tokenize(src, tokens, lexer) {
      const end = /^\[@\s/.test(src) ? src.slice(0, 1001).indexOf("]") : -1;
      if (end < 0) return undefined;
      const token = mentionTokenizer.tokenize(src.slice(0, end + 1), tokens, lexer);
      const id = (token as { attributes?: { id?: unknown } } | undefined)?.attributes?.id;
      return typeof id === "string" && id.trim() !== "" ? token : undefined;
    },
  },
});

export const contentExtensions: Extensions = [
  StarterKit.configure({
    code: false,
    // MarkdownSafeParagraph instead (same node, Markdown written so it reads back the same).
    paragraph: false,
    undoRedo: false,
    dropcursor: false,
    gapcursor: false,
    trailingNode: false,
    link: { openOnClick: false, autolink: true, defaultProtocol: "https" },
  }),
  MarkdownSafeParagraph,
  InlineCode,
  TaskList,
  // Nested task lists, like the other lists.
  TaskItem.configure({ nested: true }),
  Table.configure({ resizable: true }),
  TableRow,
  TableHeader,
  TableCell,
  // Images are blocks whose src points at an attachment or the web; never inline base64 blobs.
  Image.configure({ inline: false, allowBase64: false }),
  Attachment,
  Panel,
  // The "expand" of the editor schema (docs/decisions.md): a titled, collapsible section. Whether
  // it is open is the reader's choice, not part of the page, so it is not persisted.
  Details.configure({ persist: false }),
  DetailsSummary,
  DetailsContent,
  MentionNode.configure({ HTMLAttributes: { class: "mention" } }),
  PageLink,
  Highlight,
  Subscript,
  Superscript,
  CommentMark,
  Insertion,
  Deletion,
];
