import { t } from "elysia";
import { Int } from "../http/schemas";
import { ALERT_NOTE_MAX } from "./alerts";
import { BLOCK_CIDR_RULE, BLOCK_MAX_HOURS, BLOCK_REASON_MAX } from "./blocks";
import { KIND_NAMES } from "./kinds";
import { BLOCK_CIDR_MAX } from "../common/limits";

const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);

export const SecurityEvent = t.Object(
  {
    sequence: t.Integer({ description: "The audit entry's sequence (events are audit entries)" }),
    id: t.String(),
    action: t.String({ description: "The audit action, e.g. user.login_failed, token.created" }),
    kind: t.String({ description: KIND_NAMES.join(", ") }),
    severity: t.Integer({ description: "0 Info, 1 Warning, 2 Critical" }),
    targetType: t.String(),
    targetId: t.String(),
    targetName: Nullable(t.String({ description: "The e-mail of the account it is about, when it is about one" })),
    spaceId: Nullable(t.String()),
    actorId: Nullable(t.String()),
    actorName: Nullable(t.String()),
    ip: Nullable(t.String()),
    details: t.Record(t.String(), t.Unknown()),
    createdAt: t.String(),
  },
  { title: "SecurityEvent" },
);

export const SecurityEventPage = t.Object(
  {
    events: t.Array(SecurityEvent),
    nextBefore: Nullable(t.Integer({ description: "Send as `before` for the next, older page; null on the last" })),
    kinds: t.Array(t.Object({ name: t.String(), label: t.String() }), { description: "Every kind, for a filter" }),
  },
  { title: "SecurityEventPage" },
);

export const SecurityAlert = t.Object(
  {
    id: t.String(),
    detector: t.String({ description: "brute_force_address, brute_force_account, mass_deletion, permission_expansion, token_burst" }),
    subject: t.String({ description: "What it is about: address:<ip>, user:<id> or space:<id>" }),
    severity: t.Integer({ description: "0 Info, 1 Warning, 2 Critical" }),
    status: t.Integer({ description: "0 Open, 1 Acknowledged, 2 Resolved" }),
    summary: t.String(),
    details: t.Record(t.String(), t.Unknown()),
    hits: t.Integer({ description: "Times the detector fired while this alert was not resolved" }),
    createdAt: t.String(),
    lastSeenAt: t.String(),
    acknowledgedAt: Nullable(t.String()),
    acknowledgedByName: Nullable(t.String()),
    resolvedAt: Nullable(t.String()),
    resolvedByName: Nullable(t.String()),
    note: Nullable(t.String()),
  },
  { title: "SecurityAlert" },
);

export const AlertNote = t.Object({
  note: t.Optional(
    t.String({
      maxLength: ALERT_NOTE_MAX,
      description: `What was done or found (at most ${ALERT_NOTE_MAX} characters)`,
      error: `must be text of at most ${ALERT_NOTE_MAX} characters`,
    }),
  ),
});

export const SecurityBlock = t.Object(
  {
    id: t.String(),
    cidr: t.String({ description: "Normalised: network address and prefix length" }),
    reason: t.String(),
    createdById: Nullable(t.String()),
    createdByName: Nullable(t.String()),
    createdAt: t.String(),
    expiresAt: Nullable(t.String()),
    active: t.Boolean({ description: "False once expired (an expired block no longer applies)" }),
  },
  { title: "SecurityBlock" },
);

export const SecurityBlockList = t.Object(
  {
    blocks: t.Array(SecurityBlock),
    yourAddress: t.String({
      description: "The caller's address as this server sees it (trustedProxies applied): a block covering it is refused",
    }),
  },
  { title: "SecurityBlockList" },
);

export const NewSecurityBlock = t.Object({
  cidr: t.String({ minLength: 1, maxLength: BLOCK_CIDR_MAX, description: BLOCK_CIDR_RULE, error: BLOCK_CIDR_RULE }),
  reason: t.String({ minLength: 1, maxLength: BLOCK_REASON_MAX, error: `must say why, in at most ${BLOCK_REASON_MAX} characters` }),
  expiresInHours: t.Optional(
    Nullable(
      Int({
        minimum: 1,
        maximum: BLOCK_MAX_HOURS,
        description: `Hours until the block ends, 1 to ${BLOCK_MAX_HOURS}; left out or null: until removed`,
        error: `must be a whole number of hours from 1 to ${BLOCK_MAX_HOURS}, or null`,
      }),
    ),
  ),
});

const Lockout = t.Object({
  userId: t.String(),
  email: t.String(),
  displayName: t.String(),
  address: Nullable(t.String({ description: "The address locked out; null when the account is locked for every address" })),
  scope: t.String({ description: "address or account" }),
  until: t.String(),
});

export const SecurityLimits = t.Object(
  {
    settings: t.Object({
      anonymousRateLimitPerMinute: t.Integer(),
      loginRateLimitPerMinute: t.Integer(),
      tokenMintLimitPerHour: t.Integer(),
      lockoutThreshold: t.Integer(),
      lockoutBaseSeconds: t.Integer(),
      lockoutMaxSeconds: t.Integer(),
      lockoutAccountFailures: t.Integer(),
      lockoutAccountAddresses: t.Integer(),
      lockoutAccountWindowSeconds: t.Integer(),
    }),
    detectors: t.Array(
      t.Object(
        { name: t.String(), windowMinutes: t.Integer(), severity: t.Integer(), description: t.String() },
        { additionalProperties: true },
      ),
    ),
    lockouts: t.Array(Lockout),
  },
  { title: "SecurityLimits" },
);

export const SecurityOverview = t.Object(
  {
    openAlerts: t.Object({
      info: t.Integer(),
      warning: t.Integer(),
      critical: t.Integer(),
      acknowledged: t.Integer({ description: "Acknowledged, not yet resolved" }),
    }),
    failedSignIns24h: t.Integer(),
    activeLockouts: t.Integer(),
    activeBlocks: t.Integer(),
    twoFactor: t.Object({ available: t.Boolean(), adminsWithout: t.Integer(), note: t.String() }),
    lastEvents: t.Array(SecurityEvent),
  },
  { title: "SecurityOverview" },
);
