import { Mark, mergeAttributes } from "@tiptap/core";
import { closeHistory } from "@tiptap/pm/history";
import type { Command, Transaction } from "@tiptap/pm/state";
import { type ChangeFilter, holdsChanges, type Resolution, resolveChanges } from "../tracked-resolve";

declare module "@tiptap/core" {
  interface Commands<ReturnType> {
    trackedChanges: {
      /** Accepts one change (all marks with this id): its deletions go, its insertions stay unmarked. */
      acceptChange: (id: string) => ReturnType;
      /** Rejects one change: its insertions go, its deletions come back unmarked. */
      rejectChange: (id: string) => ReturnType;
      acceptAllChanges: () => ReturnType;
      rejectAllChanges: () => ReturnType;
    };
  }
}

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

/**
 * Adds a review to the transaction: the steps accepting or rejecting the selected changes, as one
 * undo step of its own even right after another. Answers false, doing nothing, when there is no
 * such change; `dispatching` false only asks (TipTap's can()).
 */
function review(tr: Transaction, dispatching: boolean, how: Resolution, filter: ChangeFilter): boolean {
  if (!holdsChanges(tr.doc, filter)) return false;
  if (dispatching) {
    resolveChanges(tr, how, filter);
    closeHistory(tr);
  }
  return true;
}

/** The same review as a plain ProseMirror command (the TipTap commands below are the usual way). */
export function reviewCommand(how: Resolution, filter: ChangeFilter = null): Command {
  return (state, dispatch) => {
    const tr = state.tr;
    if (!review(tr, dispatch !== undefined, how, filter)) return false;
    dispatch?.(tr);
    return true;
  };
}

const reviewing =
  (how: Resolution, filter: ChangeFilter) =>
  ({ tr, dispatch }: { tr: Transaction; dispatch: unknown }) =>
    review(tr, dispatch !== undefined, how, filter);

export const Insertion = trackedChange("insertion", "ins").extend({
  // The commands act on both marks; they are registered once, here.
  addCommands() {
    return {
      acceptChange: (id: string) => reviewing("accept", new Set([id])),
      rejectChange: (id: string) => reviewing("reject", new Set([id])),
      acceptAllChanges: () => reviewing("accept", null),
      rejectAllChanges: () => reviewing("reject", null),
    };
  },
});
export const Deletion = trackedChange("deletion", "del");
