import { t } from "elysia";
import { Int } from "../http/schemas";
import { ALL_RIGHTS, OWNER_RESERVED_RIGHTS, RIGHT_AREAS } from "../identity/rights";
import { ROLE_DESCRIPTION_MAX, ROLE_NAME_MAX } from "./service";

const RightKey = t.String({ maxLength: 100, description: `A right key: ${ALL_RIGHTS.join(", ")}` });

export const RoleOut = t.Object(
  {
    id: t.String(),
    name: t.String(),
    description: t.String(),
    tier: t.Integer({ description: "0 Member, 1 Admin, 2 Owner" }),
    builtIn: t.Boolean({ description: "User, Administrator and Owner: cannot be deleted or renamed; can be reset to their defaults" }),
    permissions: t.Array(t.String(), { description: "The rights the role holds, in catalogue order" }),
    accounts: t.Integer({ description: "How many accounts (any status) hold the role" }),
    reserved: t.Array(t.String(), {
      description: `Rights that can never be removed from this role (the Owner's: ${OWNER_RESERVED_RIGHTS.join(", ")}); empty for others`,
    }),
    defaults: t.Nullable(t.Array(t.String()), {
      description: "A built-in role's default rights (what reset gives back); null for a custom role",
    }),
  },
  { title: "Role" },
);

export const RolesAnswer = t.Object(
  {
    roles: t.Array(RoleOut, { description: "Built-in roles first (User, Administrator, Owner), then custom roles by name" }),
    areas: t.Array(t.String(), { description: `The areas rights are grouped by, in the matrix's order: ${RIGHT_AREAS.join(", ")}` }),
    rights: t.Array(t.Object({ key: t.String(), area: t.String(), description: t.String() }, { title: "Right" }), {
      description: "The rights catalogue",
    }),
    reviewedAt: t.Nullable(t.String({ description: "When the matrix was last marked reviewed" })),
    reviewedBy: t.Nullable(
      t.Object({ id: t.String(), displayName: t.String() }, { description: "Who marked it (null if never, or the account is gone)" }),
    ),
  },
  { title: "Roles" },
);

const Name = t.String({
  maxLength: ROLE_NAME_MAX + 50,
  description: `One line, 1 to ${ROLE_NAME_MAX} characters once spaces collapse; unique, whatever the case`,
});
const Description = t.String({ maxLength: ROLE_DESCRIPTION_MAX + 50, description: `One line, at most ${ROLE_DESCRIPTION_MAX} characters` });

export const NewRoleBody = t.Object({
  name: Name,
  description: t.Optional(Description),
  tier: Int({
    minimum: 0,
    maximum: 1,
    description: "0 Member or 1 Admin (a custom role cannot be of the Owner tier, nor above the caller's own)",
  }),
  copyFrom: t.Optional(t.String({ maxLength: 100, description: "A role id whose rights the new role starts with (otherwise none)" })),
});

export const RoleChange = t.Object({ name: t.Optional(Name), description: t.Optional(Description) });

export const PermissionsBody = t.Object({
  permissions: t.Array(RightKey, {
    maxItems: 200,
    description: "The whole list of rights the role is to hold; unknown keys are a 400 naming them",
  }),
});

export const ReviewAnswer = t.Object(
  { reviewedAt: t.String(), reviewedBy: t.Object({ id: t.String(), displayName: t.String() }) },
  { title: "RolesReview" },
);
