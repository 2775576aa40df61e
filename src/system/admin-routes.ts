import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { problems } from "../http/schemas";
import { checkForUpdates, getAbout, getNotices } from "./about";
import { getTailscale } from "./tailscale";

const detail = (summary: string, extra: Record<string, unknown> = {}) => ({ tags: ["Admin"], summary, ...extra });
const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);

const Dependency = t.Object(
  {
    name: t.String(),
    version: t.String(),
    license: t.String({ description: 'SPDX expression from the package ("MIT", "(MIT OR CC0-1.0)"), or "UNKNOWN"' }),
    url: Nullable(t.String()),
  },
  { title: "Dependency" },
);

const BackgroundTask = t.Object(
  {
    name: t.String({ description: 'The task\'s name, e.g. "jobs", "webhooks.retries", "backups.schedule"' }),
    kind: t.Union([t.Literal("every"), t.Literal("cron"), t.Literal("write-behind"), t.Literal("runs")], {
      description:
        "every: a period after the last run settled; cron: a 5-field expression in the server's local time; write-behind: " +
        "counts kept in memory and written together; runs: backups, restores and copies in this process",
    }),
    when: t.String({ description: 'When it runs, in words: "every 5 s", "0 3 * * *", "at most 60 s after a change"' }),
    stopOrder: t.Integer({
      description: "At shutdown, lower first: 1 timers, 2 work in flight (aborted), 3 what waits in memory (written)",
    }),
    running: t.Boolean(),
    runs: t.Integer({ description: "Runs since start (runs: the runs remembered)" }),
    lastRunAt: Nullable(t.String({ format: "date-time" })),
    lastError: Nullable(t.Object({ at: t.String({ format: "date-time" }), message: t.String() })),
    nextRunAt: Nullable(t.String({ format: "date-time", description: "null: not armed (nothing waits, not scheduled, or stopped)" })),
  },
  { title: "BackgroundTask" },
);

const About = t.Object(
  {
    name: t.String(),
    version: t.String(),
    builtAt: Nullable(t.String({ format: "date-time", description: "When the binary was built; null when running from source" })),
    runtime: t.Object({ bun: t.String(), platform: t.String(), arch: t.String() }),
    uptimeSeconds: t.Integer(),
    dependenciesFrom: t.Union([t.Literal("build"), t.Literal("node_modules")], {
      description: "build: the packages the bundler put in this binary; node_modules: running from source, every production dependency",
    }),
    dependencies: t.Array(Dependency),
    releaseFeed: Nullable(t.String({ description: "The feed the update check reads (CAIRN_RELEASE_FEED); null: checking is off" })),
    background: t.Array(BackgroundTask, { description: "Every piece of background work the scheduler runs, in shutdown order" }),
  },
  { title: "About" },
);

const UpdateCheck = t.Object(
  {
    status: t.Union([
      t.Literal("up_to_date"),
      t.Literal("update_available"),
      t.Literal("offline"),
      t.Literal("unavailable"),
      t.Literal("not_configured"),
    ]),
    current: t.String(),
    latest: Nullable(
      t.Object({ version: t.String(), url: Nullable(t.String()), publishedAt: Nullable(t.String({ format: "date-time" })) }),
    ),
    feedUrl: Nullable(t.String()),
    checkedAt: t.String({ format: "date-time" }),
    message: t.String({ description: "One plain sentence for the person who asked" }),
  },
  { title: "UpdateCheck" },
);

const Tailscale = t.Object(
  {
    configured: t.Boolean({ description: "Logged in to a tailnet" }),
    online: t.Boolean(),
    address: Nullable(t.String()),
    addresses: t.Array(t.String()),
    hostName: Nullable(t.String()),
    dnsName: Nullable(t.String()),
    tailnet: Nullable(t.String()),
    keyExpiry: Nullable(t.String({ format: "date-time" })),
    backendState: Nullable(
      t.String({ description: "Tailscale's own state: NoState, NeedsLogin, NeedsMachineAuth, Stopped, Starting, Running" }),
    ),
    version: Nullable(t.String()),
    reason: Nullable(t.String({ description: "Why it is not configured or not online, in plain words" })),
    checkedAt: t.String({ format: "date-time" }),
  },
  { title: "TailscaleStatus" },
);

/** About (/api/admin/about*) and Tailscale (/api/admin/tailscale): right dashboard.view. */
export function systemAdminRoutes(core: Core) {
  return new Elysia()
    .get("/api/admin/about", ({ request }) => getAbout(core, callerOf(request)), {
      response: { 200: About, ...problems(401, 403) },
      detail: detail(
        "Version, build date, runtime, the third-party packages shipped with their " +
          "licences, and the background work (right dashboard.view)",
      ),
    })
    .get(
      "/api/admin/about/notices",
      ({ request }) =>
        new Response(getNotices(core, callerOf(request)), {
          headers: { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" },
        }),
      {
        response: {
          200: t.String({ description: "The licence texts of every package listed in About, as plain text" }),
          ...problems(401, 403),
        },
        detail: detail("Third-party notices: the licence texts of the packages shipped (right dashboard.view)"),
      },
    )
    .post("/api/admin/about/check", ({ request }) => checkForUpdates(core, callerOf(request)), {
      response: { 200: UpdateCheck, ...problems(401, 403) },
      detail: detail("Check for a newer release in the release feed (right dashboard.view); offline or unreachable is a 200 that says so", {
        description:
          "Reads the feed named by CAIRN_RELEASE_FEED (Atom or RSS; at most 5 s, through the outbound guard: private addresses " +
          "only with CAIRN_OUTBOUND_ALLOW). Never fails: status offline, unavailable or not_configured with a plain message.",
      }),
    })
    .get("/api/admin/tailscale", ({ request }) => getTailscale(core, callerOf(request)), {
      response: { 200: Tailscale, ...problems(401, 403) },
      detail: detail(
        "Tailscale status of this server, from `tailscale status --json` (right dashboard.view); " +
          "configured: false with a reason when the CLI is missing, not running or not logged in",
      ),
    });
}
