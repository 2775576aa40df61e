import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startProgress } from "../platform/progress";
import { call, mintToken, ownerAndMember, type TestEnv, makeEnv } from "../../tests/harness";

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
