/** Admin routes served before the admin area: invites and the audit chain. */
import { call } from "../harness";
import type { AdminRow } from "./types";

export const rows: AdminRow[] = [
  { route: "GET /api/admin/invites", need: "users.invite", ok: 200, path: () => "/api/admin/invites" },
  { route: "GET /api/admin/invites/options", need: "users.invite", ok: 200, path: () => "/api/admin/invites/options" },
  { route: "POST /api/admin/invites", need: "users.invite", ok: 201, path: () => "/api/admin/invites", body: () => ({ expiresInDays: 3 }) },
  {
    route: "DELETE /api/admin/invites/:id",
    need: "users.invite",
    ok: 204,
    path: async (c) => `/api/admin/invites/${(await call(c.env, "POST", "/api/admin/invites", { as: c.owner, body: {} })).body.id}`,
  },
  { route: "POST /api/admin/audit/verify", need: "audit.view", ok: 200, path: () => "/api/admin/audit/verify" },
];
