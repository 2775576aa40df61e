/**
 * The 409 version_conflict of PUT /api/pages/{id} (docs/api.md, "Versions and conflicts"): a
 * proper problem document (the catalogue's title, code, a detail saying what to do) carrying the
 * current page in `current`, and still the page's fields at the top level for clients that retry
 * from the body.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, type TestEnv } from "../../tests/harness";
import { ERROR_CODES } from "../platform/errors";
import { doc, ownerMemberAndPage } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

/** A page at version 2 and a stale PUT from version 1. */
async function conflict() {
  const { owner, page } = await ownerMemberAndPage(env, "Guide");
  await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { contentJson: doc("two"), baseVersion: 1 } });
  const stale = await call(env, "PUT", `/api/pages/${page.id}`, {
    as: owner,
    body: { title: "Mine", contentJson: doc("three"), baseVersion: 1 },
  });
  const current = (await call(env, "GET", `/api/pages/${page.id}`, { as: owner })).body;
  return { owner, page, stale, current };
}

describe("PUT /api/pages/{id}: 409 version_conflict", () => {
  test("is a problem document: the catalogue's title, code and status, and a detail saying what to do", async () => {
    const { stale } = await conflict();
    expect(stale.status).toBe(409);
    expect(stale.headers.get("content-type")).toBe("application/problem+json");
    expect(stale.body).toMatchObject({ status: 409, code: "version_conflict", title: ERROR_CODES.version_conflict.title });
    expect(stale.body.detail).toContain("version 2");
    expect(stale.body.detail).toContain("baseVersion 1");
    expect(stale.body.detail).toContain("Reload");
    expect(stale.body.detail).toContain("merge");
    expect(stale.body.detail).toContain("baseVersion 2");
  });

  test("carries the whole current page under `current`, exactly as GET answers it; nothing changed", async () => {
    const { stale, current } = await conflict();
    expect(current).toMatchObject({ title: "Guide", contentJson: doc("two"), currentVersionNumber: 2 });
    expect(stale.body.current).toEqual(current);
  });

  test("keeps the page's other fields at the top level for existing clients (its status as pageStatus)", async () => {
    const { stale, current } = await conflict();
    const { title: _pageTitle, status, ...rest } = current;
    expect(stale.body).toMatchObject({ ...rest, pageStatus: status });
  });

  test("a client that retries with the body's currentVersionNumber succeeds", async () => {
    const { owner, page, stale } = await conflict();
    const retry = await call(env, "PUT", `/api/pages/${page.id}`, {
      as: owner,
      body: { contentJson: doc("three"), baseVersion: stale.body.currentVersionNumber },
    });
    expect(retry).toMatchObject({ status: 200, body: { currentVersionNumber: 3, contentJson: doc("three") } });
  });

  test("a draft's conflict says it is a draft (pageStatus 0, current.status 0)", async () => {
    const { owner, page } = await ownerMemberAndPage(env);
    const draft = (await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: page.spaceId } })).body;
    await call(env, "PUT", `/api/pages/${draft.id}`, { as: owner, body: { contentJson: doc("saved") } });
    const stale = await call(env, "PUT", `/api/pages/${draft.id}`, { as: owner, body: { contentJson: doc("old tab"), baseVersion: 1 } });
    expect(stale.body).toMatchObject({ status: 409, pageStatus: 0, current: { status: 0, title: "", currentVersionNumber: 2 } });
  });

  test("the OpenAPI description of the route says both", async () => {
    const description: string = (await call(env, "GET", "/api/openapi.json")).body.paths["/api/pages/{id}"].put.description;
    for (const words of ["`version_conflict`", "`current`", "`pageStatus`", "`detail`", "no version, event or webhook"])
      expect(description).toContain(words);
  });
});
