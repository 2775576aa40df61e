import { Mark, mergeAttributes } from "@tiptap/core";

/**
 * Tracked changes: when a page is changed from outside the editor (API, MCP, another tab), the
 * editor shows the difference as `insertion` and `deletion` marks that the reader accepts
 * (drop the mark, or the deleted text) or rejects (the reverse). Both marks share attributes:
 * `id` groups the marks of one change, `authorId` and `createdAt` say who and when.
 */
function trackedChange(name: "insertion" | "deletion", tag: "ins" | "del") {
  return Mark.create({
    name,
    // Text typed next to a change is the reader's own, not part of the change.
    inclusive: false,

    addAttributes() {
      return {
        id: {
          default: null,
          parseHTML: (element) => element.getAttribute("data-change-id"),
          renderHTML: (attributes) => ({ "data-change-id": attributes.id }),
        },
        authorId: {
          default: null,
          parseHTML: (element) => element.getAttribute("data-author-id"),
          renderHTML: (attributes) => (attributes.authorId == null ? {} : { "data-author-id": attributes.authorId }),
        },
        createdAt: {
          default: null,
          parseHTML: (element) => element.getAttribute("data-created-at"),
          renderHTML: (attributes) => (attributes.createdAt == null ? {} : { "data-created-at": attributes.createdAt }),
        },
      };
    },

    parseHTML() {
      // Above the default 50, so <del data-change-id> is ours and not Strike's plain <del>.
      return [{ tag: `${tag}[data-change-id]`, priority: 60 }];
    },

    renderHTML({ HTMLAttributes }) {
      return [tag, mergeAttributes(HTMLAttributes), 0];
    },
  });
}

export const Insertion = trackedChange("insertion", "ins");
export const Deletion = trackedChange("deletion", "del");
