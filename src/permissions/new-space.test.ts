/**
 * One "create a space" (new-space.ts): POST /api/spaces and an import make the space row and
 * its grants through the same function; the grants differ only by the choice each passes.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { strToU8, zipSync } from "fflate";
import { call, makeEnv, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { findSpaceByKey } from "../spaces/service";
import { CREATOR_ONLY, createSpaceRow, grantNewSpace, OPEN_TO_EVERYONE, type NewSpaceGrants } from "./new-space";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

type Grant = { principalType: number; principalId: string; operation: number };
/** A space's grants as its administrator reads them, without ids and times. */
async function grantsOf(as: Who, key: string) {
  const res = await call(env, "GET", `/api/spaces/${key}/permissions`, { as });
  expect(res.status).toBe(200);
  return (res.body as Grant[])
    .map((g) => ({ principalType: g.principalType, principalId: g.principalId, operation: g.operation }))
    .sort((a, b) => a.principalType - b.principalType);
}

/** A space made straight through createSpaceRow with `grants`, as `creatorId`. */
function made(key: string, creatorId: string, grants: NewSpaceGrants | null) {
  const now = iso(env.core.clock.now());
  env.core.tx(() =>
    createSpaceRow(
      env.core,
      { id: newId(), key, name: key, description: "", createdById: creatorId, createdAt: now, updatedAt: now },
      grants,
    ),
  );
}

describe("one create-a-space", () => {
  test("a space made through the API has the grants of OPEN_TO_EVERYONE, made the one way", async () => {
    const { owner } = await ownerAndMember(env);
    expect((await call(env, "POST", "/api/spaces", { as: owner, body: { key: "UI", name: "From the UI" } })).status).toBe(201);
    made("SAME", owner.id, OPEN_TO_EVERYONE);
    expect(await grantsOf(owner, "UI")).toEqual(await grantsOf(owner, "SAME"));
  });

  test("an imported space and a space made with the importer's choice (CREATOR_ONLY) get the same grants", async () => {
    const { owner } = await ownerAndMember(env);
    const fd = new FormData();
    fd.append("key", "IMP");
    fd.append("file", new File([zipSync({ "Home.md": strToU8("# Home\n") })], "notes.zip", { type: "application/zip" }));
    expect((await call(env, "POST", "/api/spaces/import", { as: owner, body: fd })).status).toBe(201);
    made("CHOSEN", owner.id, CREATOR_ONLY);
    const imported = await grantsOf(owner, "IMP");
    expect(imported).toEqual([{ principalType: 0, principalId: owner.id, operation: 2 }]);
    expect(imported).toEqual(await grantsOf(owner, "CHOSEN"));
    // And the same choice through POST's function gives the POST grants: the rule is one.
    made("OPEN", owner.id, OPEN_TO_EVERYONE);
    expect((await grantsOf(owner, "OPEN")).length).toBe(2);
  });

  test("a key taken is refused the same way for both (409 key_taken), and grants may come later (a staged import)", async () => {
    const { owner } = await ownerAndMember(env);
    made("TAKEN", owner.id, OPEN_TO_EVERYONE);
    expect(() => made("TAKEN", owner.id, CREATOR_ONLY)).toThrow(/already used/);
    made("LATER", owner.id, null);
    const later = findSpaceByKey(env.core, "LATER")!;
    // No grant yet: not even its creator reaches it.
    expect((await call(env, "GET", "/api/spaces/LATER/permissions", { as: owner })).status).toBe(404);
    env.core.tx(() => grantNewSpace(env.core, later.id, owner.id, CREATOR_ONLY, iso(env.core.clock.now())));
    expect(await grantsOf(owner, "LATER")).toEqual(await grantsOf(owner, "TAKEN").then((g) => g.filter((x) => x.principalType === 0)));
  });
});
