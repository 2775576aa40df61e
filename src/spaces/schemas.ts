import { t } from "elysia";
import { Int } from "../http/schemas";

const Timestamp = t.String({ format: "date-time" });

export const ExportSwitches = t.Object(
  { markdown: t.Boolean(), html: t.Boolean(), pdf: t.Boolean(), site: t.Boolean(), pack: t.Boolean() },
  { title: "ExportSwitches" },
);

export const Space = t.Object(
  {
    id: t.String(),
    key: t.String({ description: "2 to 50 letters and digits, upper-case" }),
    name: t.String(),
    description: t.String(),
    isPublic: t.Boolean(),
    publicComments: t.Boolean(),
    archived: t.Boolean(),
    archivedAt: t.Nullable(Timestamp),
    iconKind: t.Integer({ description: "0 Generated, 1 Emoji, 2 Image" }),
    iconValue: t.Nullable(t.String()),
    iconColor: t.Nullable(t.String()),
    treeStyle: t.Integer({ description: "0 Plain, 1 Numbered, 2 Bulleted" }),
    exports: ExportSwitches,
    homepageId: t.Nullable(t.String()),
    createdById: t.Nullable(t.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: "Space" },
);

export const DeletionPreview = t.Object(
  {
    key: t.String(),
    name: t.String(),
    pages: t.Integer({ description: "Every page, drafts and trash included" }),
    drafts: t.Integer(),
    trashed: t.Integer(),
    versions: t.Integer(),
    attachments: t.Integer(),
    bytes: t.Integer({ description: "Size of the attachments" }),
  },
  { title: "SpaceDeletionPreview" },
);

export const KeyParams = t.Object({ key: t.String({ minLength: 1, maxLength: 100, description: "Space key (any case)" }) });

export const CreateSpaceBody = t.Object({
  key: t.String({ maxLength: 100, description: "2 to 50 letters and digits, starting with a letter; stored upper-case" }),
  name: t.String({ maxLength: 500 }),
  description: t.Optional(t.String({ maxLength: 5000 })),
});

export const UpdateSpaceBody = t.Object({
  name: t.Optional(t.String({ maxLength: 500 })),
  description: t.Optional(t.String({ maxLength: 5000 })),
  iconKind: t.Optional(Int({ minimum: 0, maximum: 2, description: "0 Generated, 1 Emoji, 2 Image" })),
  iconValue: t.Optional(t.Nullable(t.String({ maxLength: 200 }))),
  iconColor: t.Optional(t.Nullable(t.String({ maxLength: 20, description: "#rrggbb" }))),
  treeStyle: t.Optional(Int({ minimum: 0, maximum: 2, description: "0 Plain, 1 Numbered, 2 Bulleted" })),
});

export const ExportsBody = t.Partial(ExportSwitches);

export const DeleteSpaceBody = t.Object({
  confirmKey: t.String({ maxLength: 100, description: "The space key, typed again" }),
  password: t.Optional(t.String({ maxLength: 1024 })),
  code: t.Optional(t.String({ maxLength: 20, description: "A two-factor code (not accepted yet)" })),
});
