/**
 * Backups (src/backups/routes.ts): everything needs backups.manage; the policy and removing a
 * backup by hand also need a recent re-authentication. One backup runs at a time, so a row
 * that runs one first waits for the one before it.
 */
import type { Core } from "../../src/core";
import { runningJob, settled } from "../../src/backups/jobs";
import { startBackupJob, takeBackup } from "../../src/backups/service";
import type { AdminRow } from "./types";

const PATH = "/api/admin/backups";

async function idle(core: Core): Promise<void> {
  for (let running = runningJob(core, "backup"); running; running = runningJob(core, "backup")) await settled(core, running.id);
}

const policy = () => ({ enabled: true, keepCount: 7, keepDays: 30 });

export const rows: AdminRow[] = [
  { route: `GET ${PATH}`, need: "backups.manage", ok: 200, path: () => PATH },
  { route: `GET ${PATH}`, need: "backups.manage", ok: 200, path: () => `${PATH}?includeRemoved=true`, note: "includeRemoved" },
  {
    route: `POST ${PATH}/run`,
    need: "backups.manage",
    ok: 202,
    path: async (c) => {
      await idle(c.env.core);
      return `${PATH}/run`;
    },
  },
  {
    route: `GET ${PATH}/jobs/{id}`,
    need: "backups.manage",
    ok: 200,
    path: async (c) => {
      await idle(c.env.core);
      const job = startBackupJob(c.env.core, "manual");
      await settled(c.env.core, job.id);
      return `${PATH}/jobs/${job.id}`;
    },
  },
  { route: `PUT ${PATH}/policy`, need: "backups.manage", reauth: true, ok: 200, path: () => `${PATH}/policy`, body: policy },
  { route: `POST ${PATH}/policy/preview`, need: "backups.manage", ok: 200, path: () => `${PATH}/policy/preview`, body: policy },
  {
    route: `DELETE ${PATH}/{label}`,
    need: "backups.manage",
    reauth: true,
    ok: 204,
    path: async (c) => `${PATH}/${(await takeBackup(c.env.core, "manual")).label}`,
  },
];
