import { t } from "elysia";
import { Id } from "../http/schemas";

export const Label = t.Object({ id: t.String(), name: t.String({ description: "Lower-case" }) }, { title: "Label" });

export const LabelWithCount = t.Object(
  { ...Label.properties, pageCount: t.Integer({ description: "Pages carrying it that you can see (published, not in the trash)" }) },
  { title: "LabelWithCount" },
);

export const LabelledPage = t.Object(
  {
    id: t.String(),
    spaceId: t.String(),
    spaceKey: t.String(),
    title: t.String(),
    emoji: t.Nullable(t.String()),
    updatedAt: t.String({ format: "date-time" }),
  },
  { title: "LabelledPage" },
);

/** Generous: the service names the rule (`^[a-z0-9][a-z0-9._-]{0,49}$` after lower-casing). */
const Name = t.String({ maxLength: 1000, description: "1–50 characters: a–z, 0–9, '.', '_', '-', starting with a letter or digit; stored lower-case; no spaces" });

export const LabelBody = t.Object({ name: Name });
export const LabelNameParams = t.Object({ name: Name });
export const PageLabelParams = t.Object({ id: Id, name: Name });
