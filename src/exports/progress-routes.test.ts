import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { uploaded } from "../attachments/testing";
import { newPage, newSpace } from "../pages/testing";
import { startProgress } from "../platform/progress";
import { BASE, call, mintToken, ownerAndMember, type TestEnv, makeEnv } from "../../tests/harness";

let env: TestEnv;
let owner: Awaited<ReturnType<typeof ownerAndMember>>["owner"];
let member: Awaited<ReturnType<typeof ownerAndMember>>["member"];
beforeAll(async () => {
  env = makeEnv();
  ({ owner, member } = await ownerAndMember(env));
});
afterAll(() => env.close());

const path = (id: string) => `/api/export-progress/${id}`;

describe("GET /api/export-progress/{id}", () => {
  test("the user who started the work follows it, with a session or a token", async () => {
    const id = `route-${crypto.randomUUID()}`;
    const progress = startProgress(id, owner.id, { pages: 1 });
    progress.phase("pages", 4);
    progress.step();
    expect((await call(env, "GET", path(id), { as: owner })).body).toEqual({ id, phase: "pages", percent: 25, done: false, error: null });
    const token = await mintToken(env, owner);
    expect((await call(env, "GET", path(id), { as: { token } })).body.percent).toBe(25);
    progress.done();
    expect((await call(env, "GET", path(id), { as: owner })).body).toEqual({ id, phase: "pages", percent: 100, done: true, error: null });
  });

  test("a failure is reported with its code and message", async () => {
    const id = `route-${crypto.randomUUID()}`;
    startProgress(id, owner.id).fail("export_failed", "The disk is full");
    const answer = await call(env, "GET", path(id), { as: owner });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ done: true, error: { code: "export_failed", message: "The disk is full" } });
  });

  test("another user, an anonymous caller and an unknown id all get the same 404", async () => {
    const id = `route-${crypto.randomUUID()}`;
    startProgress(id, owner.id);
    const other = await call(env, "GET", path(id), { as: member });
    const anonymous = await call(env, "GET", path(id));
    const unknown = await call(env, "GET", path(`route-${crypto.randomUUID()}`), { as: owner });
    for (const answer of [other, anonymous, unknown]) {
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe("not_found");
    }
    expect(other.body).toEqual(unknown.body);
    expect(anonymous.body).toEqual(unknown.body);
  });

  test("an id too long to be one is refused naming it", async () => {
    const answer = await call(env, "GET", path("a".repeat(65)), { as: owner });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain("id");
  });
});

describe("progress of a real export while it streams", () => {
  test("a pack export read slowly: its owner sees it mid-way, anyone else gets 404, and it ends done", async () => {
    const space = await newSpace(env, owner, "LONG", "Long export");
    // Files of random bytes (stored as they are), so the zip is far larger than one read.
    for (let i = 0; i < 6; i++) {
      const page = await newPage(env, owner, space.id, `Page ${i}`);
      await uploaded(env, owner, page.id, crypto.getRandomValues(new Uint8Array(65536)), `data-${i}.bin`);
    }
    const id = `long-${crypto.randomUUID()}`;
    const res = await env.handle(
      new Request(`${BASE}/api/spaces/LONG/export/pack?progress=${id}`, { headers: { cookie: `cairn_session=${owner.cookie}` } }),
    );
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let bytes = (await reader.read()).value!.byteLength;
    // The zip is pulled: nothing more is made until the client reads, so this is mid-export.
    const midway = await call(env, "GET", path(id), { as: owner });
    expect(midway.status).toBe(200);
    expect(midway.body).toMatchObject({ id, done: false, error: null });
    expect(midway.body.percent).toBeGreaterThanOrEqual(0);
    expect(midway.body.percent).toBeLessThan(100);
    expect((await call(env, "GET", path(id), { as: member })).status).toBe(404);
    expect((await call(env, "GET", path(id))).status).toBe(404);
    // The same id again while it runs: 409, naming it.
    const again = await call(env, "GET", `/api/spaces/LONG/export/pack?progress=${id}`, { as: owner });
    expect([again.status, again.body.code]).toEqual([409, "progress_in_use"]);
    const seen = [midway.body.percent as number];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      const now = (await call(env, "GET", path(id), { as: owner })).body;
      seen.push(now.percent);
    }
    expect(bytes).toBeGreaterThan(6 * 65536);
    // Never backwards, and done once the last byte has been handed over.
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect((await call(env, "GET", path(id), { as: owner })).body).toMatchObject({ done: true, percent: 100, error: null });
  });

  test("a malformed progress id is refused naming it before anything is exported", async () => {
    const answer = await call(env, "GET", "/api/spaces/LONG/export/pack?progress=short", { as: owner });
    expect(answer.status).toBe(400);
    expect(answer.body.field ?? answer.text).toContain("progress");
  });
});
