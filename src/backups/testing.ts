/** Test helpers for backups. */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { call, type TestEnv, type Who } from "../../tests/harness";
import { settled } from "./jobs";

/** POST /run, then waits for the job; answers the finished job. */
export async function runBackupNow(env: TestEnv, who: Who) {
  const started = await call(env, "POST", "/api/admin/backups/run", { as: who });
  if (started.status !== 202) throw new Error(`run: ${started.status} ${started.text}`);
  const job = await settled(env.core, started.body.job.id);
  if (job?.state !== "succeeded") throw new Error(`backup job ${job?.state}: ${JSON.stringify(job?.error)}`);
  return job as typeof job & { result: { backup: { label: string }; removed: string[] } };
}

export const sha256File = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
