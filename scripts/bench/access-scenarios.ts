/**
 * Reading through restrictions: a space of 10,000 pages carrying 200 restrictions at every
 * depth (--quick: 2,020 pages, 40 restrictions), read by a member who is named in some of them
 * and left out of others, held to content-scenarios.ts's targets (tree of 1,000 pages p95 < 15 ms,
 * GET page ≥ 30 % of baseline rps and p99 < 10 ms, search p95 < 20 ms). A second space of 1,010
 * pages and 20 restrictions carries the tree target. Seeded through the public API in the first
 * setup (access-seed.ts), as the owner; the reader reads with a read-only token of their own.
 *
 * As in content-scenarios.ts, p95 at 32 connections is mostly queueing, so each scenario also
 * reports its latency one request at a time (`p95At1Ms`).
 */
import { seedRestrictedSpace, type RestrictedSpace } from "./access-seed";
import { serialP95 } from "./content-scenarios";
import type { BenchContext, LoadFigures, LoadRequest, Scenario } from "./scenarios";

const TIMEOUT_MS = 15_000;

interface AccessSeed {
  big: RestrictedSpace;
  mid: RestrictedSpace;
  readerToken: string;
  seedSeconds: number;
}

const seedOf = (ctx: BenchContext) => {
  const seed = ctx.shared.access as AccessSeed | undefined;
  if (!seed) throw new Error("access scenarios: the first setup did not run");
  return seed;
};

async function json(res: Response, what: string) {
  const text = await res.text();
  if (res.status < 200 || res.status > 299) throw new Error(`${what}: ${res.status} ${text.slice(0, 300)}`);
  return { body: text ? JSON.parse(text) : null, res };
}

/** A second account, invited by the owner, with a read-only token of its own. */
async function reader(ctx: BenchContext): Promise<{ id: string; token: string }> {
  const invite = await ctx.api("POST", "/api/admin/invites", {});
  const headers = { "content-type": "application/json", "x-requested-with": "Cairn" };
  const registered = await json(
    await fetch(`${ctx.baseUrl}/api/auth/register`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        email: "bench-reader@example.com",
        displayName: "Bench Reader",
        password: "bench reader battery staple",
        inviteToken: invite.token,
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    }),
    "register reader",
  );
  const cookie = /cairn_session=([^;]*)/.exec(registered.res.headers.get("set-cookie") ?? "")?.[1];
  if (!cookie) throw new Error("register reader: no session cookie");
  const minted = await json(
    await fetch(`${ctx.baseUrl}/api/api-tokens`, {
      method: "POST",
      headers: { ...headers, cookie: `cairn_session=${cookie}` },
      body: JSON.stringify({ name: "bench reader", readOnly: true }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    }),
    "mint reader token",
  );
  return { id: registered.body.id, token: minted.body.token };
}

async function seedAccess(ctx: BenchContext): Promise<void> {
  if (ctx.shared.access) return;
  const started = performance.now();
  const me = await ctx.api("GET", "/api/auth/me");
  const who = await reader(ctx);
  const api = (method: string, path: string, body?: unknown) => ctx.api(method, path, body);
  const big = await seedRestrictedSpace(api, {
    key: "ACCESSBIG",
    sections: ctx.quick ? 20 : 100,
    leaves: 9,
    restrictions: ctx.quick ? 40 : 200,
    ownerId: me.id,
    readerId: who.id,
  });
  const mid = await seedRestrictedSpace(api, {
    key: "ACCESSMID",
    sections: 10,
    leaves: 9,
    restrictions: 20,
    ownerId: me.id,
    readerId: who.id,
  });
  const seedSeconds = (performance.now() - started) / 1000;
  ctx.shared.access = { big, mid, readerToken: who.token, seedSeconds } satisfies AccessSeed;
  console.log(
    `access: seeded ${big.pages} pages with ${big.restrictions} restrictions (reader sees ${big.visible.length}, ` +
      `${big.hidden} hidden) and ${mid.pages} with ${mid.restrictions} in ${seedSeconds.toFixed(1)} s`,
  );
}

const asReader = (ctx: BenchContext) => ({ authorization: `Bearer ${seedOf(ctx).readerToken}` });

/**
 * One word on about one page in sixteen; two words (some with a word on every page). The seed's
 * words are not in the content benchmark's corpus, so these measure the restricted space.
 */
const ONE_WORD = ["alpha", "island", "garden", "orchard", "kettle", "lantern", "harbour", "needle"];
const TWO_WORDS = ["alpha zephyr", "garden island", "lantern meadow", "quorum kettle", "orchard tally", "harbour needle"];

type Met = (r: LoadFigures & { ratioToBaseline: number }) => boolean;

function scenario(
  name: string,
  target: string,
  met: Met,
  requests: (ctx: BenchContext) => LoadRequest[],
  setup?: (ctx: BenchContext) => Promise<void>,
): Scenario {
  return {
    name,
    target,
    met,
    setup,
    requests,
    timeoutsAreMisses: true,
    after: async (ctx) => ({ p95At1Ms: await serialP95(ctx, requests(ctx)) }),
  };
}

const search = (words: string[]) => (ctx: BenchContext) =>
  words.map((q) => ({
    method: "GET",
    path: `/api/search?q=${encodeURIComponent(q)}&spaceId=${seedOf(ctx).big.spaceId}`,
    headers: asReader(ctx),
  }));

export const ACCESS_SCENARIOS: Scenario[] = [
  scenario(
    "Restricted: GET /api/pages/tree (1,010 pages, 20 restrictions, reader)",
    "p95 < 15 ms",
    (r) => r.p95Ms < 15,
    (ctx) => [{ method: "GET", path: `/api/pages/tree?spaceId=${seedOf(ctx).mid.spaceId}`, headers: asReader(ctx) }],
    seedAccess,
  ),
  scenario(
    "Restricted: GET /api/pages/tree (10,100 pages, 200 restrictions; quick 2,020/40, reader)",
    "p95 < 150 ms (10× the pages of the 15 ms target)",
    (r) => r.p95Ms < 150,
    (ctx) => [{ method: "GET", path: `/api/pages/tree?spaceId=${seedOf(ctx).big.spaceId}`, headers: asReader(ctx) }],
  ),
  scenario(
    "Restricted: GET /api/pages/{id} (pages the reader may see, under restrictions naming it or none)",
    "≥ 30 % of baseline rps, p99 < 10 ms",
    (r) => r.ratioToBaseline >= 0.3 && r.p99Ms < 10,
    (ctx) => {
      const visible = seedOf(ctx).big.visible;
      const step = Math.max(1, Math.floor(visible.length / 256));
      return visible.filter((_, i) => i % step === 0).map((id) => ({ method: "GET", path: `/api/pages/${id}`, headers: asReader(ctx) }));
    },
  ),
  scenario("Restricted: GET /api/search in the space, one word (reader)", "p95 < 20 ms", (r) => r.p95Ms < 20, search(ONE_WORD)),
  scenario("Restricted: GET /api/search in the space, two words (reader)", "p95 < 20 ms", (r) => r.p95Ms < 20, search(TWO_WORDS)),
];
