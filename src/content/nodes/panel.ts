import { createBlockMarkdownSpec, mergeAttributes, Node, parseAttributes } from "@tiptap/core";

/**
 * The panel kinds (docs/decisions.md, "One editor schema"); the server refuses any other `kind`.
 */
export const PANEL_KINDS = ["info", "note", "warning", "success", "error"] as const;
export type PanelKind = (typeof PANEL_KINDS)[number];

export function isPanelKind(value: unknown): value is PanelKind {
  return typeof value === "string" && (PANEL_KINDS as readonly string[]).includes(value);
}

/**
 * A coloured call-out box around ordinary blocks. In Markdown it is a fenced section, as the
 * expand (details) is: `:::panel {kind="warning"}`, its blocks, then `:::` on a line of its own.
 */
export const Panel = Node.create({
  name: "panel",
  group: "block",
  content: "block+",
  // Pasting into a panel keeps the panel rather than replacing it.
  defining: true,

  addAttributes() {
    return {
      kind: {
        default: "info",
        // Pasted HTML may carry any data-kind; fall back rather than build a panel the server refuses.
        parseHTML: (element) => {
          const kind = element.getAttribute("data-kind");
          return isPanelKind(kind) ? kind : "info";
        },
        renderHTML: (attributes) => ({ "data-kind": attributes.kind }),
      },
    };
  },

  parseHTML() {
    return [{ tag: 'div[data-type="panel"]' }];
  },

  renderHTML({ HTMLAttributes }) {
    return ["div", mergeAttributes({ "data-type": "panel", role: "note" }, HTMLAttributes), 0];
  },

  ...createBlockMarkdownSpec({
    nodeName: "panel",
    allowedAttributes: ["kind"],
    // Only `kind` is a panel's; other Pandoc attributes ({.class #id}) are dropped, not refused.
    parseAttributes: (text) => {
      const { kind } = parseAttributes(text);
      return kind === undefined ? {} : { kind };
    },
  }),
});
