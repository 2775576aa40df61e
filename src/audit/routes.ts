import { withHeaders } from "@elysiajs/openapi/openapi";
import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { Int, problems } from "../http/schemas";
import { AUDIT_ACTION_RULE, AUDIT_BEFORE_RULE, AUDIT_TAKE_MAX, AUDIT_TIME_RULE, listAudit, verifyAudit } from "./service";

/** Where GET /api/audit puts the `before` of the next page. */
export const NEXT_BEFORE_HEADER = "X-Next-Before";

const AuditEntry = t.Object(
  {
    id: t.String(),
    sequence: t.Integer({ description: "Position in the chain: 1, 2, 3…" }),
    action: t.String({ description: "What happened, e.g. page.created, user.login, token.revoked" }),
    targetType: t.String({ description: "page, space, user, session, token, invite, group, setting or webhook" }),
    targetId: t.String(),
    spaceId: t.Union([t.String(), t.Null()]),
    actorId: t.Union([t.String(), t.Null()]),
    actorName: t.Union([t.String(), t.Null()], { description: "The actor's display name when it happened" }),
    ip: t.Union([t.String(), t.Null()]),
    details: t.Record(t.String(), t.Unknown()),
    createdAt: t.String(),
  },
  { title: "AuditEntry" },
);

const VerifyResult = t.Object(
  {
    ok: t.Boolean(),
    checked: t.Integer({ description: "Entries found sound before the first problem (all of them when ok)" }),
    brokenAtSequence: t.Union([t.Integer(), t.Null()], {
      description: "The first entry at fault (a missing one's number when entries are missing)",
    }),
    problem: t.Union([t.String(), t.Null()]),
    lastSequence: t.Integer({ description: "The last sound entry; keep it with lastHash outside Cairn to detect a rewritten tail" }),
    lastHash: t.String(),
  },
  { title: "AuditVerification" },
);

export function auditRoutes(core: Core) {
  return new Elysia({ prefix: "/api" })
    .get(
      "/audit",
      ({ query, request, set }) => {
        const { entries, nextBefore } = listAudit(core, callerOf(request), query);
        // The answer stays a bare array (docs/api.md, "Response shapes"; existing clients
        // read it so), so the cursor travels in a header.
        if (nextBefore !== null) set.headers[NEXT_BEFORE_HEADER] = String(nextBefore);
        return entries;
      },
      {
        query: t.Object({
          targetType: t.Optional(t.String({ maxLength: 50 })),
          targetId: t.Optional(t.String({ maxLength: 200 })),
          actorId: t.Optional(
            t.String({ minLength: 1, maxLength: 200, description: "Only entries by this user (a user id, as GET /api/users gives it)" }),
          ),
          action: t.Optional(
            t.String({
              minLength: 1,
              maxLength: 100,
              description: "An exact action (page.updated), or a prefix ending in a dot (page.) for every action of that kind",
              error: AUDIT_ACTION_RULE,
            }),
          ),
          from: t.Optional(
            t.String({
              maxLength: 40,
              description:
                "Only entries written at or after this ISO 8601 instant (with Z or an offset), or from the start of this date (UTC)",
              error: AUDIT_TIME_RULE,
            }),
          ),
          to: t.Optional(
            t.String({
              maxLength: 40,
              description:
                "Only entries written at or before this ISO 8601 instant, or up to the end of " +
                "this date (UTC): to=2026-03-01 includes all of 1 March",
              error: AUDIT_TIME_RULE,
            }),
          ),
          // Bounds checked by the service: Elysia names the field "property" for a coerced number out of range.
          take: t.Optional(
            t.Integer({
              description: `1 to ${AUDIT_TAKE_MAX}; 50 when left out`,
              error: `must be a whole number from 1 to ${AUDIT_TAKE_MAX}`,
            }),
          ),
          before: t.Optional(
            t.Integer({
              description: `Only entries with a smaller sequence: the ${NEXT_BEFORE_HEADER} of the previous page`,
              error: AUDIT_BEFORE_RULE,
            }),
          ),
        }),
        response: {
          200: withHeaders(t.Array(AuditEntry), {
            [NEXT_BEFORE_HEADER]: Int({ minimum: 1, description: "Send it as `before` for the next, older page; absent on the last page" }),
          }),
          ...problems(400, 401, 403),
        },
        detail: {
          tags: ["Audit"],
          summary:
            `The most recent audit entries the caller may see, newest first (right ` +
            `audit.view; at most ${AUDIT_TAKE_MAX}, 50 by default)`,
          description:
            `Pages back with \`before\`: while the answer carries the header \`${NEXT_BEFORE_HEADER}\`, ask again with ` +
            `\`before\` set to it (and the same filters and \`take\`) for the next, older page. Every entry comes ` +
            `exactly once, whatever is written meanwhile. No header: nothing older is left.`,
        },
      },
    )
    .post("/admin/audit/verify", ({ request }) => verifyAudit(core, callerOf(request)), {
      response: { 200: VerifyResult, ...problems(401, 403) },
      detail: { tags: ["Admin"], summary: "Check the audit log's hash chain; reports the first broken link (right audit.view)" },
    });
}
