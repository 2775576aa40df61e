import { Mark, mergeAttributes } from "@tiptap/core";

/** The anchor of an inline comment: the commented words carry the comment's id. */
export const CommentMark = Mark.create({
  name: "comment",
  // Typing right after commented words must not silently extend the comment.
  inclusive: false,
  // Comments may overlap: the same words can carry several comment marks (different ids).
  excludes: "",

  addAttributes() {
    return {
      commentId: {
        default: null,
        parseHTML: (element) => element.getAttribute("data-comment-id"),
        renderHTML: (attributes) => ({ "data-comment-id": attributes.commentId }),
      },
    };
  },

  parseHTML() {
    return [{ tag: "span[data-comment-id]" }];
  },

  renderHTML({ HTMLAttributes }) {
    return ["span", mergeAttributes({ class: "comment" }, HTMLAttributes), 0];
  },
});
