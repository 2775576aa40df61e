import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { problems } from "../http/schemas";
import { getSettings } from "../settings/service";
import { publicBranding } from "../branding/service";
import { PublicBranding } from "../branding/schemas";
import { needsOwner } from "../users/service";
import { setupCodeNeeded } from "../users/setup-code";
import { databaseProbe } from "../platform/db/open";
import { readyJson } from "../platform/security-headers";

const Health = t.Object(
  {
    status: t.String({ description: '"ok", or "unavailable" with 503' }),
    database: t.String(),
    version: t.Optional(t.String({ description: "Only for a signed-in caller" })),
  },
  { title: "Health" },
);

const Instance = t.Object(
  {
    name: t.String(),
    version: t.String(),
    needsOwner: t.Boolean({ description: "True until the first account (the Owner) is created" }),
    setupCodeRequired: t.Boolean({
      description:
        "True while the owner is still to be created on a server listening beyond loopback: " +
        "registering it needs the setup code from the server's log (`cairn setup-code`)",
    }),
    allowPublicRegistration: t.Boolean(),
    branding: PublicBranding,
    imageHosts: t.Object(
      {
        restricted: t.Boolean({ description: "True: images from other sites are shown only from the hosts listed" }),
        hosts: t.Array(t.String(), { description: 'Host names ("*.example.com" also allows its subdomains)' }),
      },
      {
        description:
          "Cairn's own field: which images of other sites pages show (over https only); the web UI's " +
          "Content-Security-Policy follows it, and the reading view draws any other as a link",
      },
    ),
  },
  { title: "Instance" },
);

export function systemRoutes(core: Core) {
  const databaseAnswers = databaseProbe(core);
  // The answers while the database answers, ready (a health check is the most frequent request).
  const healthy = {
    anonymous: JSON.stringify({ status: "ok", database: "ok" }),
    signedIn: JSON.stringify({ status: "ok", database: "ok", version: core.version }),
  };
  return new Elysia({ prefix: "/api" })
    .get(
      "/health",
      ({ request, set }) => {
        let database = "ok";
        try {
          if (!databaseAnswers()) database = "unavailable";
        } catch {
          database = "unavailable";
        }
        const signedIn = callerOf(request).kind === "user";
        if (database === "ok") return readyJson(signedIn ? healthy.signedIn : healthy.anonymous, set);
        set.status = 503;
        return { status: "unavailable", database, ...(signedIn ? { version: core.version } : {}) };
      },
      {
        response: { 200: Health, 503: Health, ...problems(401, 429) },
        detail: { tags: ["System"], summary: "Liveness; probes the database", security: [] },
      },
    )
    .get(
      "/instance",
      () => {
        const s = getSettings(core);
        const noOwner = needsOwner(core);
        return {
          name: s.instanceName,
          version: core.version,
          needsOwner: noOwner,
          setupCodeRequired: noOwner && setupCodeNeeded(core),
          allowPublicRegistration: s.allowPublicRegistration,
          branding: publicBranding(core),
          imageHosts: { restricted: s.restrictImageHosts, hosts: s.restrictImageHosts ? s.imageAllowlist : [] },
        };
      },
      {
        response: { 200: Instance, ...problems(401, 429) },
        detail: { tags: ["System"], summary: "Public facts about this instance", security: [] },
      },
    );
}
