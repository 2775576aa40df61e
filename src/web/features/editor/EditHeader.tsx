/**
 * The page header while editing: the same place and size as when reading (nothing jumps), with
 * the title editable, the emoji and labels changeable at once, and the save buttons.
 */
import { useLayoutEffect, useRef, type ReactNode } from "react";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import type { Page } from "../../api/types";
import { Button } from "../../ui/Button";
import { EmojiPicker } from "./EmojiPicker";
import { LabelsEditor } from "./LabelsEditor";
import { VERSION_COMMENT_MAX } from "../../../common/limits";

export interface EditHeaderProps {
  page: Page;
  title: string;
  onTitle(title: string): void;
  onEnterFromTitle(): void;
  isDraft: boolean;
  comment: string;
  onComment(comment: string): void;
  saving: boolean;
  error: { field?: string; message: string } | null;
  onPrimary(): void;
  onSaveDraft(): void;
  onCancel(): void;
  onDiscardDraft(): void;
  /** Live editing: who is here and the connection, at the start of the actions row. */
  status?: ReactNode;
  /** "Cancel" alone; "Close" when the edits stay in a shared room. */
  cancelLabel?: string;
}

export function EditHeader(p: EditHeaderProps) {
  const titleRef = useRef<HTMLTextAreaElement>(null);
  // The title grows with its text, like the heading it replaces.
  useLayoutEffect(() => {
    const el = titleRef.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${el.scrollHeight}px`;
  }, [p.title]);
  const setEmoji = async (emoji: string | null) => {
    const updated = await data(api.PUT("/api/pages/{id}/emoji", { params: { path: { id: p.page.id } }, body: { emoji } }));
    queryClient.setQueryData(keys.page(p.page.id), updated);
    void queryClient.invalidateQueries({ queryKey: keys.tree(p.page.spaceId) });
  };
  const titleError = p.error?.field === "title" ? p.error.message : null;
  const addEmoji = p.page.emoji ? null : <EmojiPicker value={null} onChange={(e) => void setEmoji(e)} />;
  return (
    <header className="page-head">
      <div className="page-actions edit-actions">
        {p.isDraft ? (
          <>
            <span className="draft-badge">Draft · only you can see it</span>
            {addEmoji}
            <Button size="sm" variant="ghost" onClick={p.onDiscardDraft}>
              Discard draft
            </Button>
            <Button size="sm" onClick={p.onSaveDraft} busy={p.saving}>
              Save draft
            </Button>
            <Button
              size="sm"
              variant="primary"
              onClick={p.onPrimary}
              busy={p.saving}
              aria-keyshortcuts="Control+Enter"
              title="Publish (Ctrl+Enter)"
            >
              Publish
            </Button>
          </>
        ) : (
          <>
            {p.status}
            {addEmoji}
            <input
              className="input comment-input"
              aria-label="What changed (optional)"
              placeholder="What changed? (optional)"
              value={p.comment}
              onChange={(e) => p.onComment(e.target.value)}
              maxLength={VERSION_COMMENT_MAX}
            />
            <Button size="sm" onClick={p.onCancel}>
              {p.cancelLabel ?? "Cancel"}
            </Button>
            <Button
              size="sm"
              variant="primary"
              onClick={p.onPrimary}
              busy={p.saving}
              aria-keyshortcuts="Control+Enter"
              title="Update (Ctrl+Enter)"
            >
              Update
            </Button>
          </>
        )}
      </div>
      {p.error && !titleError ? (
        <p className="form-error" role="alert">
          The page was not saved: {p.error.message} Your changes are still here.
        </p>
      ) : null}
      <div className="title-row">
        {p.page.emoji ? <EmojiPicker value={p.page.emoji} onChange={(e) => void setEmoji(e)} /> : null}
        <textarea
          ref={titleRef}
          className="page-title title-input"
          rows={1}
          aria-label="Title"
          placeholder="Untitled"
          value={p.title}
          aria-invalid={titleError ? true : undefined}
          onChange={(e) => p.onTitle(e.target.value.replace(/\n/g, ""))}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.ctrlKey && !e.metaKey) {
              e.preventDefault();
              p.onEnterFromTitle();
            }
          }}
          autoFocus={!p.title}
        />
      </div>
      {titleError ? (
        <p className="field-error" role="alert">
          Title: {titleError}
        </p>
      ) : null}
      <LabelsEditor pageId={p.page.id} />
    </header>
  );
}
