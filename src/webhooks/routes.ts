import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { NoContent, noContent, problems } from "../http/schemas";
import { KeyParams } from "../spaces/schemas";
import { CreatedWebhook, CreateWebhookBody, Delivery, Webhook, WebhookParams } from "./schemas";
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks } from "./service";

const detail = (summary: string) => ({ tags: ["Webhooks"], summary });

/** A space's webhooks (space administrators only). */
export function webhookRoutes(core: Core) {
  return new Elysia({ prefix: "/api/spaces" })
    .get("/:key/webhooks", ({ params, request }) => listWebhooks(core, callerOf(request), params.key), {
      params: KeyParams,
      response: { 200: t.Array(Webhook), ...problems(401, 403, 404) },
      detail: detail("The space's webhooks (never their secrets)"),
    })
    .post(
      "/:key/webhooks",
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
    .delete(
      "/:key/webhooks/:id",
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
    .get("/:key/webhooks/:id/deliveries", ({ params, request }) => listDeliveries(core, callerOf(request), params.key, params.id), {
      params: WebhookParams,
      response: { 200: t.Array(Delivery), ...problems(401, 403, 404) },
      detail: detail("The webhook's deliveries, newest first (at most 200), each with its attempts"),
    });
}
