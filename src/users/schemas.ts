import { t } from "elysia";

/** The uploaded avatar's address (users/avatars.ts), or null: draw the generated one. */
const AvatarUrl = t.Union([t.String(), t.Null()], { description: "The uploaded avatar, /api/media/avatars/{id}?v=<hash> (a new address for each new picture); null: none uploaded, show the initials on colour avatarVariant" });
const AvatarVariant = t.Integer({ description: "The generated avatar's colour: 0 automatic (from the account id), 1–7 a chosen colour (PUT /api/media/avatars/me/variant)" });

export const Account = t.Object(
  {
    id: t.String(),
    email: t.String(),
    displayName: t.String(),
    role: t.Integer({ description: "Role tier: 0 Member (the built-in role \"User\"), 1 Admin (\"Administrator\"), 2 Owner; roleName is the role's own name" }),
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

export const DirectoryEntry = t.Object({ id: t.String(), displayName: t.String(), email: t.String(), avatarUrl: AvatarUrl, avatarVariant: AvatarVariant }, { title: "DirectoryEntry" });

export const Invite = t.Object(
  {
    id: t.String(),
    email: t.Union([t.String(), t.Null()]),
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
