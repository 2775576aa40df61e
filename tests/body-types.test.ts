/**
 * Whole numbers in JSON bodies are JSON numbers: a digit string ("3", "-4") is a 400 naming the
 * field, never coerced past an enum check into the database (where a CHECK constraint made it
 * a 500) or stored as it came. Query strings and paths still take digits, as they must.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { call, type TestEnv, makeEnv, type Who } from "./harness";
import { ownerMemberAndPage } from "../src/pages/testing";

let env: TestEnv;
let owner: Who;
let member: { id: string };
let page: { id: string };
beforeAll(async () => {
  env = makeEnv();
  ({ owner, member, page } = await ownerMemberAndPage(env));
});
afterAll(() => env.close());

const cases: Array<[string, string, () => string, (m: string) => Record<string, unknown>, string]> = [
  [
    "grant operation",
    "POST",
    () => "/api/spaces/DOCS/permissions",
    (m) => ({ principalType: 0, principalId: m, operation: "3" }),
    "operation",
  ],
  [
    "grant principal type",
    "POST",
    () => "/api/spaces/DOCS/permissions",
    (m) => ({ principalType: "0", principalId: m, operation: 1 }),
    "principalType",
  ],
  [
    "restriction operation",
    "POST",
    () => `/api/pages/${page.id}/restrictions`,
    (m) => ({ principalType: 0, principalId: m, operation: "1" }),
    "operation",
  ],
  ["space tree style", "PUT", () => "/api/spaces/DOCS", () => ({ treeStyle: "9" }), "treeStyle"],
  ["space icon kind", "PUT", () => "/api/spaces/DOCS", () => ({ iconKind: "-4" }), "iconKind"],
  ["page base version", "PUT", () => `/api/pages/${page.id}`, () => ({ title: "T", baseVersion: "1" }), "baseVersion"],
  ["move index", "PUT", () => `/api/pages/${page.id}/move`, () => ({ index: "0" }), "index"],
  ["invite expiry", "POST", () => "/api/admin/invites", () => ({ expiresInDays: "7" }), "expiresInDays"],
  ["token expiry", "POST", () => "/api/api-tokens", () => ({ name: "t", expiresInDays: "30" }), "expiresInDays"],
];

test.each(cases)("%s: a digit string is a 400 naming the field", async (_name, method, path, body, field) => {
  const res = await call(env, method, path(), { as: owner, body: body(member.id) });
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ code: "validation_failed" });
  expect(Object.keys(res.body.errors)).toContain(field);
});

test("nothing was stored by the refused requests", async () => {
  const space = await call(env, "GET", "/api/spaces/DOCS", { as: owner });
  expect(space.body).toMatchObject({ treeStyle: 0, iconKind: 0 });
  const grants = await call(env, "GET", "/api/spaces/DOCS/permissions", { as: owner });
  expect(grants.body.some((g: { principalId: string }) => g.principalId === member.id)).toBe(false);
});

test("a JSON number still works, and query strings still take digits", async () => {
  expect((await call(env, "PUT", "/api/spaces/DOCS", { as: owner, body: { treeStyle: 2 } })).body.treeStyle).toBe(2);
  expect((await call(env, "GET", "/api/audit?take=5", { as: owner })).status).toBe(200);
});
