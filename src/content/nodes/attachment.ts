import { mergeAttributes, Node } from "@tiptap/core";

/**
 * A file attached to the page, shown as a block (name, size, download). The file itself lives
 * in attachment storage; the node only points at it by id and repeats what the reader sees, so
 * a page renders (and exports) without a lookup per attachment.
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
});
