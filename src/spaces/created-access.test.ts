/**
 * A new space is open to everyone signed in (Everyone gets Edit, by design), and the creator is
 * told so (docs/decisions.md, "New spaces say who can see them"): POST /api/spaces answers
 * `access`, and the route's description says it too.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv } from "../../tests/harness";
import { OPERATION } from "../access/tables";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

describe("POST /api/spaces says who can see the new space", () => {
  test("the 201 carries access: Everyone may edit, in a sentence that says where to change it", async () => {
    const { owner } = await ownerAndMember(env);
    const res = await call(env, "POST", "/api/spaces", { as: owner, body: { key: "eng", name: "Engineering" } });
    expect(res.status).toBe(201);
    expect(res.body.access.everyone).toBe(OPERATION.Edit);
    expect(res.body.access.summary).toContain("Everyone signed in can view and edit ENG");
    expect(res.body.access.summary).toContain("/api/spaces/ENG/permissions");
    expect(res.body.access.summary).toContain("private");
  });

  test("and it is true: the Everyone group holds Edit, so another member edits at once", async () => {
    const { owner, member } = await ownerAndMember(env);
    const space = (await call(env, "POST", "/api/spaces", { as: owner, body: { key: "ENG", name: "Engineering" } })).body;
    const grants = (await call(env, "GET", "/api/spaces/ENG/permissions", { as: owner })).body as Array<{
      principalType: number;
      operation: number;
    }>;
    expect(grants.filter((g) => g.principalType === 1).map((g) => g.operation)).toEqual([space.access.everyone]);
    expect((await call(env, "POST", "/api/pages", { as: member, body: { spaceId: space.id, title: "Hello" } })).status).toBe(201);
  });

  test("only the create answer carries it: a GET answers the plain Space", async () => {
    const { owner } = await ownerAndMember(env);
    await call(env, "POST", "/api/spaces", { as: owner, body: { key: "ENG", name: "Engineering" } });
    expect((await call(env, "GET", "/api/spaces/ENG", { as: owner })).body.access).toBeUndefined();
  });

  test("the route's OpenAPI description and schema say so", async () => {
    const op = (await call(env, "GET", "/api/openapi.json")).body.paths["/api/spaces"].post;
    expect(op.description).toContain("open to everyone signed in");
    expect(op.description).toContain("Everyone group gets Edit");
    expect(op.description).toContain("`access`");
    const created = op.responses["201"].content["application/json"].schema;
    expect(created.required).toContain("access");
    expect(created.properties.access.required).toEqual(["everyone", "summary"]);
  });
});
