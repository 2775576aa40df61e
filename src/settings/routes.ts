import { Elysia } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { problems } from "../http/schemas";
import { InstanceSettings, SettingsChange } from "./schemas";
import { readSettings, updateSettings } from "./service";

const tags = ["Admin"];

/** /api/admin/settings: the instance settings (right settings.manage). */
export function settingsRoutes(core: Core) {
  return new Elysia({ prefix: "/api/admin/settings" })
    .get("/", ({ request }) => readSettings(core, callerOf(request)), {
      response: { 200: InstanceSettings, ...problems(401, 403) },
      detail: { tags, summary: "The instance settings, defaults included (right settings.manage)" },
    })
    .put("/", ({ body, request }) => updateSettings(core, callerOf(request), body), {
      body: SettingsChange,
      response: { 200: InstanceSettings, ...problems(400, 401, 403) },
      detail: {
        tags,
        summary: "Change instance settings (right settings.manage); answers them all",
        description:
          "Send only the settings to change. Each is checked (booleans are JSON booleans, numbers whole JSON numbers within their range); one refused value changes nothing. Each value that changes is recorded in the audit log (`settings.updated`, with the old and new value). A read-only token gets 403 `read_only_token`.",
      },
    });
}
