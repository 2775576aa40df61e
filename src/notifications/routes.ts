import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { Id, NoContent, noContent, problems } from "../http/schemas";
import { listNotifications, markAllRead, markRead, NOTIFICATIONS_TAKE_MAX, unreadCount } from "./service";
import { NOTIFICATION_ACTIONS } from "./tables";

const detail = (summary: string) => ({ tags: ["Notifications"], summary });

const Nullable = (s: ReturnType<typeof t.String>) => t.Union([s, t.Null()]);

export const Notification = t.Object(
  {
    id: t.String(),
    action: t.String({ description: `What happened: ${NOTIFICATION_ACTIONS.join(", ")}` }),
    targetType: t.String({ description: "page, comment, webhook or token" }),
    targetId: t.String(),
    spaceId: Nullable(t.String()),
    pageId: Nullable(t.String()),
    actorId: Nullable(t.String({ description: "Who did it; null when Cairn did (a webhook switched off, a token expiring)" })),
    actorName: Nullable(t.String()),
    details: t.Record(t.String(), t.Unknown(), {
      description: "Titles and an excerpt as they were when it happened (pageTitle, spaceKey, excerpt, edits…)",
    }),
    createdAt: t.String({ format: "date-time" }),
    readAt: Nullable(t.String({ format: "date-time" })),
  },
  { title: "Notification" },
);

export function notificationRoutes(core: Core) {
  return new Elysia({ prefix: "/api/notifications" })
    .get("/", ({ query, request }) => listNotifications(core, callerOf(request), query), {
      query: t.Object({
        unreadOnly: t.Optional(t.Boolean({ description: "Only entries not yet read" })),
        // Bounds checked by the service, which names the field.
        take: t.Optional(
          t.Integer({
            description: `1 to ${NOTIFICATIONS_TAKE_MAX}; 50 when left out`,
            error: `must be a whole number from 1 to ${NOTIFICATIONS_TAKE_MAX}`,
          }),
        ),
      }),
      response: { 200: t.Array(Notification), ...problems(400, 401) },
      detail: detail(
        `Your most recent notifications, newest first (at most ${NOTIFICATIONS_TAKE_MAX}); entries ` +
          `about what you can no longer see are left out`,
      ),
    })
    .get("/unread-count", ({ request }) => unreadCount(core, callerOf(request)), {
      response: { 200: t.Object({ count: t.Integer() }, { title: "UnreadCount" }), ...problems(401) },
      detail: detail("How many of your notifications are unread (as GET /api/notifications?unreadOnly=true would list them)"),
    })
    .post(
      "/read-all",
      ({ request }) => {
        markAllRead(core, callerOf(request));
        return noContent();
      },
      {
        response: { 204: NoContent, ...problems(401, 403) },
        detail: detail("Mark all your notifications read"),
      },
    )
    .post(
      "/:id/read",
      ({ params, request }) => {
        markRead(core, callerOf(request), params.id);
        return noContent();
      },
      {
        params: t.Object({ id: Id }),
        response: { 204: NoContent, ...problems(401, 403, 404) },
        detail: detail("Mark one of your notifications read (again: no change)"),
      },
    );
}
