import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { Id, NoContent, noContent, problems } from "../http/schemas";
import { ALERTS_TAKE_MAX, listAlerts, moveAlert } from "./alerts";
import { addBlock, listBlocks, removeBlock } from "./blocks";
import { KIND_NAMES } from "./kinds";
import {
  AlertNote,
  NewSecurityBlock,
  SecurityAlert,
  SecurityBlock,
  SecurityBlockList,
  SecurityEventPage,
  SecurityLimits,
  SecurityOverview,
} from "./schemas";
import { EVENTS_TAKE_MAX, listSecurityEvents, securityKinds, securityLimits, securityOverview } from "./service";

const tags = ["Admin"];
const right = "(right security.manage)";

/** /api/admin/security/*: events, alerts, address blocks, limits and the overview. */
export function securityRoutes(core: Core) {
  return new Elysia({ prefix: "/api/admin/security" })
    .get("/overview", ({ request }) => securityOverview(core, callerOf(request)), {
      response: { 200: SecurityOverview, ...problems(401, 403) },
      detail: {
        tags,
        summary:
          `Open alerts by severity, failed sign-ins in the last 24 hours, active lockouts and ` +
          `blocks, two-factor among administrators, the last events ${right}`,
      },
    })
    .get("/events", ({ request, query }) => ({ ...listSecurityEvents(core, callerOf(request), query), kinds: securityKinds() }), {
      query: t.Object({
        kind: t.Optional(t.String({ maxLength: 40, description: `One of ${KIND_NAMES.join(", ")}` })),
        // Bounds checked by the service, so the 400 names the field.
        severity: t.Optional(
          t.Integer({
            description: "The least severity shown: 0 all, 1 warnings and critical, 2 critical only",
            error: "must be 0 (info), 1 (warning) or 2 (critical)",
          }),
        ),
        take: t.Optional(
          t.Integer({
            description: `1 to ${EVENTS_TAKE_MAX}; 50 when left out`,
            error: `must be a whole number from 1 to ${EVENTS_TAKE_MAX}`,
          }),
        ),
        before: t.Optional(
          t.Integer({ description: "The nextBefore of the previous page", error: "must be a whole number of at least 1" }),
        ),
      }),
      response: { 200: SecurityEventPage, ...problems(400, 401, 403) },
      detail: {
        tags,
        summary:
          `Security events, newest first: failed sign-ins, lockouts, API tokens created, permission ` +
          `and role changes, account changes, restores, blocks and alerts ${right}`,
        description:
          "Security events are the audit log's entries of those actions, each with a kind and a severity (0 Info, 1 Warning, 2 Critical).",
      },
    })
    .get("/alerts", ({ request, query }) => listAlerts(core, callerOf(request), query), {
      query: t.Object({
        status: t.Optional(
          t.Integer({
            description: "0 Open, 1 Acknowledged, 2 Resolved; left out: all",
            error: "must be 0 (open), 1 (acknowledged) or 2 (resolved)",
          }),
        ),
        take: t.Optional(
          t.Integer({
            description: `1 to ${ALERTS_TAKE_MAX}; 100 when left out`,
            error: `must be a whole number from 1 to ${ALERTS_TAKE_MAX}`,
          }),
        ),
      }),
      response: { 200: t.Array(SecurityAlert), ...problems(400, 401, 403) },
      detail: { tags, summary: `Alerts raised by the detectors, latest activity first ${right}` },
    })
    .post("/alerts/:id/acknowledge", ({ request, params, body }) => moveAlert(core, callerOf(request), params.id, "acknowledged", body), {
      params: t.Object({ id: Id }),
      body: AlertNote,
      response: { 200: SecurityAlert, ...problems(400, 401, 403, 404, 409) },
      detail: { tags, summary: `Acknowledge an alert: someone is looking into it (409 when already resolved) ${right}` },
    })
    .post("/alerts/:id/resolve", ({ request, params, body }) => moveAlert(core, callerOf(request), params.id, "resolved", body), {
      params: t.Object({ id: Id }),
      body: AlertNote,
      response: { 200: SecurityAlert, ...problems(400, 401, 403, 404) },
      detail: { tags, summary: `Resolve an alert; the detector raises a new one only for what it sees afterwards ${right}` },
    })
    .get("/blocks", ({ request }) => ({ blocks: listBlocks(core, callerOf(request)), yourAddress: callerOf(request).ip }), {
      response: { 200: SecurityBlockList, ...problems(401, 403) },
      detail: { tags, summary: `Address blocks, newest first, with the caller's own address ${right}` },
    })
    .post(
      "/blocks",
      ({ request, body, set }) => {
        const block = addBlock(core, callerOf(request), body);
        set.status = 201;
        return block;
      },
      {
        body: NewSecurityBlock,
        response: { 201: SecurityBlock, ...problems(400, 401, 403, 409) },
        detail: {
          tags,
          summary: `Block an address or range: its requests get 403 address_blocked before anything else ${right}`,
          description:
            "409 `conflict` when the range covers the caller's own address. The client address is the " +
            "socket's, or behind a proxy named in trustedProxies the one it forwarded.",
        },
      },
    )
    .delete(
      "/blocks/:id",
      ({ request, params }) => {
        removeBlock(core, callerOf(request), params.id);
        return noContent();
      },
      {
        params: t.Object({ id: Id }),
        response: { 204: NoContent, ...problems(401, 403, 404) },
        detail: { tags, summary: `Remove an address block; it stops applying at once ${right}` },
      },
    )
    .get("/limits", ({ request }) => securityLimits(core, callerOf(request)), {
      response: { 200: SecurityLimits, ...problems(401, 403) },
      detail: { tags, summary: `The rate-limit and lockout settings, the detectors' thresholds and the lockouts in force ${right}` },
    });
}
