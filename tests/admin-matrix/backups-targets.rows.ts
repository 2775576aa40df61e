/**
 * Backup targets (src/backups/targets-*): a target receives a whole copy of the wiki, so where
 * copies go is the owner's decision: setting a slot needs backups.restore (which the
 * Administrator role lacks) and a recent re-authentication, and so does copying to a slot that
 * nobody holding it has set; listing, testing, removing and copying to a slot the owner set need
 * backups.manage. The rows use the folder slot, pointed at a temporary folder, so a test or
 * copy touches no network.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { settled } from "../../src/backups/jobs";
import { runningCopies } from "../../src/backups/targets-jobs";
import { updateTargets } from "../../src/backups/targets-store";
import type { AdminRow, MatrixCtx } from "./types";

const PATH = "/api/admin/backups/targets";
const folder = mkdtempSync(join(tmpdir(), "cairn-matrix-target-"));
process.on("exit", () => rmSync(folder, { recursive: true, force: true }));

/**
 * The folder slot set (as the owner's PUT would), and no copy still running from an earlier
 * caller. `approved: false`: as a slot set before setting one needed backups.restore.
 */
async function folderSlot(c: MatrixCtx, path: string, approved = true): Promise<string> {
  const { core } = c.env;
  for (const job of Object.values(runningCopies(core))) if (job) await settled(core, job.id);
  updateTargets(core, (f) => {
    f.directory ??= { path: folder, updatedAt: new Date().toISOString(), lastTest: null, lastCopy: null };
    f.directory.approvedBy = approved ? c.ids.owner : null;
  });
  return path;
}

export const rows: AdminRow[] = [
  { route: `GET ${PATH}`, need: "backups.manage", ok: 200, path: () => PATH },
  {
    route: `PUT ${PATH}/:slot`,
    need: "backups.restore",
    reauth: true,
    ok: 200,
    path: () => `${PATH}/directory`,
    body: () => ({ path: folder }),
  },
  { route: `DELETE ${PATH}/:slot`, need: "backups.manage", ok: 204, path: (c) => folderSlot(c, `${PATH}/directory`) },
  { route: `POST ${PATH}/:slot/test`, need: "backups.manage", ok: 200, path: (c) => folderSlot(c, `${PATH}/directory/test`) },
  {
    route: `POST ${PATH}/:slot/copy`,
    need: "backups.manage",
    ok: 202,
    path: (c) => folderSlot(c, `${PATH}/directory/copy`),
    note: "a slot the owner set",
  },
  {
    route: `POST ${PATH}/:slot/copy`,
    need: "backups.restore",
    ok: 202,
    path: (c) => folderSlot(c, `${PATH}/directory/copy`, false),
    note: "a slot nobody holding backups.restore set",
  },
];
