/**
 * Restores (src/backups/restore-routes.ts): preview and test need backups.manage; restore, undo,
 * discard-kept and cancel need backups.restore from a session, with the password (and the
 * confirmation word) in the body instead of a recent re-authentication. A row whose success
 * replaces the data or leaves a job running over it gets a world of its own per caller it lets
 * through.
 */
import type { Core } from "../../src/core";
import { runningJob, settled } from "../../src/backups/jobs";
import { currentRestore, startRestore } from "../../src/backups/restore-service";
import { takeBackup } from "../../src/backups/service";
import { PASSWORD } from "../harness";
import type { AdminRow } from "./types";

const PATH = "/api/admin/backups";

/** A backup to restore, taken once no other backup or restore runs. */
async function backupLabel(core: Core): Promise<string> {
  for (let b = runningJob(core, "backup"); b; b = runningJob(core, "backup")) await settled(core, b.id);
  const run = currentRestore(core);
  if (run?.jobId) await settled(core, run.jobId);
  return (await takeBackup(core, "manual")).label;
}

/** A finished restore, so a safety copy is kept (for undo and discard-kept). */
async function restored(core: Core): Promise<void> {
  const job = startRestore(core, await backupLabel(core), null, { actorId: null, ip: null });
  await settled(core, job.id);
}

const confirm = (word: string) => () => ({ confirmLabel: word, password: PASSWORD });

let lastLabel = "";

export const rows: AdminRow[] = [
  {
    route: `GET ${PATH}/:label/restore-preview`,
    need: "backups.manage",
    ok: 200,
    path: async (c) => `${PATH}/${await backupLabel(c.env.core)}/restore-preview`,
  },
  {
    route: `POST ${PATH}/:label/restore-test`,
    need: "backups.manage",
    ok: 202,
    path: async (c) => `${PATH}/${await backupLabel(c.env.core)}/restore-test`,
  },
  {
    route: `POST ${PATH}/:label/restore`,
    need: "backups.restore",
    sessionOnly: true,
    ok: 202,
    breaksWorld: true,
    path: async (c) => `${PATH}/${(lastLabel = await backupLabel(c.env.core))}/restore`,
    body: () => ({ confirmLabel: lastLabel, password: PASSWORD }),
  },
  {
    route: `POST ${PATH}/restore/undo`,
    need: "backups.restore",
    sessionOnly: true,
    ok: 202,
    breaksWorld: true,
    path: async (c) => (await restored(c.env.core), `${PATH}/restore/undo`),
    body: confirm("UNDO"),
  },
  {
    route: `POST ${PATH}/restore/discard-kept`,
    need: "backups.restore",
    sessionOnly: true,
    ok: 200,
    breaksWorld: true,
    path: async (c) => (await restored(c.env.core), `${PATH}/restore/discard-kept`),
    body: confirm("REMOVE"),
  },
  {
    route: `POST ${PATH}/restore/cancel`,
    need: "backups.restore",
    sessionOnly: true,
    ok: 200,
    breaksWorld: true,
    // A restore just started (its safety backup under way) is what cancel stops.
    path: async (c) => (
      startRestore(c.env.core, await backupLabel(c.env.core), null, { actorId: null, ip: null }), `${PATH}/restore/cancel`
    ),
  },
];
