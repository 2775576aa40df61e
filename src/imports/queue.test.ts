/**
 * Imports convert one at a time across the server (docs/decisions.md, "One import converts at a
 * time": two large imports at once doubled the peak). The test takes the one turn itself, as a long
 * import would, so the imports it starts must wait: their progress says "waiting", a line already
 * full is a 503 before the upload is read, and once the turn is free every waiting import finishes,
 * one after another.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { confluenceExport } from "./from-confluence/testing";
import { importTurns, MAX_WAITING_IMPORTS } from "./queue";
import { importZip, zipOf } from "./testing";

// Twelve imports one after another: seconds on a loaded machine.
setDefaultTimeout(60_000);

let env: TestEnv;
let owner: Who & { id: string };
let member: Who & { id: string };
beforeAll(async () => {
  env = makeEnv();
  ({ owner, member } = await ownerAndMember(env));
});
afterAll(() => env.close());

const exportOf = (name: string) =>
  zipOf(
    Object.entries(
      confluenceExport(name, "ANY", [{ file: `${name}_1.html`, title: `${name} home`, ancestors: [], body: `<p>The ${name} page.</p>` }]),
    ),
  );

async function phaseOf(who: Who, id: string): Promise<string | undefined> {
  return (await call(env, "GET", `/api/export-progress/${id}`, { as: who })).body?.phase;
}

/** Runs `work` holding the server's one import turn, as a long import would; the turn is given back whatever happens. */
async function holdingTheTurn(work: (release: () => void) => Promise<void>) {
  const release = await importTurns.take(() => new Error("the line is full"));
  importTurns.peak = 1;
  try {
    await work(release);
  } finally {
    release();
  }
}

async function until(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 3000; i++) {
    if (await check()) return;
    await Bun.sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

test(
  "two imports started together: both wait while another converts (progress: " + "waiting), then both finish, never two converting at once",
  async () => {
    await holdingTheTurn(async (holdTurn) => {
      const a = importZip(env, owner, await exportOf("Alpha"), { key: "ALPHA", progress: "queue-alpha-1" });
      const b = importZip(env, member, await exportOf("Beta"), { key: "BETA", progress: "queue-beta-1" });
      await until(
        async () => (await phaseOf(owner, "queue-alpha-1")) === "waiting" && (await phaseOf(member, "queue-beta-1")) === "waiting",
        "both imports to wait",
      );
      expect(importTurns.waiting).toBe(2);
      // Neither has written anything while it waits.
      expect(env.core.sqlite.query("SELECT count(*) AS n FROM spaces WHERE key IN ('ALPHA', 'BETA')").get()).toEqual({ n: 0 });
      holdTurn();
      const [ra, rb] = await Promise.all([a, b]);
      expect([ra.status, rb.status]).toEqual([201, 201]);
      expect(ra.body).toMatchObject({ format: "confluence", space: { key: "ALPHA" }, counts: { pages: 1 } });
      expect(rb.body).toMatchObject({ format: "confluence", space: { key: "BETA" }, counts: { pages: 1 } });
      expect((await call(env, "GET", "/api/export-progress/queue-alpha-1", { as: owner })).body).toMatchObject({
        done: true,
        percent: 100,
        error: null,
      });
      expect((await call(env, "GET", "/api/export-progress/queue-beta-1", { as: member })).body).toMatchObject({
        done: true,
        percent: 100,
        error: null,
      });
      expect(importTurns.peak).toBe(1);
      expect(importTurns.waiting).toBe(0);
    });
  },
);

test(
  `with ${MAX_WAITING_IMPORTS} imports in line, one more is a 503 with ` + `Retry-After before its upload is read; the line then drains`,
  async () => {
    await holdingTheTurn(async (holdTurn) => {
      const zip = await exportOf("Queued");
      const queued = Array.from({ length: MAX_WAITING_IMPORTS }, (_, i) => importZip(env, owner, zip, { key: `QUEUED${i}` }));
      await until(async () => importTurns.waiting === MAX_WAITING_IMPORTS, "the line to fill");
      const refused = await importZip(env, member, zip, { key: "ONEMORE" });
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ code: "service_unavailable" });
      expect(refused.body.detail).toMatch(/imports are already waiting/);
      expect(refused.headers.get("retry-after")).toBe("60");
      holdTurn();
      expect((await Promise.all(queued)).map((r) => r.status)).toEqual(Array(MAX_WAITING_IMPORTS).fill(201));
      expect(importTurns.peak).toBe(1);
      expect(env.core.sqlite.query("SELECT count(*) AS n FROM spaces WHERE key LIKE 'QUEUED%'").get()).toEqual({ n: MAX_WAITING_IMPORTS });
    });
  },
);
