/**
 * Seeding split in two: `bun scripts/bench/seed-split.ts [pages=10000] [--count]`. Seeds `pages`
 * pages through the service layer as seed-pages.ts does (BATCH per outer transaction, the
 * instance as the server opens it), timing the createPage transactions apart from the search
 * catch-up after each, per slice of 10 % (does a page cost more as the space grows?), in CPU time
 * of this process (user + system: on a shared machine wall time is mostly other people's work).
 * `--count`: statements per page of each part (counted at the driver), a run apart from the timing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sampleDocument } from "../../src/content/sample";
import { openInstance } from "../../src/instance";
import { createPage } from "../../src/pages/service";
import { loadConfig } from "../../src/platform/config";
import { startCountingStatements } from "../../src/platform/db/statement-count";
import { silentLogger } from "../../src/platform/log";
import { catchUpSearchIndex, searchIndex } from "../../src/search/indexer";
import { createSpace } from "../../src/spaces/service";
import { register } from "../../src/users/service";
import { OWNER } from "./seed";
import { BATCH, ownerCaller, parentIndex, WORDS } from "./seed-pages";

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const pages = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 10_000);
const counting = process.argv.includes("--count");
/** --catch-up-at-end: the search catch-up once, after the last batch (the timer may index some before). */
const atEnd = process.argv.includes("--catch-up-at-end");
const dir = mkdtempSync(join(tmpdir(), "cairn-seed-split-"));
const core = openInstance(loadConfig(["--data", dir], {}), { log: silentLogger });
try {
  const { user } = await register(core, { ...OWNER, ip: "127.0.0.1" });
  const owner = ownerCaller(core, user.id);
  const space = createSpace(core, owner, { key: "BIG", name: "Big" });
  const counter = counting ? startCountingStatements() : null;
  const ids: string[] = [];
  const slice = Math.max(BATCH, Math.ceil(pages / 10 / BATCH) * BATCH);
  let create = 0, index = 0, sliceCreate = 0, sliceIndex = 0, createStatements = 0, indexStatements = 0;
  for (let start = 0; start < pages; start += BATCH) {
    const end = Math.min(start + BATCH, pages);
    const inputs = [];
    for (let i = start; i < end; i++) {
      const doc = sampleDocument(i, WORDS);
      inputs.push({ title: `${doc.content[0]?.content?.[0]?.text ?? "Page"} ${i}`, contentJson: JSON.stringify(doc), parent: parentIndex(i, 100, 10) });
    }
    counter?.reset();
    const t0 = cpuMs();
    core.tx(() => {
      for (const input of inputs) ids.push(createPage(core, owner, { spaceId: space.id, parentPageId: input.parent === null ? null : ids[input.parent], title: input.title, contentJson: input.contentJson }).id);
    });
    const t1 = cpuMs();
    createStatements += counter?.count ?? 0;
    counter?.reset();
    if (!atEnd) catchUpSearchIndex(core);
    else if (end === pages) searchIndex(core).catchUp();
    await Bun.sleep(0);
    const t2 = cpuMs();
    indexStatements += counter?.count ?? 0;
    create += t1 - t0; index += t2 - t1; sliceCreate += t1 - t0; sliceIndex += t2 - t1;
    if (end % slice === 0 || end === pages) {
      console.log(`  to ${String(end).padStart(7)}: createPage ${((sliceCreate * 1000) / slice).toFixed(0).padStart(5)} µs/page, catch-up ${((sliceIndex * 1000) / slice).toFixed(0).padStart(5)} µs/page`);
      sliceCreate = sliceIndex = 0;
    }
  }
  counter?.stop();
  console.log(`${pages} pages: createPage ${(create / 1000).toFixed(2)} s, catch-up ${(index / 1000).toFixed(2)} s, together ${((create + index) / 1000).toFixed(2)} s of CPU`);
  if (counting) console.log(`statements per page: createPage ${(createStatements / pages).toFixed(2)}, catch-up ${(indexStatements / pages).toFixed(2)}`);
} finally {
  core.close();
  rmSync(dir, { recursive: true, force: true });
}
