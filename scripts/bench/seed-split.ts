/**
 * Seeding split in two: `bun scripts/bench/seed-split.ts [pages=10000] [--count]`. Seeds `pages`
 * pages through the service layer as seed-pages.ts does (BATCH per outer transaction, the
 * instance as the server opens it), timing the createPage transactions apart from the search
 * catch-up after each, per slice of 10 % (does a page cost more as the space grows?), in CPU time
 * of this process (user + system: on a shared machine wall time is mostly other people's work).
 * `--each`: createPage per page instead of createPages; `--catch-up-at-end`: the search index
 * caught up once after the last batch (as seed-pages.ts), not after each.
 * `--count`: statements per page of each part (counted at the driver), a run apart from the timing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openInstance } from "../../src/instance";
import { createPage, createPages } from "../../src/pages/service";
import { loadConfig } from "../../src/platform/config";
import { startCountingStatements } from "../../src/platform/db/statement-count";
import { silentLogger } from "../../src/platform/log";
import { catchUpSearchIndex, searchIndex } from "../../src/search/indexer";
import { createSpace } from "../../src/commands/create-space";
import { register } from "../../src/users/service";
import { OWNER } from "./seed";
import { BATCH, batchInputs, ownerCaller } from "./seed-pages";

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const pages = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 10_000);
const counting = process.argv.includes("--count");
/** --catch-up-at-end: the search catch-up once, after the last batch (the timer may index some before). */
const atEnd = process.argv.includes("--catch-up-at-end");
/** --each: createPage page by page in one outer transaction (as before createPages), not createPages. */
const each = process.argv.includes("--each");
const dir = mkdtempSync(join(tmpdir(), "cairn-seed-split-"));
const core = openInstance(loadConfig(["--data", dir], {}), { log: silentLogger });
try {
  const { user } = await register(core, { ...OWNER, ip: "127.0.0.1" });
  const owner = ownerCaller(core, user.id);
  const space = createSpace(core, owner, { key: "BIG", name: "Big" });
  const counter = counting ? startCountingStatements() : null;
  const ids: string[] = [];
  const slice = Math.max(BATCH, Math.ceil(pages / 10 / BATCH) * BATCH);
  let create = 0,
    index = 0,
    sliceCreate = 0,
    sliceIndex = 0,
    createStatements = 0,
    indexStatements = 0;
  for (let start = 0; start < pages; start += BATCH) {
    const end = Math.min(start + BATCH, pages);
    const inputs = batchInputs(start, end, { roots: 100, fanout: 10, seedBase: 0 }, ids);
    counter?.reset();
    const t0 = cpuMs();
    if (each) {
      core.tx(() => {
        for (const { parentIndex: at, ...input } of inputs)
          ids.push(
            createPage(core, owner, { ...input, spaceId: space.id, parentPageId: at === undefined ? input.parentPageId : ids[start + at] })
              .id,
          );
      });
    } else for (const page of createPages(core, owner, space.id, inputs)) ids.push(page.id);
    const t1 = cpuMs();
    createStatements += counter?.count ?? 0;
    counter?.reset();
    if (!atEnd) catchUpSearchIndex(core);
    else if (end === pages) searchIndex(core).catchUp();
    await Bun.sleep(0);
    const t2 = cpuMs();
    indexStatements += counter?.count ?? 0;
    create += t1 - t0;
    index += t2 - t1;
    sliceCreate += t1 - t0;
    sliceIndex += t2 - t1;
    if (end % slice === 0 || end === pages) {
      console.log(
        `  to ${String(end).padStart(7)}: createPage ${((sliceCreate * 1000) / slice).toFixed(0).padStart(5)} ` +
          `µs/page, catch-up ${((sliceIndex * 1000) / slice).toFixed(0).padStart(5)} µs/page`,
      );
      sliceCreate = sliceIndex = 0;
    }
  }
  counter?.stop();
  console.log(
    `${pages} pages: createPage ${(create / 1000).toFixed(2)} s, catch-up ` +
      `${(index / 1000).toFixed(2)} s, together ${((create + index) / 1000).toFixed(2)} s of CPU`,
  );
  if (counting)
    console.log(
      `statements per page: createPage ${(createStatements / pages).toFixed(2)}, catch-up ${(indexStatements / pages).toFixed(2)}`,
    );
} finally {
  core.close();
  rmSync(dir, { recursive: true, force: true });
}
