/** One thread: its passage, its first comment and replies, and what you may do with them. */
import { useState } from "react";
import type { Page } from "../../api/types";
import { useMe } from "../../app/session";
import { useAction } from "../../lib/mutation";
import { fullDate, timeAgo } from "../../lib/time";
import { Button } from "../../ui/Button";
import { FormError } from "../../ui/Field";
import { toast } from "../../ui/toast";
import { parseAnchor } from "./anchors";
import { CommentComposer } from "./CommentComposer";
import { CommentBody } from "./MentionInput";
import { useCommentMutation, type Comment } from "./queries";
import { PersonAvatar } from "../people/PersonAvatar";

interface ThreadProps {
  page: Page;
  first: Comment;
  replies: Comment[];
  active: boolean;
  detached: boolean;
  onSelect(): void;
}

export function Thread({ page, first, replies, active, detached, onSelect }: ThreadProps) {
  const me = useMe();
  const [replying, setReplying] = useState(false);
  const anchor = parseAnchor(first.anchorJson);
  const comments = useCommentMutation(page.id);
  const mayKeep = !!me.data && (page.canEdit || first.authorId === me.data.id);
  const resolving = useAction(comments, {
    success: (_answer, change) => (change.kind === "resolve" ? "Thread resolved" : "Thread reopened"),
  });
  const error = resolving.error;
  const setResolved = (resolve: boolean) => resolving.run({ kind: resolve ? "resolve" : "reopen", id: first.id });
  return (
    <li id={`thread-${first.id}`} className={`thread${active ? " active" : ""}`} aria-current={active ? "true" : undefined}>
      {anchor ? (
        <button type="button" className="comment-quote as-button" onClick={onSelect} title="Show this passage in the page">
          {anchor.quote}
          {detached ? <span className="detached"> · detached: this passage was edited away</span> : null}
        </button>
      ) : null}
      <OneComment page={page} c={first} />
      {replies.length ? (
        <ol className="replies" aria-label="Replies">
          {replies.map((r) => (
            <li key={r.id}>
              <OneComment page={page} c={r} />
            </li>
          ))}
        </ol>
      ) : null}
      <FormError error={error} />
      {me.data ? (
        replying ? (
          <CommentComposer
            id={`reply-${first.id}`}
            label="Reply"
            submitLabel="Reply"
            autoFocus
            onCancel={() => setReplying(false)}
            onSubmit={async (body) => {
              await comments.mutateAsync({ kind: "post", body, parentCommentId: first.id });
              setReplying(false);
              toast.success("Reply posted");
            }}
          />
        ) : (
          <div className="thread-actions">
            {!first.resolvedAt ? (
              <Button size="sm" variant="ghost" onClick={() => setReplying(true)}>
                Reply
              </Button>
            ) : null}
            {mayKeep ? (
              <Button size="sm" variant="ghost" onClick={() => void setResolved(!first.resolvedAt)}>
                {first.resolvedAt ? "Reopen" : "Resolve"}
              </Button>
            ) : null}
          </div>
        )
      ) : null}
    </li>
  );
}

function OneComment({ page, c }: { page: Page; c: Comment }) {
  const me = useMe();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const mine = !!me.data && c.authorId === me.data.id;
  const comments = useCommentMutation(page.id);
  const removal = useAction(comments, { success: "Comment deleted" });
  const error = removal.error;
  if (c.isDeleted) return <p className="comment-deleted muted">This comment was deleted.</p>;
  const remove = () => removal.run({ kind: "delete", id: c.id });
  return (
    <article className="comment" aria-label={`Comment by ${c.authorName ?? "someone"}`}>
      <header className="comment-head">
        {c.authorId ? <PersonAvatar id={c.authorId} name={c.authorName ?? "Someone"} size={22} /> : null}
        <strong>{c.authorName ?? "Someone"}</strong>
        <time dateTime={c.createdAt} title={fullDate(c.createdAt)}>
          {timeAgo(c.createdAt)}
        </time>
        {c.updatedAt !== c.createdAt ? <span className="muted">(edited)</span> : null}
      </header>
      {editing ? (
        <CommentComposer
          id={`edit-${c.id}`}
          label="Edit comment"
          submitLabel="Save"
          initial={c.body}
          autoFocus
          onCancel={() => setEditing(false)}
          onSubmit={async (body) => {
            await comments.mutateAsync({ kind: "edit", id: c.id, body });
            setEditing(false);
            toast.success("Comment saved");
          }}
        />
      ) : (
        <CommentBody body={c.body} />
      )}
      {mine && !editing ? (
        confirming ? (
          <div className="inline-confirm" role="group" aria-label="Confirm deletion">
            <span>Delete this comment? Its text is gone for everyone.</span>
            <Button size="sm" variant="danger" onClick={() => void remove()}>
              Delete comment
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
              Keep it
            </Button>
          </div>
        ) : (
          <div className="comment-actions">
            <Button size="sm" variant="ghost" onClick={() => setEditing(true)}>
              Edit
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setConfirming(true)}>
              Delete
            </Button>
          </div>
        )
      ) : null}
      <FormError error={error} />
    </article>
  );
}
