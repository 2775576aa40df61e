/** About and Tailscale (right dashboard.view). No release feed is set in the matrix's world: the check answers not_configured. */
import type { AdminRow } from "./types";

export const rows: AdminRow[] = [
  { route: "GET /api/admin/about", need: "dashboard.view", ok: 200, path: () => "/api/admin/about" },
  { route: "GET /api/admin/about/notices", need: "dashboard.view", ok: 200, path: () => "/api/admin/about/notices" },
  { route: "POST /api/admin/about/check", need: "dashboard.view", ok: 200, path: () => "/api/admin/about/check" },
  { route: "GET /api/admin/tailscale", need: "dashboard.view", ok: 200, path: () => "/api/admin/tailscale" },
];
