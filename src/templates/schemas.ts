import { t } from "elysia";
import { Id } from "../http/schemas";

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

// Generous limits: the service names the real ones (100 and 1,000 characters; 2 MiB of content).
const Name = t.String({ maxLength: 1000, description: "Required, trimmed, at most 100 characters" });
const Description = t.String({ maxLength: 10_000, description: "At most 1,000 characters" });
const ContentJson = t.String({ maxLength: 4 * 1024 * 1024, description: "A document as JSON text, checked like a page body; absent: an empty document" });

export const CreateTemplateBody = t.Object({
  spaceId: t.Optional(t.Nullable(Id, { description: "The space; null or absent: a wiki-wide template" })),
  name: Name,
  description: t.Optional(Description),
  contentJson: t.Optional(ContentJson),
});

export const UpdateTemplateBody = t.Object({ name: t.Optional(Name), description: t.Optional(Description), contentJson: t.Optional(ContentJson) });
export const TemplateQuery = t.Object({ spaceId: t.Optional(Id) });
export const TemplateParams = t.Object({ id: Id });
