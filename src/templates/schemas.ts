import { t } from "elysia";
import { MAX_CONTENT_BYTES } from "../common/limits";
import { Id } from "../http/schemas";
import { SpaceRef } from "../spaces/schemas";
import { DESCRIPTION_MAX, NAME_MAX } from "./service";

const Timestamp = t.String({ format: "date-time" });

export const Template = t.Object(
  {
    id: t.String(),
    spaceId: t.Nullable(t.String({ description: "null for a wiki-wide template" })),
    name: t.String(),
    description: t.String(),
    contentJson: t.String({ description: "The document as JSON text" }),
    createdById: t.Nullable(t.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: "Template" },
);

// The service's limits (one number per rule), counted as sent; the service refuses blank names
// and control characters. Content: checkContentJson's bytes, as for pages (pages/schemas.ts).
const Name = (use: string) => t.String({ maxLength: NAME_MAX, description: `${use}; one line, trimmed, at most ${NAME_MAX} characters` });
const Description = t.String({ maxLength: DESCRIPTION_MAX, description: `Several lines, trimmed, at most ${DESCRIPTION_MAX} characters` });
const ContentJson = t.String({
  maxLength: MAX_CONTENT_BYTES,
  description:
    `A document as JSON text, checked like a page body (at most ${MAX_CONTENT_BYTES / 1024 / 1024} ` +
    `MiB, ${MAX_CONTENT_BYTES} bytes, of UTF-8); absent: an empty document`,
});

export const CreateTemplateBody = t.Object({
  spaceId: t.Optional(t.Nullable(SpaceRef, { description: "The space (its id or key); null or absent: a wiki-wide template" })),
  name: Name("Required"),
  description: t.Optional(Description),
  contentJson: t.Optional(ContentJson),
});

export const UpdateTemplateBody = t.Object({
  name: t.Optional(Name("Optional: absent keeps the name")),
  description: t.Optional(Description),
  contentJson: t.Optional(ContentJson),
});
export const TemplateQuery = t.Object({ spaceId: t.Optional(SpaceRef) });
export const TemplateParams = t.Object({ id: Id });
