import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { problems } from "../http/schemas";
import { JobAnswer, Label } from "./schemas";
import { AtQuery, ConfirmBody, DiscardAnswer, RestoreBody, RestorePreview } from "./restore-schemas";
import { cancelFor, discardKeptFor, previewRestoreFor, restoreFor, testRestoreFor, undoFor } from "./restore-requests";

const tags = ["Backups"];
const manage = "(right backups.manage)";
const restore = "(right backups.restore, a session)";
const CONFIRM =
  "Confirmed in the body: `confirmLabel` typed exactly (400 `confirm_mismatch` naming it) and your `password` (400 naming it when " +
  "wrong; wrong passwords count toward the sign-in lockout). API tokens are refused (403 `token_not_allowed`).";
const WAIT =
  "Follow it at GET /api/admin/backups/jobs/{id}. While the data is replaced every request that writes answers 503 `maintenance` " +
  "with Retry-After; reads keep working; collaborative editing rooms close and reopen on the restored data.";

/** Restores: preview, test, restore, undo, discard the kept copy, cancel. */
export function restoreRoutes(core: Core) {
  const params = t.Object({ label: Label });
  return new Elysia({ prefix: "/api/admin/backups" })
    .get("/:label/restore-preview", ({ request, params, query }) => previewRestoreFor(core, callerOf(request), params.label, query.at), {
      params,
      query: AtQuery,
      response: { 200: RestorePreview, ...problems(400, 401, 403, 404, 409) },
      detail: {
        tags,
        summary: `What a restore of this backup (at a point in time) would lose, and the disk space it needs ${manage}`,
        description:
          "Counts the pages, versions, comments, attachments and accounts the live data has that the restored data lacks. The " +
          "restored copy is made in tmp/ and kept a few minutes, so a restore-test or restore that follows reuses it. 409 " +
          "`not_covered` when `at` is outside what this backup and the archived log after it reach.",
      },
    })
    .post(
      "/:label/restore-test",
      ({ request, params, query, set }) => {
        set.status = 202;
        return { job: testRestoreFor(core, callerOf(request), params.label, query.at) };
      },
      {
        params,
        query: AtQuery,
        response: { 202: JobAnswer, ...problems(400, 401, 403, 404, 409) },
        detail: {
          tags,
          summary: `Restore into a scratch copy and check it; nothing is replaced ${manage}`,
          description:
            "The job's result reports each check: PRAGMA integrity_check, migrations to this version's schema, PRAGMA " +
            "foreign_key_check, the audit chain, and every referenced file present in the file store with its SHA-256. The checks " +
            "run in a child process, so the server keeps answering. `at` (query, Cairn's own addition) tests a point in time; 409 " +
            "`not_covered` at once when this backup and the archived log after it do not reach it (as the preview).",
        },
      },
    )
    .post(
      "/:label/restore",
      async ({ request, params, body, set }) => {
        const job = await restoreFor(core, callerOf(request), params.label, body);
        set.status = 202;
        return { job };
      },
      {
        params,
        body: RestoreBody,
        response: { 202: JobAnswer, ...problems(400, 401, 403, 404, 409, 507) },
        detail: {
          tags,
          summary: `Restore this backup (at a point in time): the current data is replaced, a safety copy kept for undo ${restore}`,
          description:
            `Steps: a safety backup of the current data, the restored copy and its checks (as restore-test), then the swap ` +
            `inside the running process (one SQLite transaction: a crash leaves the old data or the new, never a mix). ${WAIT} ` +
            `${CONFIRM} 409 \`restore_running\` at once while another restore or undo runs (this request stays open while writes ` +
            `are refused, and is refused before the password is looked at); 409 \`not_covered\` at once when \`at\` is outside ` +
            `what this backup and the archived log after it reach (as the preview), before any safety copy is taken; 507 ` +
            `\`insufficient_storage\` when the safety copy, the restored copy and the swap's log would not fit. Audited ` +
            `(backup.restored, naming the replaced audit chain's head).`,
        },
      },
    )
    .post("/restore/undo", async ({ request, body, set }) => ((set.status = 202), { job: await undoFor(core, callerOf(request), body) }), {
      body: ConfirmBody("UNDO"),
      response: { 202: JobAnswer, ...problems(400, 401, 403, 404, 409, 507) },
      detail: {
        tags,
        summary: `Undo the last restore: its safety copy put back exactly ${restore}`,
        description:
          `What was written since the restore goes with it. ${WAIT} ${CONFIRM} (confirmLabel "UNDO"). 409 ` +
          `\`nothing_kept\` when no safety copy is kept. Audited (backup.restore_undone).`,
      },
    })
    .post("/restore/discard-kept", async ({ request, body }) => discardKeptFor(core, callerOf(request), body), {
      body: ConfirmBody("REMOVE"),
      response: { 200: DiscardAnswer, ...problems(400, 401, 403, 409) },
      detail: {
        tags,
        summary: `Delete the safety copy the last restore kept (no undo after this) ${restore}`,
        description:
          `The safety backup is marked removed ("discarded"). ${CONFIRM} ` + `(confirmLabel "REMOVE"). Audited (backup.restore_discarded).`,
      },
    })
    .post("/restore/cancel", ({ request }) => ({ job: cancelFor(core, callerOf(request)) }), {
      response: { 200: JobAnswer, ...problems(401, 403, 409) },
      detail: {
        tags,
        summary: `Stop a restore that has not begun replacing the data ${restore}`,
        description:
          "Stays open while writes are refused for the restore. 409 `restore_swapped` once the swap has begun (undo instead); " +
          "409 `conflict` when no restore is under way. The job ends cancelled; nothing was replaced.",
      },
    });
}
