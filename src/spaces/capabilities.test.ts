import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { setSetting } from "../settings/service";
import { newSpace } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

/** What GET /api/spaces/{key} and GET /api/spaces say the caller may do; the two must agree. */
async function capabilities(who: Who | undefined, key = "DOCS") {
  const one = await call(env, "GET", `/api/spaces/${key}`, { as: who });
  expect(one.status).toBe(200);
  const listed = (await call(env, "GET", "/api/spaces", { as: who })).body.find((s: { key: string }) => s.key === key);
  const answer = { canEdit: one.body.canEdit, canAdmin: one.body.canAdmin };
  expect({ canEdit: listed.canEdit, canAdmin: listed.canAdmin }).toEqual(answer);
  return answer;
}

/** DOCS with the Everyone grant removed, so only explicit grants count. */
async function privateDocs() {
  const { owner, member } = await ownerAndMember(env);
  await newSpace(env, owner, "DOCS");
  const grants = (await call(env, "GET", "/api/spaces/DOCS/permissions", { as: owner })).body as Array<{
    id: string;
    principalType: number;
  }>;
  await call(env, "DELETE", `/api/spaces/DOCS/permissions/${grants.find((g) => g.principalType === 1)!.id}`, { as: owner });
  return { owner, member };
}

const grant = (owner: Who, member: Who & { id: string }, operation: number) =>
  call(env, "POST", "/api/spaces/DOCS/permissions", { as: owner, body: { principalType: 0, principalId: member.id, operation } });

describe("a space says what the caller may do in it", () => {
  test("its creator (Admin) may edit and administer; the answer to creating it says so too", async () => {
    const { owner } = await ownerAndMember(env);
    const created = await call(env, "POST", "/api/spaces", { as: owner, body: { key: "DOCS", name: "Docs" } });
    expect(created.body).toMatchObject({ canEdit: true, canAdmin: true });
    expect(await capabilities(owner)).toEqual({ canEdit: true, canAdmin: true });
  });

  test("a member with Edit (through Everyone) may edit, not administer", async () => {
    const { owner, member } = await ownerAndMember(env);
    await newSpace(env, owner, "DOCS");
    expect(await capabilities(member)).toEqual({ canEdit: true, canAdmin: false });
  });

  test("a viewer may do neither", async () => {
    const { owner, member } = await privateDocs();
    expect((await grant(owner, member, 0)).status).toBeLessThan(300);
    expect(await capabilities(member)).toEqual({ canEdit: false, canAdmin: false });
  });

  test("changing a grant changes the answer at once", async () => {
    const { owner, member } = await privateDocs();
    await grant(owner, member, 0);
    expect(await capabilities(member)).toEqual({ canEdit: false, canAdmin: false });
    await grant(owner, member, 1);
    expect(await capabilities(member)).toEqual({ canEdit: true, canAdmin: false });
    await grant(owner, member, 2);
    expect(await capabilities(member)).toEqual({ canEdit: true, canAdmin: true });
    await grant(owner, member, 0);
    expect(await capabilities(member)).toEqual({ canEdit: false, canAdmin: false });
  });

  test("anonymous readers of a public space may do neither", async () => {
    const { owner } = await ownerAndMember(env);
    await newSpace(env, owner, "DOCS");
    expect((await call(env, "PUT", "/api/admin/spaces/DOCS/public", { as: owner, body: { isPublic: true } })).body).toMatchObject({
      canEdit: true,
      canAdmin: true,
    });
    setSetting(env.core, "allowPublicSpaces", true);
    expect(await capabilities(undefined)).toEqual({ canEdit: false, canAdmin: false });
  });

  test("nobody edits pages in an archived space, though its admin still administers it", async () => {
    const { owner } = await ownerAndMember(env);
    await newSpace(env, owner, "DOCS");
    const archived = await call(env, "POST", "/api/spaces/DOCS/archive", { as: owner });
    expect(archived.body).toMatchObject({ archived: true, canEdit: false, canAdmin: true });
  });
});
