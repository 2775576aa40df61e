import { t } from "elysia";
import { MAX_MARKDOWN_BYTES } from "../content/markdown";
import { MAX_CONTENT_BYTES } from "../common/limits";
import { Id, Int } from "../http/schemas";
import { SpaceRef } from "../spaces/schemas";
import { COMMENT_MAX, TITLE_MAX } from "./input";
import { RECENT_DEFAULT, RECENT_MAX } from "./recent";

const Timestamp = t.String({ format: "date-time" });
/**
 * checkContentJson's limit is bytes of UTF-8; a text within it has at most as many UTF-16 units
 * (what maxLength counts), so the same number refuses nothing valid. Larger multi-byte text is
 * refused by checkContentJson, which says so in bytes.
 */
const ContentJson = t.String({
  maxLength: MAX_CONTENT_BYTES,
  description:
    `The page document as JSON text (a TipTap/ProseMirror doc), at most ` +
    `${MAX_CONTENT_BYTES / 1024 / 1024} MiB, ${MAX_CONTENT_BYTES} bytes, of UTF-8`,
});
/** The same reasoning as ContentJson's: checkContentMarkdown counts the real limit in bytes. */
const ContentMarkdown = t.String({
  maxLength: MAX_MARKDOWN_BYTES,
  description:
    `The page document as Markdown instead of contentJson (send one of them; both is a 400), at most ` +
    `${MAX_MARKDOWN_BYTES / 1024 / 1024} MiB, ${MAX_MARKDOWN_BYTES} bytes, of UTF-8. ` +
    'CommonMark with GFM tables, task lists and ~~strikethrough~~, plus ++underline++, ==highlight==, mentions `[@ id="…" label="…"]`, ' +
    'panels `:::panel {kind="warning"}` … `:::`, expands `:::details` / `:::detailsSummary` / ' +
    '`:::detailsContent` and attachments `:::attachment {attachmentId="…" filename="…"} :::`. ' +
    "It is converted with the editor's schema and then checked exactly like contentJson (a 400 on " +
    "contentMarkdown says why). Raw HTML is kept as the literal text typed. " +
    "GET /api/pages/{id}/markdown gives a page in the same form.",
  examples: [
    "# Release 2.4\n\n- [x] Search finds **fragments**\n- [ ] Export to " +
      '[PDF](https://example.com/pdf)\n\n:::panel {kind="warning"}\n\nDeploy after 18:00.\n\n:::\n',
  ],
});
/** The limit is cleanTitle's (input.ts), counted as sent; the service refuses blank titles and control characters. */
const Title = (use: string) =>
  t.String({ maxLength: TITLE_MAX, description: `${use}; one line, trimmed, at most ${TITLE_MAX} characters` });
const ParentId = t.Nullable(Id, { description: "A page of the same space; null or absent: the top level" });

