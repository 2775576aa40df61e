import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { NoContent, noContent, problems } from "../http/schemas";
import { KeyParams } from "../spaces/schemas";
import { redeliver } from "./redeliver";
import {
  CreatedWebhook,
  CreateWebhookBody,
  Delivery,
  DeliveryParams,
  UpdateWebhookBody,
  Webhook,
  WebhookEvent,
  WebhookParams,
} from "./schemas";
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, setWebhookEnabled, WEBHOOK_EVENTS } from "./service";

const detail = (summary: string) => ({ tags: ["Webhooks"], summary });

/** A space's webhooks (space administrators only), and the event types they can subscribe to. */
export function webhookRoutes(core: Core) {
  return new Elysia({ prefix: "/api" })
    .get("/webhooks/events", () => WEBHOOK_EVENTS.map((e) => ({ ...e })), {
      response: { 200: t.Array(WebhookEvent) },
      detail: detail('The event types a webhook can subscribe to ("*" in a webhook\'s events means all of them)'),
    })
    .get("/spaces/:key/webhooks", ({ params, request }) => listWebhooks(core, callerOf(request), params.key), {
      params: KeyParams,
      response: { 200: t.Array(Webhook), ...problems(401, 403, 404) },
      detail: detail("The space's webhooks (never their secrets)"),
    })
    .post(
      "/spaces/:key/webhooks",
      ({ params, body, request, set }) => {
        const hook = createWebhook(core, callerOf(request), params.key, body);
        set.status = 201;
        return hook;
      },
      {
        params: KeyParams,
        body: CreateWebhookBody,
        response: { 201: CreatedWebhook, ...problems(400, 401, 403, 404) },
        detail: detail("Register a webhook; the answer carries its whsec_ signing secret, shown this once"),
      },
    )
    .put(
      "/spaces/:key/webhooks/:id",
      ({ params, body, request }) => setWebhookEnabled(core, callerOf(request), params.key, params.id, body),
      {
        params: WebhookParams,
        body: UpdateWebhookBody,
        response: { 200: Webhook, ...problems(400, 401, 403, 404) },
        detail: detail("Switch a webhook off or on again (switching on resets its failure count)"),
      },
    )
    .delete(
      "/spaces/:key/webhooks/:id",
      ({ params, request }) => {
        deleteWebhook(core, callerOf(request), params.key, params.id);
        return noContent();
      },
      {
        params: WebhookParams,
        response: { 204: NoContent, ...problems(401, 403, 404) },
        detail: detail("Delete a webhook and its delivery log"),
      },
    )
    .get("/spaces/:key/webhooks/:id/deliveries", ({ params, request }) => listDeliveries(core, callerOf(request), params.key, params.id), {
      params: WebhookParams,
      response: { 200: t.Array(Delivery), ...problems(401, 403, 404) },
      detail: detail("The webhook's deliveries, newest first (at most 200), each with its attempts"),
    })
    .post(
      "/spaces/:key/webhooks/:id/deliveries/:deliveryId/redeliver",
      ({ params, request, set }) => {
        const delivery = redeliver(core, callerOf(request), params.key, params.id, params.deliveryId);
        set.status = 201;
        return delivery;
      },
      {
        params: DeliveryParams,
        response: { 201: Delivery, ...problems(401, 403, 404, 409) },
        detail: detail(
          "Send a delivery again: a new delivery of the same event and payload, sent at once (409 while the webhook is switched off)",
        ),
      },
    );
}
