/** The admin dashboard (src/dashboard/routes.ts): dashboard.view, any range. */
import type { AdminRow } from "./types";

export const rows: AdminRow[] = [
  { route: "GET /api/admin/dashboard", need: "dashboard.view", ok: 200, path: () => "/api/admin/dashboard" },
  { route: "GET /api/admin/dashboard", need: "dashboard.view", ok: 200, path: () => "/api/admin/dashboard?rangeDays=90", note: "90 days" },
];
