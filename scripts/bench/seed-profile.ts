/**
 * Where a page write's time goes: `bun scripts/bench/seed-profile.ts [pages=3000] [updates=1000]`.
 *
 * Runs the whole instance (openInstance's parts, in its order) on a fresh data directory with
 * timing marks between the parts, so one run splits the time of createPage (seeding: BATCH
 * pages per transaction, as seed-pages.ts) and of updatePage (one transaction each, as
 * PUT /api/pages/{id}) into phases:
 *   - the search index (written after the change, many pages per transaction: the catch-up
 *     after the last page is timed; a timer may have done part of it during the loop),
 *   - the audit log, webhook queueing and notifications (event recorders; marks between them),
 *   - COMMIT (the database's exec wrapped: WAL write, fsync with synchronous=FULL, FTS5 flush),
 *   - content validation (checkContentJson on the same documents, timed alone),
 *   - the rest (page and version rows, the event row, access checks, reading the page back).
 * Options: --sync=NORMAL (instead of FULL), --without-search (diagnosis: what the index costs).
 * A diagnostic only: the benchmark's own seeding is seed-pages.ts, without marks.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installAuditLog } from "../../src/audit/service";
import { sampleDocument } from "../../src/content/sample";
import { checkContentJson } from "../../src/content/validate";
import { openCore, type Core } from "../../src/core";
import { onEventRecorded } from "../../src/events/outbox";
import { ensureBuiltInGroups } from "../../src/groups/service";
import { installNotifications } from "../../src/notifications/install";
import { updatePage } from "../../src/pages/service";
import { loadConfig } from "../../src/platform/config";
import { silentLogger } from "../../src/platform/log";
import { catchUpSearchIndex, installSearchIndexer } from "../../src/search/indexer";
import { createSpace } from "../../src/commands/create-space";
import { ensureBuiltInRoles, register } from "../../src/users/service";
import { installWebhooks } from "../../src/webhooks/sender";
import { ownerCaller, seedSpacePages, WORDS } from "./seed-pages";
import { OWNER } from "./seed";

type Phase = "search index" | "audit log" | "webhook queueing" | "notifications" | "COMMIT";

/** openInstance's parts with marks around each; answers the accumulated ms per phase. */
function instrumented(core: Core, withSearch: boolean) {
  const ms: Record<Phase, number> = { "search index": 0, "audit log": 0, "webhook queueing": 0, notifications: 0, COMMIT: 0 };
  let mark = 0;
  const since = (phase: Phase) => {
    const now = performance.now();
    ms[phase] += now - mark;
    mark = now;
  };
  ensureBuiltInRoles(core);
  ensureBuiltInGroups(core);
  core.beforeCommit(() => void (mark = performance.now()));
  if (withSearch) installSearchIndexer(core);
  core.beforeCommit(() => since("search index"));
  onEventRecorded(core, () => void (mark = performance.now()));
  installAuditLog(core);
  onEventRecorded(core, () => since("audit log"));
  installWebhooks(core);
  onEventRecorded(core, () => since("webhook queueing"));
  installNotifications(core);
  onEventRecorded(core, () => since("notifications"));
  const exec = core.sqlite.exec.bind(core.sqlite);
  core.sqlite.exec = ((sql: string, ...rest: unknown[]) => {
    if (sql !== "COMMIT") return exec(sql, ...(rest as []));
    const t0 = performance.now();
    try {
      return exec(sql);
    } finally {
      ms.COMMIT += performance.now() - t0;
    }
  }) as typeof core.sqlite.exec;
  return ms;
}

/**
 * The index is written after the change, in batches (search/indexer.ts): a timer may already
 * have done part of it during the loop (counted in "the rest"); the remainder is timed here.
 */
function catchUp(core: Core, ms: Record<Phase, number>): void {
  const t0 = performance.now();
  catchUpSearchIndex(core);
  ms["search index"] += performance.now() - t0;
}

export interface ProfileRow {
  phase: string;
  usPerPage: number;
}

