/**
 * Seeding pages through the service layer, in the bench process, before the server starts on
 * the same data directory: openInstance (migrations, search indexer, audit log, webhooks,
 * notifications all installed, as in the server), the Owner registered, then createPage for
 * every page, BATCH pages per call of createPages (one transaction). Nothing is bypassed: every
 * page is validated, indexed, audited and watched as over HTTP.
 *
 * Two spaces: BIG (the search corpus: 100,000 pages, 10,000 with --quick) and TREE (exactly
 * 1,000 pages, for the tree scenario). Both are nested a few levels: ROOTS top-level pages,
 * then each page takes the next FANOUT pages as children.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import type { UserCaller } from "../../src/identity/caller";
import type { Core } from "../../src/core";
import { openInstance } from "../../src/instance";
import { createPages, type NewPageInput } from "../../src/pages/service";
import { searchIndex, tidySearchIndex } from "../../src/search/indexer";
import { loadConfig } from "../../src/platform/config";
import { silentLogger } from "../../src/platform/log";
import { sampleDocument, type SampleNode } from "../../src/content/sample";
import { createSpace } from "../../src/commands/create-space";
import { findUserWithRoleById, register } from "../../src/users/service";
import { OWNER } from "./seed";

export const BATCH = 500;
export const WORDS = 500;
export const TREE_PAGES = 1_000;

export interface SeededSpace {
  id: string;
  key: string;
  /** Every page's id, in creation order (parents before children). */
  pageIds: string[];
}

export interface PreSeed {
  big: SeededSpace;
  tree: SeededSpace;
  /** Wall time of the BIG space's createPage batches (the "seeding" figure), documents made beforehand per batch. */
  seedSeconds: number;
  /** Time spent making the sample documents (the bench's own work, outside seedSeconds). */
  generateSeconds: number;
  pagesPerSecond: number;
  /** The database file after close (the WAL folded back in). */
  dbSizeMb: number;
  /** Sizes of the biggest tables and indexes (dbstat), where SQLite was built with it. */
  tableSizesMb: Record<string, number> | null;
}

function docTitle(doc: SampleNode & { content: SampleNode[] }, i: number): string {
  // The first heading, as the page's title; the number keeps titles apart in the tree.
  const h1 = doc.content[0]?.content?.[0]?.text ?? "Page";
  return `${h1} ${i}`;
}

/** The parent of page i: none for the first `roots`, else page ⌊(i - roots) / fanout⌋. */
export function parentIndex(i: number, roots: number, fanout: number): number | null {
  return i < roots ? null : Math.floor((i - roots) / fanout);
}

export function ownerCaller(core: Core, userId: string): UserCaller {
  const found = findUserWithRoleById(core, userId)!;
  return {
    kind: "user",
    ip: "127.0.0.1",
    user: found.user,
    role: found.role,
    permissions: new Set(found.role.permissions),
    session: null,
    token: null,
  };
}

/**
 * Pages start..end-1 as createPages takes them: a parent made by an earlier batch by its id, one
 * of the same batch by its index in it.
 */
export function batchInputs(
  start: number,
  end: number,
  shape: { roots: number; fanout: number; seedBase: number },
  ids: readonly string[],
): NewPageInput[] {
  const inputs: NewPageInput[] = [];
  for (let i = start; i < end; i++) {
    const doc = sampleDocument(shape.seedBase + i, WORDS);
    const parent = parentIndex(i, shape.roots, shape.fanout);
    const where = parent === null ? {} : parent < start ? { parentPageId: ids[parent] } : { parentIndex: parent - start };
    inputs.push({ title: docTitle(doc, i), contentJson: JSON.stringify(doc), ...where });
  }
  return inputs;
}

/**
 * Creates `count` pages in the space, BATCH per transaction (createPages: the service's path for
 * many pages, the same checks and rows as createPage's, page by page). Answers the ids and the seconds
 * spent inside the transactions (and yielding to the event loop between batches, where the
 * outbox dispatch, the webhook kick and the search index's timer run), indexing them for search
 * after the last, and making documents (outside).
 */
