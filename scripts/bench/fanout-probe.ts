/**
 * A PUT's fan-out to watchers and webhooks, in-process: `bun scripts/bench/fanout-probe.ts
 * [--puts=300] [--rounds=3] [--list]`. On the real app (tests/harness.ts, the WAL archive on,
 * tmpfs when there is one), a page with 20 watchers in a space with 3 webhooks (to a loopback
 * receiver in this process) and a plain page beside it; then rounds of PUTs alternating
 * plain and watched, each waiting for its deliveries, with this process's CPU time per PUT
 * (process.cpuUsage: deterministic enough to compare, unlike a timing under load). --list
 * prints the statements of one watched PUT (its deliveries included).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sampleDocument } from "../../src/content/sample";
import { startCountingStatements } from "../../src/platform/db/statement-count";
import { call, makeEnv, mintToken, signUp } from "../../tests/harness";

const args = process.argv.slice(2);
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const PUTS = Number(flag("puts") ?? 300);
const ROUNDS = Number(flag("rounds") ?? 3);

const dir = existsSync("/dev/shm") ? mkdtempSync("/dev/shm/cairn-fanout-") : mkdtempSync(join(tmpdir(), "cairn-fanout-"));
const env = makeEnv({ dir, archiveWal: true, env: { CAIRN_OUTBOUND_ALLOW: "127.0.0.1" } });
let delivered = 0;
const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => (delivered++, new Response("ok")) });
try {
  const owner = await signUp(env, "owner@example.com");
  const token = await mintToken(env, owner);
  const as = { token };
  const ok = async (p: ReturnType<typeof call>, what: string) => {
    const r = await p;
    if (r.status < 200 || r.status > 299) throw new Error(`${what}: ${r.status} ${r.text.slice(0, 200)}`);
    return r.body;
  };
  const space = await ok(call(env, "POST", "/api/spaces", { as, body: { key: "SIDE", name: "Side" } }), "space");
  const plain = await ok(call(env, "POST", "/api/spaces", { as, body: { key: "PLAIN", name: "Plain" } }), "space");
  const watched = (await ok(call(env, "POST", "/api/pages", { as, body: { spaceId: space.id, title: "Watched" } }), "page")).id;
  const other = (await ok(call(env, "POST", "/api/pages", { as, body: { spaceId: plain.id, title: "Plain" } }), "page")).id;
  for (let n = 1; n <= 20; n++) {
    const invite = await ok(call(env, "POST", "/api/admin/invites", { as: { cookie: owner.cookie }, body: {} }), "invite");
    const w = await signUp(env, `watcher-${n}@example.com`, { inviteToken: invite.token });
    await ok(call(env, "POST", `/api/pages/${watched}/watch`, { as: { cookie: w.cookie } }), "watch");
  }
  for (let n = 1; n <= 3; n++)
    await ok(
      call(env, "POST", "/api/spaces/SIDE/webhooks", {
        as,
        body: { url: `http://127.0.0.1:${server.port}/hook/${n}`, events: ["page.updated"] },
      }),
      "webhook",
    );

  const doc = sampleDocument(7, 500);
  doc.content.push({ type: "paragraph", content: [{ type: "text", text: "Edit {{n}}" }] });
  const docJson = JSON.stringify(doc);
  let edits = 0;
  const body = () => ({ title: `Page e${++edits}`, contentJson: docJson.replace("{{n}}", String(edits)) });
  const put = (id: string) => ok(call(env, "PUT", `/api/pages/${id}`, { as, body: body() }), "put");
  const settle = async (want: number) => {
    const t0 = performance.now();
    while (delivered < want && performance.now() - t0 < 30_000) await Bun.sleep(2);
    await Bun.sleep(100);
  };

  /** PUTs `n` times, each after the last answered, and its deliveries; answers CPU µs per PUT. */
  async function run(id: string, n: number, hooks: number): Promise<number> {
    const before = process.cpuUsage();
    const want = delivered + n * hooks;
    for (let i = 0; i < n; i++) await put(id);
    await settle(want);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / n;
  }

  await run(watched, 30, 3);
  await run(other, 30, 0);
  if (args.includes("--list")) {
    const counter = startCountingStatements({ keepText: true });
    const want = delivered + 3;
    await put(watched);
    await settle(want);
    console.log(`${counter.count} statements, one watched PUT and its deliveries:`);
    counter.texts.forEach((t, i) => console.log(`${String(i + 1).padStart(3)}. ${t.replace(/\s+/g, " ").slice(0, 160)}`));
    counter.stop();
  }
  const plainUs: number[] = [];
  const watchedUs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    plainUs.push(await run(other, PUTS, 0));
    watchedUs.push(await run(watched, PUTS, 3));
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  console.log(
    `CPU per PUT (µs, this process, median of ${ROUNDS}): plain ${Math.round(med(plainUs))} ` +
      `[${plainUs.map(Math.round).join(", ")}], watched ${Math.round(med(watchedUs))} ` +
      `[${watchedUs.map(Math.round).join(", ")}], fan-out ${Math.round(med(watchedUs) - med(plainUs))}`,
  );
} finally {
  server.stop(true);
  env.close();
  rmSync(dir, { recursive: true, force: true });
}
