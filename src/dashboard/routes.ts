import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { problems } from "../http/schemas";
import { listViewedPages } from "./recent-views";
import { Dashboard, DashboardQuery, ViewedPage, ViewedQuery } from "./schemas";
import { getDashboard } from "./service";

/** GET /api/admin/dashboard, and GET /api/pages/viewed (each person's recent reads, counted alongside the views). */
export function dashboardRoutes(core: Core) {
  return new Elysia().use(viewedRoutes(core)).use(adminDashboardRoutes(core));
}

function viewedRoutes(core: Core) {
  return new Elysia().get("/api/pages/viewed", ({ query, request }) => listViewedPages(core, callerOf(request), query.limit), {
    query: ViewedQuery,
    response: { 200: t.Array(ViewedPage), ...problems(400, 401) },
    detail: {
      tags: ["Pages"],
      summary: "The pages you viewed last, newest first (at most 20 are kept per account): published pages you may still read",
    },
  });
}

function adminDashboardRoutes(core: Core) {
  return new Elysia({ prefix: "/api/admin/dashboard" }).get(
    "/",
    ({ query, request }) => getDashboard(core, callerOf(request), query.rangeDays),
    {
      query: DashboardQuery,
      response: { 200: Dashboard, ...problems(400, 401, 403) },
      detail: {
        tags: ["Admin"],
        summary: "The instance at a glance: people, content, page views, top pages and editors, storage and health (right dashboard.view)",
        description:
          "Page views are counted in memory and added to daily rows every minute and before this answer: never a write per " +
          "read. A view is a successful read of a published page by a signed-in person or an anonymous reader of a public " +
          "space; tokens, crawlers and the same reader again within ten minutes are not counted.",
      },
    },
  );
}
