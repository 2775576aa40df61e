/**
 * The writes the full bench makes before it measures first-time search (run.ts: the PUT scenario
 * rewrites 64 of the 100,000 pages thousands of times, the side-effects scenario one new page
 * ten thousand times), made on their own, so that search-100k.ts can measure the index as the
 * full bench finds it: every rewrite is a delete and an insert in each word index, committed a
 * few pages at a time by the catch-up (many small segments, delete markers in the large ones).
 *
 * Used by search-100k.ts --churn=PUTS (PUTS rewrites of the 64 pages, as many of the new one).
 */
import { putRequest } from "./content-scenarios";
import type { BenchContext } from "./scenarios";

const PAGES = 64;
const CONNECTIONS = 8;

/** Rewrites `puts` times pages spread over `pageIds` (as the PUT scenario), then one new page of a new space as often. */
export async function churn(ctx: BenchContext, pageIds: string[], puts: number, log: (line: string) => void): Promise<void> {
  const step = Math.max(1, Math.floor(pageIds.length / PAGES));
  const spread = Array.from({ length: Math.min(PAGES, pageIds.length) }, (_, i) => pageIds[i * step]);
  await rewrite(ctx, spread, puts);
  log(`churn: ${puts} rewrites of ${spread.length} pages spread over the space`);
  const space = await ctx.api("POST", "/api/spaces", { key: `CH${Date.now() % 100000}`, name: "Churn" });
  const page = await ctx.api("POST", "/api/pages", { spaceId: space.id, title: "Churned page" });
  await rewrite(ctx, [page.id], puts);
  log(`churn: ${puts} rewrites of one new page`);
}

async function rewrite(ctx: BenchContext, ids: string[], count: number): Promise<void> {
  const templates = ids.map((id, k) => putRequest(ctx, id, 7_000_000 + k));
  let next = 0;
  const worker = async () => {
    for (let n = next++; n < count; n = next++) {
      const t = templates[n % templates.length];
      const res = await fetch(ctx.baseUrl + t.path, { method: t.method, headers: t.headers, body: t.body?.replaceAll("{{n}}", String(n)) });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${t.method} ${t.path}: ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
}
