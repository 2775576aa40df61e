/**
 * `bun scripts/bench/access-inprocess.ts [--quick]`: the restricted-space reads measured
 * in-process (app.handle, one request at a time, no sockets), to see the cost of the access
 * rules alone. The HTTP benchmark (`bun run bench`) runs the same reads as scenarios.
 */
import { makeEnv, call, signUp, mintToken } from "../../tests/harness";
import { seedRestrictedSpace, type Api } from "./access-seed";

const quick = process.argv.includes("--quick");
/** Words on about one page in sixteen (the seed's vocabulary), and words on every page. */
export const SELECTIVE = ["alpha", "island", "garden", "lantern meadow", "orchard", "kettle"];
export const BROAD = ["zephyr", "quorum tally"];
const env = makeEnv();
try {
  const owner = await signUp(env, "owner@example.com");
  const invite = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
  const reader = await signUp(env, "reader@example.com", { inviteToken: invite.body.token });
  const readerToken = await mintToken(env, reader, { name: "reader", readOnly: true });
  const api: Api = async (method, path, body) => {
    const res = await call(env, method, path, { as: owner, body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const started = performance.now();
  const big = await seedRestrictedSpace(api, {
    key: "BIG",
    sections: quick ? 20 : 100,
    leaves: 9,
    restrictions: quick ? 40 : 200,
    ownerId: owner.id,
    readerId: reader.id,
  });
  const mid = await seedRestrictedSpace(api, {
    key: "MID",
    sections: 10,
    leaves: 9,
    restrictions: 20,
    ownerId: owner.id,
    readerId: reader.id,
  });
  console.log(
    `seeded ${big.pages} + ${mid.pages} pages, ${big.restrictions} + ${mid.restrictions} restrictions in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s; reader sees ${big.visible.length} of BIG (${big.hidden} hidden)`,
  );

  const ownerToken = await mintToken(env, owner, { name: "owner", readOnly: true });
  async function measure(name: string, token: string, paths: string[], runs: number) {
    const as = { token };
    for (let i = 0; i < Math.min(20, runs); i++) await call(env, "GET", paths[i % paths.length], { as });
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      const res = await call(env, "GET", paths[i % paths.length], { as });
      times.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`${paths[i % paths.length]}: ${res.status}`);
    }
    times.sort((a, b) => a - b);
    const at = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(2);
    console.log(`${name}: p50 ${at(50)} ms, p95 ${at(95)} ms, p99 ${at(99)} ms (${runs} runs)`);
  }
  const searches = (words: string[], spaceId?: string) =>
    words.map((q) => `/api/search?q=${encodeURIComponent(q)}${spaceId ? `&spaceId=${spaceId}` : ""}`);
  for (const [who, token] of [
    ["reader", readerToken],
    ["owner (space admin: nothing hidden)", ownerToken],
  ] as const) {
    console.log(`-- as ${who}`);
    await measure(`tree, ${mid.pages} pages, ${mid.restrictions} restrictions`, token, [`/api/pages/tree?spaceId=${mid.spaceId}`], 200);
    await measure(
      `tree, ${big.pages} pages, ${big.restrictions} restrictions`,
      token,
      [`/api/pages/tree?spaceId=${big.spaceId}`],
      quick ? 30 : 60,
    );
    await measure(
      "GET page (pages of BIG the reader sees)",
      token,
      big.visible.filter((_, i) => i % 7 === 0).map((id) => `/api/pages/${id}`),
      2000,
    );
    await measure("search, selective words (~1/16 of pages), in BIG", token, searches(SELECTIVE, big.spaceId), 400);
    await measure("search, selective words, everywhere", token, searches(SELECTIVE), 400);
    await measure("search, words on every page, everywhere", token, searches(BROAD), 100);
  }
} finally {
  env.close();
}
