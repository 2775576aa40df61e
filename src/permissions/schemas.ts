import { t } from "elysia";
import { Id, Int } from "../http/schemas";

const Timestamp = t.String({ format: "date-time" });
const PrincipalType = Int({ minimum: 0, maximum: 1, description: "0 User, 1 Group" });
const PrincipalId = t.String({ minLength: 1, maxLength: 100, description: "An account id (type 0) or a group id (type 1)" });

export const Grant = t.Object(
  {
    id: t.String(),
    principalType: t.Integer({ description: "0 User, 1 Group" }),
    principalId: t.String(),
    principalName: t.Nullable(t.String({ description: "The account's display name or the group's name" })),
    operation: t.Integer({ description: "0 View, 1 Edit, 2 Admin (a higher one implies the lower)" }),
    createdAt: Timestamp,
  },
  { title: "Grant" },
);

export const GrantBody = t.Object({
  principalType: PrincipalType,
  principalId: PrincipalId,
  operation: Int({ minimum: 0, maximum: 2, description: "0 View, 1 Edit, 2 Admin" }),
});

export const Restriction = t.Object(
  {
    id: t.String(),
    pageId: t.String({ description: "The page it is set on" }),
    inherited: t.Boolean({ description: "Set on an ancestor (remove it there)" }),
    operation: t.Integer({ description: "0 View, 1 Edit" }),
    principalType: t.Integer({ description: "0 User, 1 Group" }),
    principalId: t.String(),
    principalName: t.Nullable(
      t.String({ description: "Null when the account or group was deleted (only space admins then pass the restriction)" }),
    ),
    createdAt: Timestamp,
  },
  { title: "Restriction" },
);

export const RestrictionBody = t.Object({
  principalType: PrincipalType,
  principalId: PrincipalId,
  operation: Int({
    minimum: 0,
    maximum: 1,
    description: "0 View (hides the page and its subtree from everyone not named), 1 Edit (only those named edit)",
  }),
});

export const GrantParams = t.Object({ key: t.String({ minLength: 1, maxLength: 100 }), id: Id });
export const PageIdParams = t.Object({ id: Id });
export const RestrictionParams = t.Object({ id: Id, restrictionId: Id });
export const ClearQuery = t.Object({
  operation: t.Optional(t.Integer({ minimum: 0, maximum: 1, description: "Only View (0) or only Edit (1); absent: both" })),
});
