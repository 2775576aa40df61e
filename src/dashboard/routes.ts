import { Elysia } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { problems } from "../http/schemas";
import { Dashboard, DashboardQuery } from "./schemas";
import { getDashboard } from "./service";

/** GET /api/admin/dashboard. */
export function dashboardRoutes(core: Core) {
  return new Elysia({ prefix: "/api/admin/dashboard" }).get("/", ({ query, request }) => getDashboard(core, callerOf(request), query.rangeDays), {
    query: DashboardQuery,
    response: { 200: Dashboard, ...problems(400, 401, 403) },
    detail: {
      tags: ["Admin"],
      summary: "The instance at a glance: people, content, page views, top pages and editors, storage and health (right dashboard.view)",
      description:
        "Page views are counted in memory and added to daily rows every minute and before this answer: never a write per read. A view is a successful read of a published page by a signed-in person or an anonymous reader of a public space; tokens, crawlers and the same reader again within ten minutes are not counted.",
    },
  });
}
