import { t } from "elysia";
import { Int } from "../http/schemas";
import { DESCRIPTION_MAX, KEY_MAX, NAME_MAX, SPACE_KEY_RULE } from "./service";

const Timestamp = t.String({ format: "date-time" });

export const ExportSwitches = t.Object(
  { markdown: t.Boolean(), html: t.Boolean(), pdf: t.Boolean(), site: t.Boolean(), pack: t.Boolean() },
  { title: "ExportSwitches" },
);

export const SpaceMetadata = t.Object(
  {
    id: t.String(),
    key: t.String({ description: `2 to ${KEY_MAX} letters and digits, upper-case` }),
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
  { title: "SpaceMetadata" },
);

/** The Space answered to a caller: its fields and what that caller may do in it (access/spaces.ts, spaceCapabilities). */
export const Space = t.Object(
  {
    ...SpaceMetadata.properties,
    canEdit: t.Boolean({
      description: "You may create and edit pages in this space now (false while it is archived, and for anonymous readers)",
    }),
    canAdmin: t.Boolean({ description: "You administer this space: its settings, permissions, webhooks and templates" }),
  },
  { title: "Space" },
);

/** POST /api/spaces answers the space and who can see it (service.ts, newSpaceAccess). */
export const CreatedSpace = t.Object(
  {
    ...Space.properties,
    access: t.Object(
      {
        everyone: t.Nullable(
          t.Integer({
            description:
              "What the built-in Everyone group (every signed-in account) may do: 0 View, 1 Edit, 2 Admin; null: nothing (a private space)",
          }),
        ),
        summary: t.String({ description: "Who can see and change the space, in a sentence, and where to change it" }),
      },
      { description: "Who can see the new space: Everyone gets Edit by default" },
    ),
  },
  { title: "CreatedSpace" },
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

export const FreeKey = t.Object(
  {
    key: t.String({ description: "A key no space uses (upper case)" }),
    taken: t.Boolean({ description: "Whether the key wanted was taken (then `key` is the nearest free one)" }),
  },
  { title: "FreeKey" },
);

export const KeyParams = t.Object({ key: t.String({ minLength: 1, maxLength: 100, description: "Space key (any case)" }) });

/**
 * A space named in a query or body (`spaceId`): its id, or its key in any case, as in
 * /api/spaces/{key} (findSpaceByIdOrKey). Answers always carry the id.
 */
export const SpaceRef = t.String({ minLength: 1, maxLength: 100, description: "The space's id, or its key (any case)" });

// Limits are the service's constants (one number per rule), counted as sent; the service
// then refuses what the schema cannot see (a blank value, control characters).
const Name = (required: string) =>
  t.String({ maxLength: NAME_MAX, description: `${required}one line, trimmed, at most ${NAME_MAX} characters` });
const Description = t.String({ maxLength: DESCRIPTION_MAX, description: `Several lines, trimmed, at most ${DESCRIPTION_MAX} characters` });

export const CreateSpaceBody = t.Object({
  key: t.String({ maxLength: KEY_MAX, description: `${SPACE_KEY_RULE}; stored upper-case` }),
  name: Name("Required: "),
  description: t.Optional(Description),
  welcomePage: t.Optional(
    t.Boolean({
      description: "Also make a welcome page explaining the basics, as the space's home page (the web UI sends true); default false",
    }),
  ),
});

export const UpdateSpaceBody = t.Object({
  name: t.Optional(Name("A new name: ")),
  description: t.Optional(Description),
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
