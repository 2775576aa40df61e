import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { Id, NoContent, noContent, problems } from "../http/schemas";
import { BackupJob, BackupList, JobAnswer, Label, Policy, PolicyInput, PolicyPreview } from "./schemas";
import { backupJob, listBackups, previewPolicy, removeBackup, runBackup, setPolicy } from "./service";

const tags = ["Backups"];
const right = "(right backups.manage)";
const REAUTH = "Needs a session that confirmed its password in the last five minutes (403 `reauth_required`; API tokens never can).";

/** /api/admin/backups: the list, running one, its job, the policy and its preview, removing one by hand. */
export function backupRoutes(core: Core) {
  return new Elysia({ prefix: "/api/admin/backups" })
    .get("/", ({ request, query }) => listBackups(core, callerOf(request), { includeRemoved: query.includeRemoved }), {
      query: t.Object({
        includeRemoved: t.Optional(t.Boolean({ description: "Also list removed backups (their copy deleted, the manifest kept)" })),
      }),
      response: { 200: BackupList, ...problems(400, 401, 403) },
      detail: {
        tags,
        summary:
          `Backups, newest first, with the policy, the schedule and its next run, the last ` +
          `backup, a backup running now and the point-in-time coverage ${right}`,
        description:
          "A backup is a page-exact copy of the database in backups/<label>/ with a manifest (counts, schema, the audit chain's " +
          "head, the files it needs). Files are shared with the live file store and kept while a backup names them.",
      },
    })
    .post(
      "/run",
      ({ request, set }) => {
        const job = runBackup(core, callerOf(request));
        set.status = 202;
        return { job };
      },
      {
        response: { 202: JobAnswer, ...problems(401, 403, 409) },
        detail: {
          tags,
          summary: `Take a backup now (kind manual): 202 with its job; 409 backup_running while one is being taken ${right}`,
          description:
            "Writers keep going while it copies. Retention runs after it (manual backups themselves are kept " +
            "until removed by hand). Follow the job at GET /api/admin/backups/jobs/{id}.",
        },
      },
    )
    .get("/jobs/:id", ({ request, params }) => backupJob(core, callerOf(request), params.id), {
      params: t.Object({ id: Id }),
      response: { 200: BackupJob, ...problems(401, 403, 404) },
      detail: {
        tags,
        summary: `A backup, restore or copy job: its phase and progress, then its outcome ${right}`,
        description:
          "Jobs are kept in memory (not in the database a restore replaces) for a day; after a restart, or for an unknown id, 404.",
      },
    })
    .put("/policy", ({ request, body }) => setPolicy(core, callerOf(request), body), {
      body: PolicyInput,
      response: { 200: Policy, ...problems(400, 401, 403) },
      detail: {
        tags,
        summary: `Set retention (and the schedule) ${right}`,
        description:
          `A backup goes only when it is outside both limits: not among the newest keepCount scheduled backups, and ` +
          `older than keepDays. Manual, pre-migration and safety backups are kept until removed by hand. ` +
          `\`schedule\` is Cairn's own addition. ${REAUTH} Audited (backup.policy_changed).`,
      },
    })
    .post("/policy/preview", ({ request, body }) => previewPolicy(core, callerOf(request), body), {
      body: PolicyInput,
      response: { 200: PolicyPreview, ...problems(400, 401, 403) },
      detail: { tags, summary: `What a policy would remove now, exactly; nothing is removed ${right}` },
    })
    .delete(
      "/:label",
      ({ request, params }) => {
        removeBackup(core, callerOf(request), params.label);
        return noContent();
      },
      {
        params: t.Object({ label: Label }),
        response: { 204: NoContent, ...problems(400, 401, 403, 404) },
        detail: {
          tags,
          summary: `Remove a backup by hand, of any kind ${right}`,
          description:
            `Cairn's own route: how manual, pre-migration and safety backups go. Its copy is deleted; its ` +
            `manifest stays (listed with includeRemoved). ${REAUTH} Audited (backup.removed).`,
        },
      },
    );
}
