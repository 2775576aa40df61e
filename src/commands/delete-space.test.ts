import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, ownerAndMember, PASSWORD, signUp, type TestEnv } from "../../tests/harness";
import { doc, newPage } from "../pages/testing";
import { eventsOf, newSpace } from "../spaces/testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const count = (table: string) => (env.core.sqlite.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe("DELETE /api/spaces/{key}", () => {
  test.each([
    ["a wrong confirmKey", { confirmKey: "OTHER", password: PASSWORD }, "confirmKey"],
    ["a wrong password", { confirmKey: "DOCS", password: "not my password" }, "password"],
    ["no password", { confirmKey: "DOCS" }, "password"],
  ])("with %s is 400 and deletes nothing", async (_why, body, field) => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
    const res = await call(env, "DELETE", "/api/spaces/DOCS", { as: owner, body });
    expect(res).toMatchObject({ status: 400, body: { field } });
    expect((await call(env, "GET", "/api/spaces/DOCS", { as: owner })).status).toBe(200);
    expect(eventsOf(env, "space.deleted")).toHaveLength(0);
  });

  test("an API token gets 403 reauth_required, even with the right password", async () => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
    const token = await mintToken(env, owner);
    const res = await call(env, "DELETE", "/api/spaces/DOCS", { as: { token }, body: { confirmKey: "DOCS", password: PASSWORD } });
    expect(res).toMatchObject({ status: 403, body: { code: "reauth_required" } });
    expect(count("spaces")).toBe(1);
  });

  test("someone who does not administer the space gets 403; an unknown space 404", async () => {
    const { owner, member } = await ownerAndMember(env);
    await newSpace(env, owner, "DOCS");
    expect((await call(env, "DELETE", "/api/spaces/DOCS", { as: member, body: { confirmKey: "DOCS", password: PASSWORD } })).status).toBe(
      403,
    );
    expect((await call(env, "DELETE", "/api/spaces/NOPE", { as: owner, body: { confirmKey: "NOPE", password: PASSWORD } })).status).toBe(
      404,
    );
  });

  test("with the key (any case) and the password removes the space and records space.deleted", async () => {
    const owner = await signUp(env, "owner@example.com");
    const space = await newSpace(env, owner, "DOCS");
    const res = await call(env, "DELETE", "/api/spaces/docs", { as: owner, body: { confirmKey: "docs", password: PASSWORD } });
    expect(res.status).toBe(204);
    expect((await call(env, "GET", "/api/spaces/DOCS", { as: owner })).status).toBe(404);
    expect(eventsOf(env, "space.deleted").map((e) => e.targetId)).toEqual([space.id]);
    // The key is free again.
    await newSpace(env, owner, "DOCS");
  });

  test("removes every page, draft, trashed page and version of the space, and nothing of other spaces", async () => {
    const owner = await signUp(env, "owner@example.com");
    const docs = await newSpace(env, owner, "DOCS");
    const other = await newSpace(env, owner, "OTHER");
    const parent = await newPage(env, owner, docs.id, "Parent", { contentJson: doc("one") });
    await call(env, "PUT", `/api/pages/${parent.id}`, { as: owner, body: { contentJson: doc("two") } });
    const child = await newPage(env, owner, docs.id, "Child", { parentPageId: parent.id });
    await call(env, "DELETE", `/api/pages/${child.id}`, { as: owner });
    await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: docs.id, parentPageId: parent.id } });
    const kept = await newPage(env, owner, other.id, "Kept");

    const preview = await call(env, "GET", "/api/spaces/DOCS/deletion-preview", { as: owner });
    expect(preview.body).toEqual({ key: "DOCS", name: "DOCS", pages: 3, drafts: 1, trashed: 1, versions: 4, attachments: 0, bytes: 0 });

    expect((await call(env, "DELETE", "/api/spaces/DOCS", { as: owner, body: { confirmKey: "DOCS", password: PASSWORD } })).status).toBe(
      204,
    );
    expect(count("pages")).toBe(1);
    expect(count("page_versions")).toBe(1);
    expect((await call(env, "GET", `/api/pages/${kept.id}`, { as: owner })).status).toBe(200);
    expect((await call(env, "GET", `/api/pages/${parent.id}`, { as: owner })).status).toBe(404);
  });

  test("the deletion preview needs an administrator", async () => {
    const { owner, member } = await ownerAndMember(env);
    await newSpace(env, owner, "DOCS");
    const res = await call(env, "GET", "/api/spaces/DOCS/deletion-preview", { as: owner });
    expect(res.body).toEqual({ key: "DOCS", name: "DOCS", pages: 0, drafts: 0, trashed: 0, versions: 0, attachments: 0, bytes: 0 });
    expect((await call(env, "GET", "/api/spaces/DOCS/deletion-preview", { as: member })).status).toBe(403);
    expect((await call(env, "GET", "/api/spaces/DOCS/deletion-preview")).status).toBe(404);
  });
});
