import { createAtomBlockMarkdownSpec, mergeAttributes, Node } from "@tiptap/core";

const MARKDOWN_ATTRS = ["attachmentId", "filename", "size", "contentType"];

/**
 * `key="value"` pairs for the Markdown form. Pandoc attributes have no escapes, and the
 * tokenizer ends them at the first `}`, so `%`, `"` and `}` (which a filename may hold) are
 * written as %25, %22 and %7D.
 */
function writeAttrs(attrs: Record<string, unknown>): string {
  return Object.entries(attrs)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([key, value]) => `${key}="${String(value).replace(/[%"}]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())}"`)
    .join(" ");
}

function readAttrs(text: string): Record<string, unknown> {
  const attrs: Record<string, unknown> = {};
  for (const [, key, raw] of text.matchAll(/(\w+)="([^"]*)"/g)) {
    if (!MARKDOWN_ATTRS.includes(key)) continue;
    const value = raw.replace(/%(25|22|7D)/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    // The size is a number in the document; anything else is left for the validator to refuse.
    attrs[key] = key === "size" && /^\d{1,15}$/.test(value) ? Number(value) : value;
  }
  return attrs;
}

/**
 * A file attached to the page, shown as a block (name, size, download). The file itself lives
 * in attachment storage; the node only points at it by id and repeats what the reader sees, so
 * a page renders (and exports) without a lookup per attachment. In Markdown it is a one-line
 * fenced atom, `:::attachment {attachmentId="…" filename="…" size="…" contentType="…"} :::`.
 */
export const Attachment = Node.create({
  name: "attachment",
  group: "block",
  atom: true,
  draggable: true,

  addAttributes() {
    return {
      attachmentId: {
        default: null,
        parseHTML: (element) => element.getAttribute("data-attachment-id"),
        renderHTML: (attributes) => ({ "data-attachment-id": attributes.attachmentId }),
      },
      filename: {
        default: "",
        parseHTML: (element) => element.getAttribute("data-filename") ?? element.textContent ?? "",
        renderHTML: (attributes) => ({ "data-filename": attributes.filename }),
      },
      size: {
        default: null,
        parseHTML: (element) => {
          const size = Number(element.getAttribute("data-size"));
          return Number.isSafeInteger(size) && size >= 0 ? size : null;
        },
        renderHTML: (attributes) => (attributes.size == null ? {} : { "data-size": String(attributes.size) }),
      },
      contentType: {
        default: null,
        parseHTML: (element) => element.getAttribute("data-content-type"),
        renderHTML: (attributes) => (attributes.contentType == null ? {} : { "data-content-type": attributes.contentType }),
      },
    };
  },

  parseHTML() {
    return [{ tag: 'div[data-type="attachment"]' }];
  },

  renderHTML({ node, HTMLAttributes }) {
    return ["div", mergeAttributes({ "data-type": "attachment" }, HTMLAttributes), String(node.attrs.filename ?? "")];
  },

  renderText({ node }) {
    return String(node.attrs.filename ?? "");
  },

  ...createAtomBlockMarkdownSpec({
    nodeName: "attachment",
    allowedAttributes: MARKDOWN_ATTRS,
    parseAttributes: readAttrs,
    serializeAttributes: writeAttrs,
  }),
});