function rows(total: number, validation: number, ms: Record<Phase, number>, n: number): ProfileRow[] {
  const named = Object.values(ms).reduce((a, b) => a + b, 0) + validation;
  return [
    { phase: "content validation (checkContentJson)", usPerPage: (validation / n) * 1000 },
    ...Object.entries(ms).map(([phase, v]) => ({ phase, usPerPage: (v / n) * 1000 })),
    { phase: "the rest (rows, event, access, read back)", usPerPage: ((total - named) / n) * 1000 },
    { phase: "total", usPerPage: (total / n) * 1000 },
  ];
}

/** `withSearch: false` leaves the search index out (to see what it costs at COMMIT: FTS5 flushes there). */
export async function profileWrites(pages: number, updates: number, sync = "FULL", withSearch = true) {
  const dir = mkdtempSync(join(tmpdir(), "cairn-seed-profile-"));
  const core = openCore(loadConfig(["--data", dir], {}), { log: silentLogger });
  try {
    const ms = instrumented(core, withSearch);
    core.sqlite.exec(`PRAGMA synchronous = ${sync}`);
    const { user } = await register(core, { ...OWNER, ip: "127.0.0.1" });
    const owner = ownerCaller(core, user.id);
    const space = createSpace(core, owner, { key: "PROF", name: "Profile" });
    const docs = Array.from({ length: 64 }, (_, k) => JSON.stringify(sampleDocument(7_000_000 + k, WORDS)));
    // Warm-up (JIT), then the marks start from zero.
    await seedSpacePages(core, owner, space.id, 500, { roots: 100, fanout: 10, seedBase: 900_000 });
    for (const k of Object.keys(ms)) ms[k as Phase] = 0;

    let t0 = performance.now();
    const seeded = await seedSpacePages(core, owner, space.id, pages, { roots: 100, fanout: 10, seedBase: 0 });
    ms["search index"] += seeded.indexSeconds * 1000;
    catchUp(core, ms);
    const createTotal = performance.now() - t0 - seeded.generateSeconds * 1000;
    const seededDocs = Array.from({ length: pages }, (_, i) => JSON.stringify(sampleDocument(i, WORDS)));
    t0 = performance.now();
    for (const d of seededDocs) checkContentJson(d);
    const create = rows(createTotal, performance.now() - t0, { ...ms }, pages);
    for (const k of Object.keys(ms)) ms[k as Phase] = 0;

    t0 = performance.now();
    for (let i = 0; i < updates; i++) {
      updatePage(core, owner, seeded.ids[(i * 37) % seeded.ids.length], { title: `Updated ${i}`, contentJson: docs[i % docs.length] });
      if (i % 50 === 49) await Bun.sleep(0); // post-commit work (webhook kick, outbox dispatch), as in the server
    }
    catchUp(core, ms);
    const updateTotal = performance.now() - t0;
    t0 = performance.now();
    for (let i = 0; i < updates; i++) checkContentJson(docs[i % docs.length]);
    const update = rows(updateTotal, performance.now() - t0, { ...ms }, updates);
    return { create, update, generateUsPerPage: (seeded.generateSeconds / pages) * 1e6 };
  } finally {
    core.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const pages = Number(process.argv[2] ?? 3000);
  const updates = Number(process.argv[3] ?? 1000);
  const sync = process.argv.find((a) => a.startsWith("--sync="))?.slice(7) ?? "FULL";
  const withSearch = !process.argv.includes("--without-search");
  const r = await profileWrites(pages, updates, sync, withSearch);
  const show = (title: string, list: ProfileRow[]) => {
    console.log(title);
    for (const row of list) console.log(`  ${row.phase.padEnd(45)} ${Math.round(row.usPerPage).toString().padStart(6)} µs`);
  };
  console.log(
    `synchronous=${sync}${withSearch ? "" : ", WITHOUT the search index"}; making one ` +
      `document (bench side, not counted): ${Math.round(r.generateUsPerPage)} µs`,
  );
  show(`createPage, ${pages} pages in transactions of 500 (per page):`, r.create);
  show(`updatePage, ${updates} updates, one transaction each (per update):`, r.update);
}