export async function seedSpacePages(
  core: Core,
  caller: UserCaller,
  spaceId: string,
  count: number,
  shape: { roots: number; fanout: number; seedBase: number },
) {
  const ids: string[] = [];
  let serviceMs = 0;
  let generateMs = 0;
  for (let start = 0; start < count; start += BATCH) {
    const end = Math.min(start + BATCH, count);
    const g0 = performance.now();
    const inputs = batchInputs(start, end, shape, ids);
    const s0 = performance.now();
    generateMs += s0 - g0;
    for (const page of createPages(core, caller, spaceId, inputs)) ids.push(page.id);
    // Let what runs after a commit (outbox dispatch, webhook kick, the search index's timer) run,
    // as in the server.
    await Bun.sleep(0);
    serviceMs += performance.now() - s0;
  }
  // The search index is written after the change (search/indexer.ts), as a backlog: here all of
  // it once the last page is in, counted in the seeding time. Indexed batch by batch instead,
  // every page went into the index of the newest pages (fts5-recent.ts) as the newest, to be
  // taken out again a few batches later; a backlog goes there only above its floor, the newest
  // 10,000 (docs/decisions.md, "Seeding").
  const c0 = performance.now();
  searchIndex(core).catchUp();
  const indexMs = performance.now() - c0;
  serviceMs += indexMs;
  return { ids, serviceSeconds: serviceMs / 1000, generateSeconds: generateMs / 1000, indexSeconds: indexMs / 1000 };
}

function tableSizes(core: Core): Record<string, number> | null {
  try {
    const rows = core.sqlite
      .query<{ name: string; bytes: number }, []>("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 8")
      .all();
    return Object.fromEntries(rows.map((r) => [r.name, Math.round((r.bytes / 1024 / 1024) * 10) / 10]));
  } catch {
    return null; // SQLite without SQLITE_ENABLE_DBSTAT_VTAB
  }
}

/**
 * Opens `dataDir` (fresh) in-process, registers the Owner (same credentials as seed.ts, so
 * the bench signs in over HTTP afterwards), creates the two spaces and their pages, closes.
 */
export async function preSeed(dataDir: string, bigPages: number, log: (line: string) => void = () => {}): Promise<PreSeed> {
  const core = openInstance(loadConfig(["--data", dataDir], {}), { log: silentLogger });
  try {
    const { user } = await register(core, { ...OWNER, ip: "127.0.0.1" });
    const owner = ownerCaller(core, user.id);
    const bigSpace = createSpace(core, owner, { key: "BIG", name: "Search corpus" });
    const treeSpace = createSpace(core, owner, { key: "TREE", name: "Tree of 1000" });

    const tree = await seedSpacePages(core, owner, treeSpace.id, TREE_PAGES, { roots: 10, fanout: 5, seedBase: 1_000_000 });
    log(`seeded TREE: ${TREE_PAGES} pages in ${tree.serviceSeconds.toFixed(1)} s`);

    const t0 = performance.now();
    const big = await seedSpacePages(core, owner, bigSpace.id, bigPages, { roots: 100, fanout: 10, seedBase: 0 });
    const wallSeconds = (performance.now() - t0) / 1000;
    log(
      `seeded BIG: ${bigPages} pages in ${big.serviceSeconds.toFixed(1)} s ` +
        `(+${big.generateSeconds.toFixed(1)} s making documents; ${wallSeconds.toFixed(1)} s wall)`,
    );
    // What a server's drain does after a bulk backlog (search/indexer.ts), done here before the
    // server starts: left half merged, the index's segments were merged by the bench's page edits.
    // Counted in the seeding figure: the index is not finished until it is merged.
    const m0 = performance.now();
    tidySearchIndex(core);
    const tidySeconds = (performance.now() - m0) / 1000;
    log(`search index merged after the bulk catch-up in ${tidySeconds.toFixed(1)} s (in the seeding figure)`);

    const sizes = tableSizes(core);
    core.close();
    const dbSizeMb = statSync(join(dataDir, "cairn.db")).size / 1024 / 1024;
    return {
      big: { id: bigSpace.id, key: bigSpace.key, pageIds: big.ids },
      tree: { id: treeSpace.id, key: treeSpace.key, pageIds: tree.ids },
      seedSeconds: big.serviceSeconds + tidySeconds,
      generateSeconds: big.generateSeconds,
      pagesPerSecond: bigPages / (big.serviceSeconds + tidySeconds),
      dbSizeMb,
      tableSizesMb: sizes,
    };
  } catch (err) {
    core.close();
    throw err;
  }
}
