/**
 * Backup targets (src/backups/targets-*): everything needs backups.manage; setting a slot also
 * needs a recent re-authentication (a target receives a whole copy of the wiki). The rows use
 * the folder slot, pointed at a temporary folder, so a test or copy touches no network.
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

/** The folder slot set (as PUT would), and no copy still running from an earlier caller. */
async function folderSlot(c: MatrixCtx, path: string): Promise<string> {
  const { core } = c.env;
  updateTargets(core, (f) => {
    f.directory ??= { path: folder, updatedAt: new Date().toISOString(), lastTest: null, lastCopy: null };
  });
  for (const job of Object.values(runningCopies(core))) if (job) await settled(core, job.id);
  return path;
}

export const rows: AdminRow[] = [
  { route: `GET ${PATH}`, need: "backups.manage", ok: 200, path: () => PATH },
  { route: `PUT ${PATH}/:slot`, need: "backups.manage", reauth: true, ok: 200, path: () => `${PATH}/directory`, body: () => ({ path: folder }) },
  { route: `DELETE ${PATH}/:slot`, need: "backups.manage", ok: 204, path: (c) => folderSlot(c, `${PATH}/directory`) },
  { route: `POST ${PATH}/:slot/test`, need: "backups.manage", ok: 200, path: (c) => folderSlot(c, `${PATH}/directory/test`) },
  { route: `POST ${PATH}/:slot/copy`, need: "backups.manage", ok: 202, path: (c) => folderSlot(c, `${PATH}/directory/copy`) },
];
