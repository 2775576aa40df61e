import { t } from "elysia";
import { Id } from "../http/schemas";
import { LABEL_NAME_MAX } from "./names";

export const Label = t.Object({ id: t.String(), name: t.String({ description: "As stored: NFKC, lower-case" }) }, { title: "Label" });

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

/** Generous: the rule is checked on the folded name, and names.ts answers it with the field. */
const Name = t.String({
  maxLength: 1000,
  description:
    `1–${LABEL_NAME_MAX} characters after folding: letters and digits of any script, '.', '_', '-', starting with a letter or digit; ` +
    `no spaces, symbols or emoji. Stored NFKC and lower-case (ΟΔΟΣ, Οδος and οδοσ are οδος; İ is i; ß stays ß)`,
});

export const LabelBody = t.Object({ name: Name });
export const LabelNameParams = t.Object({ name: Name });
export const PageLabelParams = t.Object({ id: Id, name: Name });
