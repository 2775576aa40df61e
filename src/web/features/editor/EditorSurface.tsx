/**
 * What both kinds of session draw below the header: uploads in progress, the editor with its
 * toolbars, and the hidden file picker of the "/" menu's Image item.
 */
import type { Editor } from "@tiptap/core";
import { EditorContent } from "@tiptap/react";
import { useEffect, type RefObject } from "react";
import { BubbleToolbar } from "./BubbleToolbar";
import { CodeBlockToolbar } from "./CodeBlockToolbar";
import { TableToolbar } from "./TableToolbar";
import { UploadList } from "./UploadList";
import type { useUploads } from "./useUploads";

export function EditorSurface({
  editor,
  label,
  uploads,
  fileInput,
}: {
  editor: Editor;
  label: string;
  uploads: ReturnType<typeof useUploads>;
  fileInput: RefObject<HTMLInputElement | null>;
}) {
  useFocusOnOpen(editor);
  return (
    <>
      <UploadList uploads={uploads.uploads} onDismiss={uploads.dismiss} />
      {/* The name is the editor's frame's, a group: on the editable element itself, which has no
          role, an aria-label is prohibited (axe reports it once the document is empty). */}
      <EditorContent editor={editor} role="group" aria-label={label} />
      <BubbleToolbar editor={editor} />
      <TableToolbar editor={editor} />
      <CodeBlockToolbar editor={editor} />
      <input
        ref={fileInput}
        type="file"
        accept="image/*"
        hidden
        aria-hidden="true"
        tabIndex={-1}
        onChange={(e) => {
          uploads.start(editor, Array.from(e.target.files ?? []));
          e.target.value = "";
        }}
      />
    </>
  );
}

/** Ctrl/⌘-Enter outside the editor (title, change comment) runs the session's primary action. */
export function primaryKeyHandler(run: () => void, blocked: boolean) {
  return (e: KeyboardEvent) => {
    // In the editor the key is its own (saveShortcut); elsewhere it is here.
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !blocked && !e.defaultPrevented) {
      e.preventDefault();
      run();
    }
  };
}

/**
 * Edit (the button or E) opens the editor ready to type: the caret goes to its start, unless
 * something else took the focus meanwhile (a new page's blank title, a click elsewhere while
 * the editor loaded). The page stays scrolled where it was read.
 */
function useFocusOnOpen(editor: Editor) {
  useEffect(() => {
    // Once the view exists: before TipTap's "create" its commands are not there yet (reaching
    // for them then threw, and the whole screen went blank when the editor's chunk was cached).
    const focus = () => {
      if (editor.isDestroyed) return;
      const active = document.activeElement;
      if (active && active !== document.body) return;
      editor.commands.focus("start", { scrollIntoView: false });
    };
    if (editor.isInitialized) focus();
    else editor.on("create", focus);
    return () => {
      editor.off("create", focus);
    };
  }, [editor]);
}
