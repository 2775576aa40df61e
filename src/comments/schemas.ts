import { t } from "elysia";
import { Id } from "../http/schemas";
import { MAX_ANCHOR_BYTES, MAX_BODY_CHARS } from "./service";

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

/**
 * The service counts characters as code points (an emoji is one) and maxLength counts UTF-16
 * units (an emoji is two), so the schema allows twice the rule's number: never less than the
 * rule, and the service refuses the rest, saying how many characters it counted.
 */
const Body = t.String({
  maxLength: 2 * MAX_BODY_CHARS,
  description:
    `Plain text, 1 to ${MAX_BODY_CHARS} characters (Unicode code points, after trimming; the schema's ` +
    `maxLength counts UTF-16 units, two for an emoji); mention someone with @[Name](userId)`,
});

export const NewCommentBody = t.Object({
  body: Body,
  parentCommentId: t.Optional(t.Nullable(Id, { description: "Reply to this thread (a top-level comment of the same page)" })),
  anchorJson: t.Optional(
    // Bytes of UTF-8 are never fewer than UTF-16 units, so the rule's number bounds both.
    t.Nullable(
      t.String({
        maxLength: MAX_ANCHOR_BYTES,
        description:
          `Inline comment: a JSON object recording the passage (at most ${MAX_ANCHOR_BYTES} ` +
          `bytes of UTF-8), stored and returned as sent; not for replies`,
      }),
    ),
  ),
});

export const EditCommentBody = t.Object({ body: Body });
export const CommentParams = t.Object({ id: Id });
