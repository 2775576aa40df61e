/** Test helpers for backups. */
import { Database } from "bun:sqlite";
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

/**
 * What a database file says about itself, opened read-only: its integrity check, its page
 * versions (count, bytes, last number), and what `extra` queries answer (one row each).
 */
export function fingerprintDb(path: string, extra: Record<string, string> = {}) {
  const db = new Database(path, { readonly: true });
  try {
    const out: Record<string, unknown> = {
      integrity: db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check,
      versions: db.query("SELECT count(*) AS n, sum(length(content_json)) AS bytes, max(version_number) AS last FROM page_versions").get(),
    };
    for (const [name, sql] of Object.entries(extra)) out[name] = db.query(sql).get();
    return out;
  } finally {
    db.close();
  }
}
