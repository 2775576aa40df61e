/**
 * The comments panel: a new comment (on the whole page, or on the passage just selected), then
 * the threads, open first; each thread's first comment quotes its passage, or says it is
 * detached when the words were edited away. Replies, edit and delete (your own), resolve/reopen.
 */
import { useEffect, useState } from "react";
import { useMe } from "../../app/session";
import { EmptyState } from "../../ui/EmptyState";
import { FormError } from "../../ui/Field";
import { toast } from "../../ui/toast";
import { Button } from "../../ui/Button";
import { parseAnchor } from "./anchors";
import { CommentComposer } from "./CommentComposer";
import { Thread } from "./Thread";
import type { PagePanelProps } from "./types";
import { useCommentMutation, useComments, type Comment } from "./queries";

export function CommentsSection({ page, state, draftAnchor, onDraftDone, found }: PagePanelProps) {
  const me = useMe();
  const comments = useComments(page.id);
  const [showResolved, setShowResolved] = useState(false);
  const threads = groupThreads(comments.data ?? []);
  const open = threads.filter((t) => !t.first.resolvedAt);
  const resolved = threads.filter((t) => t.first.resolvedAt);
  const shown = showResolved ? resolved : open;

  // A link to a resolved thread shows the resolved ones; the chosen thread scrolls into view.
  useEffect(() => {
    if (!state.commentId) return;
    if (resolved.some((t) => t.first.id === state.commentId)) setShowResolved(true);
    document.getElementById(`thread-${state.commentId}`)?.scrollIntoView({ block: "nearest" });
  }, [state.commentId, comments.data, showResolved]); // eslint-disable-line react-hooks/exhaustive-deps

  const commenting = useCommentMutation(page.id);
  const post = async (body: string) => {
    await commenting.mutateAsync({ kind: "post", body, anchorJson: draftAnchor ? JSON.stringify(draftAnchor) : null }).then((answer) => {
      const c = answer as Comment;
      onDraftDone();
      setShowResolved(false);
      state.open("comments", c.id);
      toast.success("Comment posted");
    });
  };

  // The box is there at once, before the threads arrive: what is typed goes into it.
  return (
    <div className="comments">
      {me.data ? (
        <CommentComposer
          key={draftAnchor ? draftAnchor.quote : "page"}
          id="new-comment"
          label={draftAnchor ? "Comment on the selected passage" : "Comment on this page"}
          quote={draftAnchor?.quote}
          onCancel={draftAnchor ? onDraftDone : undefined}
          submitLabel="Comment"
          onSubmit={post}
          // Opening the comments (not a link to one thread) puts the caret in the box, so what is
          // typed next is the comment, never a shortcut of the page ("e" would open the editor).
          autoFocus={!!draftAnchor || !state.commentId}
        />
      ) : null}
      {comments.isPending ? (
        <p className="muted">Loading comments…</p>
      ) : comments.error ? (
        <FormError error={comments.error.message} />
      ) : (
        <>
          <div className="comment-filter" role="group" aria-label="Which threads">
            <Button
              size="sm"
              variant={showResolved ? "ghost" : "secondary"}
              aria-pressed={!showResolved}
              onClick={() => setShowResolved(false)}
            >
              Open ({open.length})
            </Button>
            <Button
              size="sm"
              variant={showResolved ? "secondary" : "ghost"}
              aria-pressed={showResolved}
              onClick={() => setShowResolved(true)}
            >
              Resolved ({resolved.length})
            </Button>
          </div>
          {shown.length === 0 ? (
            showResolved ? (
              <EmptyState title="No resolved threads">
                When a discussion is settled, “Resolve” files it here; it can be reopened.
              </EmptyState>
            ) : (
              <EmptyState title="No comments yet">
                Write one above, or select a few words of the page and choose “Comment” to discuss just that passage.
              </EmptyState>
            )
          ) : (
            <ol className="thread-list">
              {shown.map((t) => (
                <Thread
                  key={t.first.id}
                  page={page}
                  first={t.first}
                  replies={t.replies}
                  active={state.commentId === t.first.id}
                  detached={!!parseAnchor(t.first.anchorJson) && found !== null && !found.has(t.first.id)}
                  onSelect={() => state.open("comments", t.first.id)}
                />
              ))}
            </ol>
          )}
        </>
      )}
    </div>
  );
}

export function groupThreads(all: Comment[]): Array<{ first: Comment; replies: Comment[] }> {
  const threads: Array<{ first: Comment; replies: Comment[] }> = [];
  for (const c of all) {
    if (!c.parentCommentId) threads.push({ first: c, replies: [] });
    else threads.find((t) => t.first.id === c.parentCommentId)?.replies.push(c);
  }
  return threads;
}
