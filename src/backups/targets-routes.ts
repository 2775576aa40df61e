import { Elysia } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { NoContent, noContent, problems } from "../http/schemas";
import { JobAnswer } from "./schemas";
import { ProbeReport, SlotParams, TargetInput, Targets } from "./targets-schemas";
import { listTargets, removeTarget, setTarget, startCopy, testTarget } from "./targets-service";

const tags = ["Backups"];
const right = "(right backups.manage)";
const owners = "(right backups.restore: the owner's, as for a restore)";
const TOLD =
  "Every slot set, changed or removed is recorded as `backup.target_changed` (the names of the fields that " +
  "changed and where copies go, never a value of a credential), shown among the security events (kind `restore`) " +
  "and told to the owner as a notification. E-mailing it waits for e-mail sending.";
const EXTENSION =
  "Testing a target and copying to it are part of the documented API; configuring targets (GET, PUT, DELETE) is Cairn's own addition.";

/** /api/admin/backups/targets: where backups are copied off the machine (a folder, an S3 bucket). */
export function backupTargetRoutes(core: Core) {
  return new Elysia({ prefix: "/api/admin/backups/targets" })
    .get("/", ({ request }) => listTargets(core, callerOf(request)), {
      response: { 200: Targets, ...problems(401, 403) },
      detail: {
        tags,
        summary: `The two target slots, directory and s3 (null when not set), with their last test and copy ${right}`,
        description: `Credentials are never answered: the S3 slot says \`secretAccessKeySet: true\`. ${EXTENSION}`,
      },
    })
    .put("/:slot", ({ params, body, request }) => setTarget(core, callerOf(request), params.slot, body), {
      params: SlotParams,
      body: TargetInput,
      response: { 200: Targets, ...problems(400, 401, 403, 409) },
      detail: {
        tags,
        summary:
          `Set a slot: directory {path}, or s3 {endpoint, region, bucket, prefix, ` + `pathStyle, accessKeyId, secretAccessKey} ${owners}`,
        description:
          `A target receives every page (private spaces' too) and every password hash, so where copies go is the owner's decision: ` +
          `an administrator without backups.restore gets 403 \`permission_required\`. Every field is checked; the first wrong one is ` +
          `a 400 naming it (a field of the other slot too). The path must be absolute, without control or invisible characters, and ` +
          `not a system folder (/, /etc, /root, /usr, /bin, /proc, /sys, /dev, /boot, /run and the like, or what is inside them; ` +
          `/mnt, /media, /srv, /opt, /var, /home and /tmp themselves), the folder of Cairn's program, the data directory, inside it ` +
          `or holding it, by the path given or where its symbolic links lead; the endpoint an http(s) URL without a path (a private ` +
          `or loopback address is refused when tested or copied to unless CAIRN_OUTBOUND_ALLOW allows it). The secret is sealed with ` +
          `the instance key (data/secret.key) in backups/state/targets.json; leave it out to keep the stored one, except when the ` +
          `endpoint or the access key ID changes. 409 \`copy_running\` while a copy to the slot runs. ${TOLD} Needs a session that ` +
          `confirmed its password in the last five minutes (403 \`reauth_required\`; API tokens never can): a target receives a ` +
          `whole copy of the wiki. ${EXTENSION}`,
      },
    })
    .delete(
      "/:slot",
      ({ params, request }) => {
        removeTarget(core, callerOf(request), params.slot);
        return noContent();
      },
      {
        params: SlotParams,
        response: { 204: NoContent, ...problems(400, 401, 403, 409) },
        detail: {
          tags,
          summary: `Forget a slot (204 also when it was not set; what was copied there stays there) ${right}`,
          description: `409 \`copy_running\` while a copy to it runs. ${TOLD} ${EXTENSION}`,
        },
      },
    )
    .post("/:slot/test", ({ params, request }) => testTarget(core, callerOf(request), params.slot), {
      params: SlotParams,
      response: { 200: ProbeReport, ...problems(400, 401, 403, 404) },
      detail: {
        tags,
        summary: `Test a slot: write a probe, find it in a listing, read it back, delete it ${right}`,
        description:
          "Writes nothing outside the folder or bucket set (a folder whose links now lead to a refused folder is refused, in the " +
          "report). Answers 200 whatever the target does: `ok`, the steps run, and in `error` what failed and what to fix in plain " +
          "words (an unreachable endpoint, a missing bucket, a wrong key, a folder that is not mounted or not writable, an address " +
          "the outbound guard refuses). Each step has 15 s. 404 when the slot is not set.",
      },
    })
    .post(
      "/:slot/copy",
      ({ params, request, set }) => {
        const job = startCopy(core, callerOf(request), params.slot);
        set.status = 202;
        return { job };
      },
      {
        params: SlotParams,
        response: { 202: JobAnswer, ...problems(400, 401, 403, 404, 409) },
        detail: {
          tags,
          summary:
            `Copy every retained backup and the files it needs to a slot: 202 with its job ` +
            `${right}; to a slot nobody holding backups.restore set, that right`,
          description:
            "Incremental by hash: the target keeps an index (cairn-index.json) of what it holds, and what it already has at the " +
            "same SHA-256 and size is skipped. Resumable: each object lands whole, and a copy stopped half-way (cancelled, failed, " +
            "the server stopped) continues where it stopped next time. On the target: backups/<label>/cairn.db, " +
            "backups/<label>/manifest.json (written after the rest: a manifest there means a complete backup) and files/ab/cdef…; " +
            "nothing is deleted there. Progress in bytes at GET /api/admin/backups/jobs/{id}; a failure's `error.message` says " +
            "what to fix. Recorded as `backup.copied`. A slot set before setting one needed backups.restore (its `approved` is " +
            "false) is copied to first by someone holding that right (403 `permission_required` naming it otherwise), which " +
            "approves it. 404 when the slot is not set; 409 `copy_running` while a copy to it runs.",
        },
      },
    );
}
