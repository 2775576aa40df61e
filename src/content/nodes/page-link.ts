import { mergeAttributes, Node } from "@tiptap/core";
import { pageHref } from "../page-links";

/** `[[page:<id>]]`: ids are at most 200 printable characters without brackets or spaces. */
const MARKDOWN = /^\[\[page:([^\]\s]{1,200})\]\]/;

/**
 * A link to another page of the wiki, by id (see page-links.ts). It holds no title: the reader,
 * the editor and the exports show the page's CURRENT title, looked up for each reader, so a
 * rename shows everywhere and a page the reader may not see never shows its name. In Markdown
 * it is `[[page:<id>]]`; in HTML `<a data-type="pageLink" data-page-id="…" href="/p/<id>">`.
 */
export const PageLink = Node.create({
  name: "pageLink",
  group: "inline",
  inline: true,
  atom: true,
  selectable: true,

  addAttributes() {
    return {
      pageId: {
        default: null,
        parseHTML: (element) => element.getAttribute("data-page-id"),
        renderHTML: (attributes) => ({ "data-page-id": attributes.pageId }),
      },
    };
  },

  parseHTML() {
    return [{ tag: 'a[data-type="pageLink"]' }, { tag: 'span[data-type="pageLink"]' }];
  },

  renderHTML({ node, HTMLAttributes }) {
    const id = String(node.attrs.pageId ?? "");
    return ["a", mergeAttributes({ "data-type": "pageLink", class: "page-link", href: pageHref(id) }, HTMLAttributes), "page"];
  },

  // Plain text (copying, search) carries no title: the title is not part of this page.
  renderText: () => "",

  markdownTokenizer: {
    name: "pageLink",
    level: "inline",
    start: (src: string) => src.indexOf("[[page:"),
    tokenize(src: string) {
      const m = MARKDOWN.exec(src);
      return m ? { type: "pageLink", raw: m[0], pageId: m[1] } : undefined;
    },
  },
  parseMarkdown: (token, helpers) => helpers.createNode("pageLink", { pageId: (token as { pageId?: string }).pageId ?? null }),
  renderMarkdown: (node) => `[[page:${String(node.attrs?.pageId ?? "")}]]`,
});
