import { afterEach, beforeEach, expect, test } from "bun:test";
import { call, makeEnv, type TestEnv } from "../../tests/harness";
import { ownerMemberAndPage } from "../pages/testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

test("an unknown body field is a 400 naming it and what the request takes; nothing is made", async () => {
  const { owner, space } = await ownerMemberAndPage(env);
  const res = await call(env, "POST", "/api/pages", { as: owner, body: { spaceId: space.id, title: "Hi", content: "# hi" } });
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ code: "validation_failed", field: "content" });
  expect(res.body.errors.content[0]).toContain("contentJson");
  const tree = await call(env, "GET", `/api/pages/tree?spaceId=${space.id}`, { as: owner });
  expect(JSON.stringify(tree.body)).not.toContain('"Hi"');
});

test.each([
  ["PUT", "/api/spaces/DOCS", { nmae: "Typo" }, "nmae"],
  ["POST", "/api/auth/login", { email: "a@b.c", password: "x", remember: true }, "remember"],
  ["POST", "/api/groups", { name: "G", colour: "red" }, "colour"],
])("%s %s with a stray field is a 400 naming it", async (method, path, body, field) => {
  const { owner } = await ownerMemberAndPage(env);
  const res = await call(env, method, path, { as: owner, body });
  expect(res.status).toBe(400);
  expect(Object.keys(res.body.errors)).toEqual([field]);
});

test("a client may send back the page it read, with a change: read-only fields are accepted and ignored", async () => {
  const { owner, page } = await ownerMemberAndPage(env);
  const read = await call(env, "GET", `/api/pages/${page.id}`, { as: owner });
  const res = await call(env, "PUT", `/api/pages/${page.id}`, {
    as: owner,
    body: { ...read.body, title: "Renamed", baseVersion: read.body.currentVersionNumber },
  });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ id: page.id, title: "Renamed", createdAt: read.body.createdAt });
});
