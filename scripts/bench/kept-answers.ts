/**
 * How often the kept answers answer under mixed traffic (docs/decisions.md, "Caches count hits and
 * misses"): readers ask for trees, pages and searches with API tokens (whose use is flushed every
 * 5 s) and session cookies, while a writer changes a page every WRITE_EVERY_MS in a space with
 * webhooks (whose delivery outcomes are written as they come back). Bookkeeping like that must not
 * empty the caches; the page writes rightly do. The server logs each cache's hits and misses at
 * shutdown (src/server.ts); this reads them from its log. The instance is seeded, then restarted,
 * so the counts are the traffic's alone.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sampleDocument } from "../../src/content/sample";
import { startReceiver } from "./receiver";
import { seedContext } from "./seed";
import { removeAtExit, stop } from "./procs";
import { startCairn } from "./server";

const PAGES = 60;
const READERS = 8;
/** Each reader's pause between requests: about 150 reads a second in all, a busy team's wiki. */
const THINK_MS = 50;
const WRITE_EVERY_MS = 5_000;
const QUERIES = ["alpha", "river stone", "garden", "north wind", "paper", "lamp"];

export interface KeptAnswerFigures {
  seconds: number;
  reads: number;
  writes: number;
  deliveries: number;
  /** Hits over hits + misses, per cache and over all of them. */
  hitRate: Record<string, number>;
  caches: Record<string, { hits: number; misses: number; dropped: number }>;
}

export async function measureKeptAnswers(binary: string, logPath: string, quick: boolean): Promise<KeptAnswerFigures> {
  const seconds = quick ? 20 : 40;
  const dataDir = mkdtempSync(join(tmpdir(), "cairn-kept-"));
  removeAtExit(dataDir);
  const seeding = await startCairn(binary, `${logPath}.seed`, dataDir);
  const receiver = startReceiver();
  let cairn = seeding;
  try {
    const ctx = await seedContext(cairn.url, quick);
    const space = await ctx.api("POST", "/api/spaces", { key: "MIX", name: "Mixed traffic" });
    const ids: string[] = [];
    for (let i = 0; i < PAGES; i++) {
      const doc = sampleDocument(900 + i, 120);
      const page = await ctx.api("POST", "/api/pages", {
        spaceId: space.id,
        parentPageId: i > 5 ? ids[i % 6] : undefined,
        title: `Page ${i}`,
        contentJson: JSON.stringify(doc),
      });
      ids.push(page.id);
    }
    for (let n = 1; n <= 3; n++)
      await ctx.api("POST", `/api/spaces/MIX/webhooks`, { url: `${receiver.url}/hook/${n}`, events: ["page.updated"] });
    const mint = async (n: number) => {
      const res = await fetch(`${cairn.url}/api/api-tokens`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-requested-with": "Cairn", cookie: `cairn_session=${ctx.cookie}` },
        body: JSON.stringify({ name: `reader ${n}` }),
      });
      if (res.status !== 201) throw new Error(`mint token: ${res.status}`);
      return (await res.json()).token as string;
    };
    const tokens = [ctx.token, await mint(1), await mint(2), await mint(3)];
    // Restarted on the same directory (stop() of startCairn would remove it).
    if ((await stop(seeding.child)) !== 0) throw new Error(`cairn exited badly after seeding (see ${logPath}.seed)`);
    cairn = await startCairn(binary, logPath, dataDir);
    const base = cairn.url;
    const deadline = performance.now() + seconds * 1000;
    let reads = 0;
    let writes = 0;
    const reader = async (r: number) => {
      for (let i = 0; performance.now() < deadline; i++) {
        const which = (r + i) % 3;
        const path =
          which === 0
            ? `/api/pages/tree?spaceId=${space.id}`
            : which === 1
              ? `/api/pages/${ids[(r * 7 + i) % PAGES]}`
              : `/api/search?q=${encodeURIComponent(QUERIES[(r + i) % QUERIES.length])}`;
        const headers: Record<string, string> =
          r % 2 === 0 ? { authorization: `Bearer ${tokens[r % tokens.length]}` } : { cookie: `cairn_session=${ctx.cookie}` };
        const res = await fetch(base + path, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
        reads++;
        await Bun.sleep(THINK_MS);
      }
    };
    const writer = async () => {
      while (performance.now() + WRITE_EVERY_MS < deadline) {
        await Bun.sleep(WRITE_EVERY_MS);
        const res = await fetch(`${base}/api/pages/${ids[writes % PAGES]}`, {
          method: "PUT",
          headers: { ...ctx.auth(), "content-type": "application/json" },
          body: JSON.stringify({ title: `Page ${writes % PAGES} (edit ${writes})` }),
        });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`PUT page: ${res.status}`);
        writes++;
      }
    };
    await Promise.all([writer(), ...Array.from({ length: READERS }, (_, r) => reader(r))]);
    // Let the last deliveries come back, so their outcomes are written before the count.
    await Bun.sleep(1_000);
    const code = await cairn.stop();
    if (code !== 0) throw new Error(`cairn exited with ${code} (see ${logPath})`);
    const line = readFileSync(logPath, "utf8")
      .split("\n")
      .reverse()
      .find((l) => l.includes('"kept answers"'));
    if (!line) throw new Error(`no "kept answers" line in ${logPath}`);
    const caches = JSON.parse(line).caches as KeptAnswerFigures["caches"];
    const rate = (h: number, m: number) => (h + m === 0 ? 0 : Math.round((h / (h + m)) * 1000) / 1000);
    const hitRate: Record<string, number> = {};
    let hits = 0;
    let misses = 0;
    for (const [name, c] of Object.entries(caches)) {
      if (c.hits + c.misses === 0) continue;
      hitRate[name] = rate(c.hits, c.misses);
      hits += c.hits;
      misses += c.misses;
    }
    hitRate.all = rate(hits, misses);
    return { seconds, reads, writes, deliveries: receiver.total(), hitRate, caches };
  } finally {
    receiver.stop();
    await cairn.stop().catch(() => {});
  }
}
