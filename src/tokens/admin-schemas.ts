import { t } from "elysia";
import { ADMIN_DAYS_MAX } from "./admin-tokens";

const Day = t.String({ description: "YYYY-MM-DD (UTC)" });
const DaysRule = `must be a whole number of days from 1 to ${ADMIN_DAYS_MAX}`;

export const AdminToken = t.Object(
  {
    id: t.String(),
    name: t.String(),
    prefix: t.String({ description: "The first characters of the value, to recognise it" }),
    readOnly: t.Boolean(),
    createdAt: t.String({ format: "date-time" }),
    expiresAt: t.Nullable(t.String({ format: "date-time" })),
    lastUsedAt: t.Nullable(t.String({ format: "date-time" })),
    useCount: t.Integer(),
    revokedAt: t.Nullable(t.String({ format: "date-time" })),
    state: t.Union([t.Literal("active"), t.Literal("expired"), t.Literal("revoked")]),
    owner: t.Object({ id: t.String(), displayName: t.String(), email: t.String() }),
  },
  { title: "AdminApiToken" },
);

export const TokenIdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 100, description: "The token's id" }) });

export const ActivityQuery = t.Object({
  tokenId: t.String({ maxLength: 100, description: "The token's id (from GET /api/admin/api-tokens)", error: "must be a token id" }),
  take: t.Optional(t.Integer({ description: `Days back from today, 1 to ${ADMIN_DAYS_MAX} (default 30)`, error: DaysRule })),
});

export const SummaryQuery = t.Object({
  days: t.Optional(t.Integer({ description: `Days back from today, 1 to ${ADMIN_DAYS_MAX} (default 30)`, error: DaysRule })),
});

export const TokenActivity = t.Object(
  {
    token: AdminToken,
    lastUsedAt: t.Nullable(
      t.String({ format: "date-time", description: "The last request counted per day (null: never used since counting began)" }),
    ),
    lastIp: t.Nullable(t.String({ description: "The address that last request came from" })),
    days: t.Array(t.Object({ day: Day, requests: t.Integer() }), { description: "Every day of the range, oldest first" }),
    totalRequests: t.Integer(),
  },
  { title: "AdminApiTokenActivity" },
);

export const TokenSummary = t.Object(
  {
    days: t.Array(
      t.Object({
        day: Day,
        created: t.Integer(),
        revoked: t.Integer(),
        requests: t.Integer({ description: "Requests made with any token" }),
      }),
      { description: "Every day of the range, oldest first" },
    ),
    totals: t.Object({ created: t.Integer(), revoked: t.Integer(), requests: t.Integer() }),
  },
  { title: "AdminApiTokenSummary" },
);
