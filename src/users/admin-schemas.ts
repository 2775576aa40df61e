/**
 * Shapes of /api/admin/users. Plain TypeBox (not http/schemas.ts: this file sits in the users
 * layer); Int is a JSON number only, as http/schemas.ts's Int.
 */
import { Type, type IntegerOptions } from "@sinclair/typebox";
import { t } from "elysia";

const Int = (options?: IntegerOptions) => Type.Integer(options);

export const UserIdParams = t.Object({ userId: t.String({ minLength: 1, maxLength: 100, description: "UUIDv7" }) });

export const AdminUser = t.Object(
  {
    id: t.String(),
    email: t.String(),
    displayName: t.String(),
    avatarUrl: t.Union([t.String(), t.Null()], {
      description: "The uploaded picture (GET /api/media/avatars/{userId}); null: the generated avatar, initials on colour avatarVariant",
    }),
    avatarVariant: t.Integer({ description: "Which generated avatar: 0 automatic (from the id), 1-7 a chosen colour" }),
    role: t.Integer({ description: "Role tier: 0 Member, 1 Admin, 2 Owner" }),
    roleId: t.String(),
    roleName: t.String(),
    status: t.Integer({ description: "0 Active, 1 Suspended" }),
    isOwner: t.Boolean({ description: "The one owner: nobody can act on this account here; only the owner can hand ownership on" }),
    twoFactorEnabled: t.Boolean(),
    recoveryCodesLeft: t.Union([t.Integer(), t.Null()], {
      description:
        "Two-factor recovery codes not yet used; null while two-factor is off (two-factor sign-in " +
        "arrives with the account security issue, so always null for now)",
    }),
    lastSeenAt: t.Union([t.String({ format: "date-time" }), t.Null()], {
      description:
        "The latest use of any of the account's live sessions or API tokens; null when " +
        "none has been used (sessions that ended are forgotten)",
    }),
    failedSignIns: t.Integer({ description: "Wrong passwords since the account's last successful sign-in or lock" }),
    lockedUntil: t.Union([t.String({ format: "date-time" }), t.Null()], {
      description:
        "When the account's sign-in lock ends: the lock for every address, or else the " +
        "latest lock for one address; null when nothing is locked",
    }),
    lockScope: t.Union([t.Literal("account"), t.Literal("address"), t.Null()], {
      description: "account: locked for every address; address: for some client addresses only",
    }),
    createdAt: t.String({ format: "date-time" }),
  },
  { title: "AdminUser" },
);

export const RoleChange = t.Object(
  {
    role: t.Optional(
      Int({
        minimum: 0,
        maximum: 2,
        description: "A tier: 0 gives the built-in User role, 1 Administrator; 2 (Owner) is given only by transfer-ownership",
      }),
    ),
    roleId: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 100,
        description: "A role's id (built-in or custom, GET /api/admin/roles); send role or roleId, not both",
      }),
    ),
  },
  { title: "RoleChange" },
);

export const StatusChange = t.Object(
  { status: Int({ minimum: 0, maximum: 1, description: "0 Active, 1 Suspended (ends every session and stops every API token at once)" }) },
  { title: "StatusChange" },
);

export const ResetLink = t.Object(
  {
    token: t.String({ description: "Shown once: only its SHA-256 is kept" }),
    path: t.String({ description: "/reset-password?token=<token>: give it to the person (the web UI's screen that sets a new password)" }),
    url: t.Union([t.String(), t.Null()], {
      description: "The whole link when the server knows its public address (--base-url); null otherwise",
    }),
    expiresAt: t.String({ format: "date-time" }),
    emailed: t.Boolean({ description: "Whether the link was e-mailed to the person: always false until e-mail sending exists" }),
    emailStatus: t.String({ description: "Why it was or was not e-mailed, in words for the administrator" }),
  },
  { title: "ResetLink" },
);

export const Revoked = t.Object({ count: t.Integer({ description: "How many sessions or tokens were ended" }) }, { title: "Revoked" });

export const InviteEmailStatus = t.Object(
  {
    enabled: t.Boolean({ description: "Whether invites can be e-mailed" }),
    reason: t.Union([t.String(), t.Null()], { description: "Why not, in words for the administrator" }),
  },
  { title: "InviteEmailStatus" },
);
