/** The first-run wizard (src/setup): the owner only, tokens included (read-only ones may only look). */
import { call } from "../harness";
import type { AdminRow, MatrixCtx } from "./types";

const SKIPPABLE = ["instance", "registration", "permissions", "backups", "first-space"];

/** A world where completing succeeds: the owner skipped every step that can be skipped. */
async function readyToComplete(c: MatrixCtx): Promise<string> {
  for (const key of SKIPPABLE) {
    const res = await call(c.env, "POST", `/api/setup/steps/${key}`, { as: c.owner, body: { skipped: true } });
    if (res.status !== 200) throw new Error(`skip ${key}: ${res.status} ${res.text}`);
  }
  return "/api/setup/complete";
}

export const rows: AdminRow[] = [
  { route: "GET /api/setup", need: "owner", ok: 200, path: () => "/api/setup" },
  {
    route: "POST /api/setup/steps/:key",
    need: "owner",
    ok: 200,
    path: () => "/api/setup/steps/welcome",
    body: () => ({ skipped: false }),
    note: "done",
  },
  {
    route: "POST /api/setup/steps/:key",
    need: "owner",
    ok: 200,
    path: () => "/api/setup/steps/backups",
    body: () => ({ skipped: true }),
    note: "skipped",
  },
  { route: "POST /api/setup/complete", need: "owner", ok: 200, breaksWorld: true, path: readyToComplete },
];
