/**
 * Editing a page alone (live editing is off or out of reach): the editor holds the page read
 * over HTTP. Update (Ctrl/⌘-Enter) saves a new version from the version the edit started at;
 * a draft is saved or published instead. Unsaved edits are kept in the browser until saved,
 * and a save that meets someone else's opens the conflict view.
 */
import { useEditor } from "@tiptap/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useLocation } from "wouter";
import { api, ApiError, parseDoc, type DocJson } from "../../api/client";
import type { Page, Space } from "../../api/types";
import { pagePath } from "../../lib/slug";
import { timeAgo } from "../../lib/time";
import { ConfirmDialog } from "../../ui/Dialog";
import { useAction } from "../../lib/mutation";
import { ConflictDialog } from "./ConflictDialog";
import { TemplateOffer } from "./TemplateOffer";
import { EditHeader } from "./EditHeader";
import { EditorSurface, primaryKeyHandler } from "./EditorSurface";
import { editorExtensions } from "./extensions";
import { dropLocalCopy, readLocalCopy, writeLocalCopy } from "./local-copy";
import { useSavePageMutation } from "./queries";
import { useUploads } from "./useUploads";

export function SoloSession({ page, space, why }: { page: Page; space: Space; why?: string | null }) {
  const [, navigate] = useLocation();
  const isDraft = page.status === 0;
  const restored = useMemo(() => {
    const local = readLocalCopy(page.id);
    return local && (JSON.stringify(local.doc) !== page.contentJson || local.title !== page.title) ? local : null;
  }, [page.id]); // once per page: the restore offer is made when the editor opens
  const [title, setTitle] = useState(restored?.title ?? page.title);
  const [base, setBase] = useState(restored?.base ?? page.currentVersionNumber);
  const [dirty, setDirty] = useState(!!restored);
  const [comment, setComment] = useState("");
  const [conflict, setConflict] = useState<Page | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [notice, setNotice] = useState(restored ? `Restored your unsaved changes from ${timeAgo(restored.savedAt)}.` : null);
  const fileInput = useRef<HTMLInputElement>(null);
  // The editor's extensions are made once; its save key calls the latest save.
  const primaryRef = useRef<() => void>(() => {});
  const uploads = useUploads(page.id);
  const readPath = pagePath(space.key, page.id, title || page.title);
  const state = useRef({ title, base });
  state.current = { title, base };

  const editor = useEditor({
    extensions: editorExtensions({
      onFiles: (e, files, pos) => uploads.start(e, files, pos),
      pickImage: () => fileInput.current?.click(),
      save: () => primaryRef.current(),
    }),
    content: (restored?.doc ?? parseDoc(page.contentJson)) as object,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: { attributes: { class: "prose page-editor" } },
    onUpdate: () => setDirty(true),
  });

  // Kept in the browser a moment after each change, so a reload or a crash loses nothing.
  useEffect(() => {
    if (!dirty) return;
    const timer = setTimeout(
      () =>
        writeLocalCopy(page.id, {
          title: state.current.title,
          doc: editor.getJSON() as DocJson,
          base: state.current.base,
          savedAt: new Date().toISOString(),
        }),
      300,
    );
    return () => clearTimeout(timer);
  });

  const saving = useAction(useSavePageMutation(page.id), {
    single: true,
    // Someone saved meanwhile: the conflict view is the answer, not words.
    onFailure: (err) => {
      if (!(err instanceof ApiError && err.code === "version_conflict")) return;
      setConflict(err.body.current as Page);
      return true;
    },
    done: (saved, save) => {
      dropLocalCopy(page.id);
      setDirty(false);
      setConflict(null);
      if (isDraft && !("publish" in save)) setBase(saved.currentVersionNumber);
      else navigate(pagePath(space.key, saved.id, saved.title));
    },
    success: (saved, save) =>
      isDraft && !("publish" in save)
        ? "Draft saved. Only you can see it until you publish it."
        : isDraft
          ? "Published"
          : `Saved: version ${saved.currentVersionNumber}`,
  });
  const save = (opts: { publish?: boolean; base?: number } = {}) => {
    const contentJson = JSON.stringify(editor.getJSON());
    void saving.run(
      isDraft && opts.publish
        ? { publish: { title: title.trim(), contentJson } }
        : {
            put: {
              ...(title.trim() || isDraft ? { title } : {}),
              contentJson,
              ...(comment.trim() ? { changeComment: comment.trim() } : {}),
              baseVersion: opts.base ?? base,
            },
          },
    );
  };

  const primary = () => void save({ publish: isDraft });
  primaryRef.current = primary;
  const cancel = () => (dirty ? setLeaving(true) : leave());
  const leave = () => {
    dropLocalCopy(page.id);
    navigate(isDraft ? `/s/${space.key}` : readPath);
  };
  const discardDraft = async () => {
    await api.DELETE("/api/pages/{id}/draft", { params: { path: { id: page.id } } });
    dropLocalCopy(page.id);
    navigate(`/s/${space.key}`);
  };

  useEffect(() => {
    const onKey = primaryKeyHandler(primary, !!conflict);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  return (
    <div className="edit-session">
      <EditHeader
        page={page}
        title={title}
        onTitle={(t) => {
          setTitle(t);
          setDirty(true);
        }}
        onEnterFromTitle={() => {
          // TipTap's focus waits a frame; keys typed meanwhile would land in the title.
          editor.view.dom.focus();
          editor.commands.focus("start");
        }}
        isDraft={isDraft}
        comment={comment}
        onComment={setComment}
        saving={saving.busy}
        error={saving.error ? { field: saving.fieldError("title") ? "title" : undefined, message: saving.error } : null}
        onPrimary={primary}
        onSaveDraft={() => void save()}
        onCancel={cancel}
        onDiscardDraft={() => void discardDraft()}
      />
      {notice ? (
        <p className="edit-notice" role="status">
          {notice}{" "}
          <button
            type="button"
            className="link-button"
            onClick={() => {
              dropLocalCopy(page.id);
              editor.commands.setContent(parseDoc(page.contentJson) as object);
              setTitle(page.title);
              setBase(page.currentVersionNumber);
              setDirty(false);
              setNotice(null);
            }}
          >
            Discard them
          </button>
        </p>
      ) : null}
      {why ? (
        <p className="edit-notice" role="status">
          {why}
        </p>
      ) : null}
      {isDraft ? <TemplateOffer editor={editor} /> : null}
      <EditorSurface editor={editor} label="Page content" uploads={uploads} fileInput={fileInput} />
      {conflict ? (
        <ConflictDialog
          editor={editor}
          theirs={conflict}
          busy={saving.busy}
          onClose={() => setConflict(null)}
          choice={{
            keepMine: () => {
              setBase(conflict.currentVersionNumber);
              void save({ base: conflict.currentVersionNumber, publish: isDraft });
            },
            takeTheirs: () => {
              editor.commands.setContent(parseDoc(conflict.contentJson) as object);
              setTitle(conflict.title);
              setBase(conflict.currentVersionNumber);
              setConflict(null);
            },
          }}
        />
      ) : null}
      <ConfirmDialog
        open={leaving}
        onOpenChange={setLeaving}
        title="Discard your changes?"
        description="The changes you made since the last save will be lost."
        confirmLabel="Discard changes"
        onConfirm={leave}
      />
    </div>
  );
}
