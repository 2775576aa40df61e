import { Elysia } from "elysia";
import { requireReauth } from "../auth/service";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { problems } from "../http/schemas";
import { SETTING_KEYS, SETTING_RULES } from "./rules";
import { InstanceSettings, SettingsChange } from "./schemas";
import { readSettings, updateSettings } from "./service";

const tags = ["Admin"];
const byRight = (right: string) => SETTING_KEYS.filter((k) => SETTING_RULES[k].right === right).join(", ");

/** /api/admin/settings: the instance settings (rights settings.manage and security.manage, per field). */
export function settingsRoutes(core: Core) {
  return new Elysia({ prefix: "/api/admin/settings" })
    .get("/", ({ request }) => readSettings(core, callerOf(request)), {
      response: { 200: InstanceSettings, ...problems(401, 403) },
      detail: {
        tags,
        summary: "The instance settings, defaults included (right settings.manage)",
        description:
          "Every setting, the secrets (smtpPassword, microsoftClientSecret, googleClientSecret) only as `smtpPasswordSet` " +
          "etc. A holder of security.manage alone reads the limits at GET /api/admin/security/limits.",
      },
    })
    .put("/", ({ body, request }) => updateSettings(core, callerOf(request), body, (user) => requireReauth(core, user)), {
      body: SettingsChange,
      response: { 200: InstanceSettings, ...problems(400, 401, 403) },
      detail: {
        tags,
        summary: "Change instance settings (each setting its own right); answers them all",
        description: [
          "Send only the settings to change. Each needs its right:",
          `security.manage for ${byRight("security.manage")};`,
          `settings.manage for ${byRight("settings.manage")}.`,
          "A request touching one setting the caller may not change is refused whole (403 " +
            "`permission_required` with `setting` and `permission`).",
          "Each value is checked (booleans JSON booleans, numbers whole within their range, lists JSON arrays of host names or " +
            "CIDRs, addresses and host names by their format); one refused value changes nothing (400 naming it).",
          'A secret is set by sending it, cleared by sending "" or null, and never answered.',
          "A change that widens access needs a recent re-authentication (403 `reauth_required`): turning " +
            "allowPublicRegistration or allowPublicSpaces on, requireTotpForAdmins or restrictImageHosts off, or " +
            "adding an entry to trustedProxies, imageAllowlist or embedAllowlist.",
          "Each value that changes is recorded in the audit log (`settings.updated`, with the old and new value; for a " +
            "secret only that it was set or cleared). A read-only token gets 403 `read_only_token`.",
        ].join(" "),
      },
    });
}
