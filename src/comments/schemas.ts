import { t } from "elysia";
import { Id } from "../http/schemas";

const Timestamp = t.String({ format: "date-time" });

export const Comment = t.Object(
  {
    id: t.String(),
    pageId: t.String(),
    parentCommentId: t.Nullable(t.String({ description: "The thread's first comment; null for that first comment" })),
    body: t.String({ description: "Plain text; mentions are written @[Name](userId); empty when deleted" }),
    anchorJson: t.Nullable(t.String({ description: "The anchored passage, as sent; null for a whole-page comment" })),
    authorId: t.Nullable(t.String()),
    authorName: t.Nullable(t.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    resolvedAt: t.Nullable(Timestamp),
    resolvedById: t.Nullable(t.String()),
    isDeleted: t.Boolean({ description: "A deleted comment kept because it has replies (no body, no author)" }),
  },
  { title: "Comment" },
);

/** Generous in UTF-16 units; the service counts the real limit (10,000 characters) and says so. */
const Body = t.String({ maxLength: 100_000, description: "Plain text, 1–10,000 characters; mention someone with @[Name](userId)" });

export const NewCommentBody = t.Object({
  body: Body,
  parentCommentId: t.Optional(t.Nullable(Id, { description: "Reply to this thread (a top-level comment of the same page)" })),
  anchorJson: t.Optional(
    t.Nullable(t.String({ maxLength: 100_000, description: "Inline comment: a JSON object recording the passage (at most 10,000 bytes), stored and returned as sent; not for replies" })),
  ),
});

export const EditCommentBody = t.Object({ body: Body });
export const CommentParams = t.Object({ id: Id });