export const Page = t.Object(
  {
    id: t.String(),
    spaceId: t.String(),
    parentPageId: t.Nullable(t.String()),
    title: t.String(),
    contentJson: t.String({ description: "The document as JSON text" }),
    currentVersionNumber: t.Integer({ description: "Send it back as baseVersion for a safe update" }),
    position: t.Integer({ description: "Order among siblings, from 0" }),
    status: t.Integer({ description: "0 Draft, 1 Published" }),
    emoji: t.Nullable(t.String()),
    fullWidth: t.Boolean(),
    createdById: t.Nullable(t.String()),
    updatedById: t.Nullable(t.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: t.Nullable(Timestamp, { description: "Set while the page is in the trash" }),
    canEdit: t.Boolean({ description: "Whether you may change this page" }),
  },
  { title: "Page" },
);

export const Version = t.Object(
  {
    versionNumber: t.Integer(),
    title: t.String(),
    changeComment: t.Nullable(t.String()),
    authorId: t.Nullable(t.String()),
    authorName: t.Nullable(t.String()),
    createdAt: Timestamp,
    contributors: t.Array(t.Object({ id: t.String(), name: t.String() }), {
      description:
        "The people whose changes this version published, in the order they first made them: everyone with " +
        "unpublished changes in the shared working copy when it was published (the author need not be one " +
        "of them). A version published otherwise credits its author alone.",
    }),
  },
  { title: "Version" },
);

export const VersionWithContent = t.Object({ ...Version.properties, contentJson: t.String() }, { title: "VersionWithContent" });

export const TreeNode = t.Recursive(
  (Self) =>
    t.Object({
      id: t.String(),
      title: t.String(),
      emoji: t.Nullable(t.String()),
      position: t.Integer(),
      readOnly: t.Optional(
        t.Literal(true, {
          description:
            "Present only when true: an Edit restriction at or above this page leaves the caller out, who may " +
            "read it but not change it (the tree offers no new page, moves or menu there)",
        }),
      ),
      children: t.Array(Self),
    }),
  { $id: "TreeNode", title: "TreeNode" },
);

export const TrashEntry = t.Object(
  {
    id: t.String(),
    spaceId: t.String(),
    parentPageId: t.Nullable(t.String()),
    title: t.String(),
    emoji: t.Nullable(t.String()),
    status: t.Integer(),
    deletedAt: Timestamp,
    deletedById: t.Nullable(t.String()),
    deletedByName: t.Nullable(t.String()),
    pageCount: t.Integer({ description: "Pages trashed with it, itself included" }),
  },
  { title: "TrashEntry" },
);

export const PageParams = t.Object({ id: Id });
export const VersionParams = t.Object({ id: Id, number: t.Integer({ minimum: 1 }) });

export const CreatePageBody = t.Object({
  spaceId: SpaceRef,
  parentPageId: t.Optional(ParentId),
  title: Title("Required"),
  contentJson: t.Optional(ContentJson),
  contentMarkdown: t.Optional(ContentMarkdown),
});

export const UpdatePageBody = t.Object({
  title: t.Optional(Title("Optional: absent keeps the title; a draft's may be blank")),
  contentJson: t.Optional(ContentJson),
  contentMarkdown: t.Optional(ContentMarkdown),
  contentFrom: t.Optional(
    t.Literal("room", {
      description:
        "Publish the page's shared editing room as this version: the server takes the room's document (tracked changes accepted). " +
        "Exclusive with contentJson and contentMarkdown; 409 `room_not_open` when nobody has the page open",
    }),
  ),
  changeComment: t.Optional(
    t.Nullable(t.String({ maxLength: COMMENT_MAX, description: `What changed, at most ${COMMENT_MAX} characters` })),
  ),
  baseVersion: t.Optional(Int({ minimum: 1, description: "The currentVersionNumber you started from; another value is 409" })),
  seenAuthors: t.Optional(
    t.Array(Id, {
      maxItems: 1000,
      description:
        "With contentFrom: the people whose unpublished changes you were shown (GET /api/pages/{id}/unpublished). Anyone else " +
        "found with changes in the room is 409 `unseen_changes` (with `authors`), and nothing is published. Absent: not checked.",
    }),
  ),
});

export const MoveBody = t.Object({
  parentPageId: t.Optional(
    t.Nullable(Id, { description: "null: the top level; absent: the same parent (or the top level of another space)" }),
  ),
  index: t.Optional(Int({ minimum: 0, description: "Position among the new siblings; absent or too large: last" })),
  spaceId: t.Optional(SpaceRef),
});

export const CopyBody = t.Object({
  spaceId: t.Optional(SpaceRef),
  parentPageId: t.Optional(
    t.Nullable(Id, { description: "null: the top level; absent: beside the source (or the top level of another space)" }),
  ),
  includeChildren: t.Optional(t.Boolean()),
});

export const EmojiBody = t.Object({ emoji: t.Nullable(t.String({ maxLength: 64, description: "One emoji; null removes it" })) });
export const LayoutBody = t.Object({ fullWidth: t.Boolean() });
export const TickTaskBody = t.Object({
  index: Int({ minimum: 0, description: "The task's place among the page's tasks (task-list items), in document order, from 0" }),
  checked: t.Boolean({ description: "Ticked (true) or not" }),
  baseVersion: t.Optional(
    Int({
      minimum: 1,
      description: "The currentVersionNumber the reader saw; another value is 409 (the index may name another task by now)",
    }),
  ),
});
export const PublishBody = t.Object({
  title: Title("Required"),
  contentJson: t.Optional(ContentJson),
  contentMarkdown: t.Optional(ContentMarkdown),
});
export const DraftBody = t.Object({ spaceId: SpaceRef, parentPageId: t.Optional(ParentId) });
export const SpaceQuery = t.Object({ spaceId: SpaceRef });
export const RecentQuery = t.Object({
  spaceId: SpaceRef,
  limit: t.Optional(
    t.Integer({
      description: `How many, 1 to ${RECENT_MAX}; default ${RECENT_DEFAULT}`,
      error: `must be a whole number from 1 to ${RECENT_MAX}`,
    }),
  ),
});

export const RecentPage = t.Object(
  {
    id: t.String(),
    title: t.String(),
    emoji: t.Nullable(t.String()),
    parentPageId: t.Nullable(t.String()),
    updatedAt: Timestamp,
    updatedById: t.Nullable(t.String()),
    updatedByName: t.Nullable(t.String()),
  },
  { title: "RecentPage" },
);

export const TrashQuery = t.Object({ spaceId: t.Optional(SpaceRef) });
