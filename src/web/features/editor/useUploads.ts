/**
 * Files pasted, dropped or picked into the editor: each uploads with its progress shown, then
 * becomes an image (pictures) or an attachment chip (anything else) where it was put.
 */
import type { Editor } from "@tiptap/core";
import { useCallback, useState } from "react";
import { uploadFile } from "./upload";

export interface UploadState {
  id: number;
  name: string;
  progress: number;
  error: string | null;
}

let nextId = 1;

export function useUploads(pageId: string) {
  const [uploads, setUploads] = useState<UploadState[]>([]);
  const patch = (id: number, change: Partial<UploadState>) => setUploads((all) => all.map((u) => (u.id === id ? { ...u, ...change } : u)));
  const start = useCallback(
    (editor: Editor, files: File[], pos?: number) => {
      // Where the files were put: the caret now, not wherever it is when the upload ends.
      const at = pos ?? editor.state.selection.to;
      for (const file of files) {
        const id = nextId++;
        setUploads((all) => [...all, { id, name: file.name, progress: 0, error: null }]);
        uploadFile(pageId, file, (progress) => patch(id, { progress })).then(
          (att) => {
            const node = att.contentType.startsWith("image/")
              ? { type: "image", attrs: { src: `/api/attachments/${att.id}/view`, alt: att.filename } }
              : {
                  type: "attachment",
                  attrs: { attachmentId: att.id, filename: att.filename, size: att.size, contentType: att.contentType },
                };
            editor.chain().focus().insertContentAt(Math.min(at, editor.state.doc.content.size), node).run();
            setUploads((all) => all.filter((u) => u.id !== id));
          },
          (err: Error) => patch(id, { error: err.message }),
        );
      }
    },
    [pageId],
  );
  const dismiss = (id: number) => setUploads((all) => all.filter((u) => u.id !== id));
  return { uploads, start, dismiss };
}
