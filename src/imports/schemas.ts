import { t } from "elysia";
import { Space } from "../spaces/schemas";

const Count = (what: string) => t.Integer({ minimum: 0, description: what });

export const ImportQuery = t.Object({
  key: t.Optional(
    t.String({
      maxLength: 100,
      description:
        "The new space's key (2 to 50 letters and digits, starting with a letter). Also accepted as a " +
        "form field, before or after `file` (before: a taken key is refused before the upload is read). " +
        "A pack's own key when none is sent; required for other archives.",
    }),
  ),
  name: t.Optional(
    t.String({
      maxLength: 200,
      description: "The new space's name; the archive's when none is sent. Also accepted as a form field, before or after `file`.",
    }),
  ),
  progress: t.Optional(
    t.String({
      maxLength: 100,
      description: "An id of your choosing (8 to 64 letters, digits, `-`, `_`) to follow the import at GET /api/export-progress/{id}",
    }),
  ),
});

export const ImportAnswer = t.Object(
  {
    space: Space,
    counts: t.Object({
      pages: Count("Pages made"),
      versions: Count("Versions of those pages"),
      comments: Count("Comments"),
      attachments: Count("Attachments"),
      labels: Count("Distinct labels on the pages"),
      templates: Count("Templates of the space"),
    }),
    format: t.Union([t.Literal("cairn-pack"), t.Literal("markdown"), t.Literal("confluence")], { description: "What the archive was" }),
    mapped: t.Array(t.Object({ what: t.String(), count: t.Integer({ minimum: 0 }), reason: t.String() }), {
      description: "What had no exact equivalent and came in as something close",
    }),
    skipped: t.Array(t.Object({ path: t.String(), reason: t.String() }), { description: "What was left out, and why" }),
  },
  { title: "ImportAnswer" },
);

export const importRequestBody = {
  required: true,
  content: {
    "multipart/form-data": {
      schema: {
        type: "object" as const,
        required: ["file"],
        properties: {
          key: {
            type: "string" as const,
            description: "The new space's key (before or after `file`; before, a taken key is refused before the upload is read)",
          },
          name: { type: "string" as const, description: "The new space's name" },
          file: { type: "string" as const, format: "binary", description: "The archive (zip), at most 500 MB (524288000 bytes)" },
        },
      },
    },
  },
};
