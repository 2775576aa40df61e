import { t } from "elysia";

/** The uploaded avatar's address (users/avatars.ts), or null: draw the generated one. */
const AvatarUrl = t.Union([t.String(), t.Null()], {
  description:
    "The uploaded avatar, /api/media/avatars/{id}?v=<hash> (a new address for each new " +
    "picture); null: none uploaded, show the initials on colour avatarVariant",
});
const AvatarVariant = t.Integer({
  description: "The generated avatar's colour: 0 automatic (from the account id), 1–7 a chosen colour (PUT /api/media/avatars/me/variant)",
});

export const Account = t.Object(
  {
    id: t.String(),
    email: t.String(),
    displayName: t.String(),
    role: t.Integer({
      description: 'Role tier: 0 Member (the built-in role "User"), 1 Admin ("Administrator"), 2 Owner; roleName is the role\'s own name',
    }),
    roleName: t.String(),
    permissions: t.Array(t.String()),
    status: t.Integer({ description: "0 Active, 1 Suspended" }),
    totpEnabled: t.Boolean(),
    avatarUrl: AvatarUrl,
    avatarVariant: AvatarVariant,
    createdAt: t.String({ format: "date-time" }),
  },
  { title: "Account" },
);

export const DirectoryEntry = t.Object(
  { id: t.String(), displayName: t.String(), email: t.String(), avatarUrl: AvatarUrl, avatarVariant: AvatarVariant },
  { title: "DirectoryEntry" },
);

const Operation = t.Integer({ minimum: 0, maximum: 2, description: "0 View, 1 Edit, 2 Admin" });

export const InviteSpace = t.Object(
  { spaceId: t.String(), spaceKey: t.String(), spaceName: t.String(), operation: Operation },
  { title: "InviteSpace", description: "Access to a space the invite gives: a user grant, applied when the invite is accepted" },
);

export const InviteOptions = t.Object(
  {
    roles: t.Array(t.Object({ id: t.String(), name: t.String(), description: t.String(), tier: t.Integer() }), {
      description:
        "Roles the caller may give: none of a higher tier than theirs or holding a " +
        "right theirs lacks, never Owner; the built-in User first",
    }),
    spaces: t.Array(t.Object({ id: t.String(), key: t.String(), name: t.String() }), {
      description: "Spaces the caller administers (not archived): the only ones an invite of theirs may give access to",
    }),
  },
  { title: "InviteOptions" },
);

/** What the register form shows someone holding a valid invite link (GET /api/auth/invite). */
export const InviteDetails = t.Object(
  {
    email: t.Union([t.String(), t.Null()], { description: "The address the invite is for; null: any address" }),
    roleName: t.String(),
    invitedBy: t.Union([t.String(), t.Null()], { description: "The inviter's display name; null when that account is gone" }),
    spaces: t.Array(t.Object({ name: t.String(), operation: Operation })),
    expiresAt: t.String({ format: "date-time" }),
  },
  { title: "InviteDetails" },
);

export const Invite = t.Object(
  {
    id: t.String(),
    email: t.Union([t.String(), t.Null()]),
    roleId: t.String(),
    roleName: t.String(),
    spaces: t.Array(InviteSpace),
    expiresAt: t.String({ format: "date-time" }),
    createdAt: t.String({ format: "date-time" }),
    createdById: t.Union([t.String(), t.Null()]),
  },
  { title: "Invite" },
);

export const CreatedInvite = t.Composite(
  [
    Invite,
    t.Object({
      token: t.String({ description: "Shown once" }),
      path: t.String({ description: "/register?invite=<token>" }),
      emailSent: t.Boolean(),
      emailStatus: t.Union([t.String(), t.Null()]),
    }),
  ],
  { title: "CreatedInvite" },
);
