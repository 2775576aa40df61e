/**
 * Where seeding time goes: `bun scripts/bench/seed-profile.ts [pages=3000]`.
 *
 * The same createPage batches as seed-pages.ts, repeated on fresh data directories with the
 * instance's parts installed one at a time (openCore, then the search indexer, the audit log,
 * webhooks, notifications: openInstance's order), so each part's cost is the difference from
 * the run before. Also times making the documents and validating them alone. A diagnostic
 * only: the benchmark's own seeding always runs the whole instance (seed-pages.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installAuditLog } from "../../src/audit/service";
import { sampleDocument } from "../../src/content/sample";
import { checkContentJson } from "../../src/content/validate";
import { openCore, type Core } from "../../src/core";
import { ensureBuiltInGroups } from "../../src/groups/service";
import { installNotifications } from "../../src/notifications/install";
import { loadConfig } from "../../src/platform/config";
import { silentLogger } from "../../src/platform/log";
import { installSearchIndexer } from "../../src/search/indexer";
import { createSpace } from "../../src/spaces/service";
import { ensureBuiltInRoles, register } from "../../src/users/service";
import { installWebhooks } from "../../src/webhooks/sender";
import { ownerCaller, seedSpacePages, WORDS } from "./seed-pages";
import { OWNER } from "./seed";

const PARTS: Array<[string, (core: Core) => void]> = [
  ["search indexer", installSearchIndexer],
  ["audit log", installAuditLog],
  ["webhooks", installWebhooks],
  ["notifications", installNotifications],
];

/** Seconds for `pages` createPage calls on a core with the first `parts` parts installed. */
async function timed(pages: number, parts: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "cairn-seed-profile-"));
  const core = openCore(loadConfig(["--data", dir], {}), { log: silentLogger });
  try {
    ensureBuiltInRoles(core);
    ensureBuiltInGroups(core);
    for (const [, install] of PARTS.slice(0, parts)) install(core);
    const { user } = await register(core, { ...OWNER, ip: "127.0.0.1" });
    const owner = ownerCaller(core, user.id);
    const space = createSpace(core, owner, { key: "PROF", name: "Profile" });
    const r = await seedSpacePages(core, owner, space.id, pages, { roots: 100, fanout: 10, seedBase: 0 });
    return r.serviceSeconds;
  } finally {
    core.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function profileSeeding(pages: number): Promise<Array<{ phase: string; seconds: number; usPerPage: number }>> {
  const rows: Array<{ phase: string; seconds: number }> = [];
  let t = performance.now();
  const docs = Array.from({ length: pages }, (_, i) => JSON.stringify(sampleDocument(i, WORDS)));
  rows.push({ phase: "making documents (bench side)", seconds: (performance.now() - t) / 1000 });
  t = performance.now();
  for (const d of docs) checkContentJson(d);
  rows.push({ phase: "content validation alone (checkContentJson)", seconds: (performance.now() - t) / 1000 });
  // JIT and page cache first; then each configuration twice, keeping the faster (neighbours).
  await timed(Math.ceil(pages / 3), PARTS.length);
  const best = async (parts: number) => Math.min(await timed(pages, parts), await timed(pages, parts));
  let before = await best(0);
  rows.push({ phase: "createPage on the bare core (validation, rows, version, access, event)", seconds: before });
  for (let i = 0; i < PARTS.length; i++) {
    const s = await best(i + 1);
    rows.push({ phase: `+ ${PARTS[i][0]}`, seconds: s - before });
    before = s;
  }
  rows.push({ phase: "total (whole instance)", seconds: before });
  return rows.map((r) => ({ ...r, usPerPage: (r.seconds / pages) * 1e6 }));
}

if (import.meta.main) {
  const pages = Number(process.argv[2] ?? 3000);
  for (const r of await profileSeeding(pages)) {
    console.log(`${r.phase.padEnd(75)} ${r.seconds.toFixed(2).padStart(7)} s  ${Math.round(r.usPerPage).toString().padStart(6)} µs/page`);
  }
}
