/**
 * The editor on a document that is not a page (a template): the same extensions, "/" menu,
 * selection toolbar, tables and code blocks as a page edited alone, with nothing of a page's
 * session around it (no title, versions, live room or copy kept in the browser: the screen
 * that holds the document saves it). Files cannot be added: there is no page to attach them
 * to, so the "/" menu offers no Image and a pasted or dropped file is refused in plain words.
 * Pictures already in the document (or pasted as part of HTML from the web) stay.
 */
import type { Editor } from "@tiptap/core";
import { useEditor } from "@tiptap/react";
import { useRef } from "react";
import type { DocJson } from "../../api/client";
import { toast } from "../../ui/toast";
import { EditorSurface } from "./EditorSurface";
import { editorExtensions } from "./extensions";
import "./editor.css";

export interface DocumentEditorProps {
  /** The document the editor starts from (read once, when it opens). */
  doc: DocJson;
  /** Every change, with the whole document. */
  onChange(doc: DocJson): void;
  /** The editor's accessible name ("Template content"). */
  label: string;
  /** Ctrl/⌘-Enter in the editor. */
  onSave?(): void;
  /** Put the caret in the editor when it opens (a blank document: nothing else to do first). */
  autoFocus?: boolean;
}

export const NO_UPLOADS =
  "Files cannot be added to a template: it has no page to attach them to. Put the file on " +
  "a page made from the template, or link to a picture on the web.";

const noUploads = { uploads: [], start: () => void toast.error(NO_UPLOADS), dismiss: () => {} };

export default function DocumentEditor({ doc, onChange, label, onSave, autoFocus }: DocumentEditorProps) {
  // The extensions are made once; their hooks call the latest props.
  const latest = useRef({ onChange, onSave });
  latest.current = { onChange, onSave };
  const fileInput = useRef<HTMLInputElement>(null);
  const editor = useEditor({
    extensions: editorExtensions({ onFiles: () => noUploads.start(), save: () => latest.current.onSave?.() }),
    content: doc as object,
    autofocus: autoFocus ? "end" : false,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: { attributes: { class: "prose page-editor document-editor" } },
    onUpdate: ({ editor: e }: { editor: Editor }) => latest.current.onChange(e.getJSON() as DocJson),
  });
  return (
    <div className="document-editor-frame">
      <EditorSurface editor={editor} label={label} uploads={noUploads} fileInput={fileInput} />
    </div>
  );
}
