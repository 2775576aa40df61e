import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { call, makeEnv, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { newPage, newSpace } from "../pages/testing";
import { pages } from "../pages/tables";
import { findUserWithRoleByEmail } from "../users/service";
import { visiblePagesFilter } from "./pages";
import { newId } from "../platform/crypto";

let env: TestEnv;
beforeEach(() => {
  env = makeEnv();
});
afterEach(() => env.close());

/** The titles a search for `word` shows (search filters through the cached hidden set). */
const found = async (who: Who, word: string) =>
  ((await call(env, "GET", `/api/search?q=${word}`, { as: who })).body as Array<{ title: string }>).map((h) => h.title).sort();

async function setup() {
  const { owner, member } = await ownerAndMember(env);
  const space = await newSpace(env, owner, "DOCS");
  const top = await newPage(env, owner, space.id, "Walrus top");
  const child = await newPage(env, owner, space.id, "Walrus child", { parentPageId: top.id });
  const loose = await newPage(env, owner, space.id, "Walrus loose");
  return { owner, member, space, top, child, loose };
}

describe("the hidden-pages cache", () => {
  test("follows restrictions added and removed between reads", async () => {
    const { owner, member, top } = await setup();
    expect(await found(member, "walrus")).toEqual(["Walrus child", "Walrus loose", "Walrus top"]);
    const r = await call(env, "POST", `/api/pages/${top.id}/restrictions`, {
      as: owner,
      body: { principalType: 0, principalId: owner.id, operation: 0 },
    });
    expect(await found(member, "walrus")).toEqual(["Walrus loose"]);
    await call(env, "DELETE", `/api/pages/${top.id}/restrictions/${r.body.id}`, { as: owner });
    expect(await found(member, "walrus")).toEqual(["Walrus child", "Walrus loose", "Walrus top"]);
  });

  test("follows group membership and moves", async () => {
    const { owner, member, top, loose } = await setup();
    const group = (await call(env, "POST", "/api/groups", { as: owner, body: { name: "Inner" } })).body;
    await call(env, "POST", `/api/pages/${top.id}/restrictions`, {
      as: owner,
      body: { principalType: 1, principalId: group.id, operation: 0 },
    });
    expect(await found(member, "walrus")).toEqual(["Walrus loose"]);
    await call(env, "POST", `/api/groups/${group.id}/members`, { as: owner, body: { userId: member.id } });
    expect(await found(member, "walrus")).toEqual(["Walrus child", "Walrus loose", "Walrus top"]);
    await call(env, "DELETE", `/api/groups/${group.id}/members/${member.id}`, { as: owner });
    expect(await found(member, "walrus")).toEqual(["Walrus loose"]);
    await call(env, "PUT", `/api/pages/${loose.id}/move`, { as: owner, body: { parentPageId: top.id } });
    expect(await found(member, "walrus")).toEqual([]);
  });

  test("follows a write made outside the services (any change on the connection)", async () => {
    const { owner, member, top } = await setup();
    expect(await found(member, "walrus")).toHaveLength(3);
    env.core.sqlite.run(
      "INSERT INTO page_restrictions (id, page_id, operation, principal_type, principal_id, created_at) VALUES (?, ?, 0, 0, ?, ?)",
      [newId(), top.id, owner.id, new Date().toISOString()],
    );
    expect(await found(member, "walrus")).toEqual(["Walrus loose"]);
  });

  test("is bypassed inside a write transaction, which sees its own uncommitted restriction", async () => {
    const { owner, top } = await setup();
    const found2 = findUserWithRoleByEmail(env.core, "member@example.com")!;
    const member = {
      kind: "user" as const,
      ip: "x",
      user: found2.user,
      role: found2.role,
      permissions: new Set(found2.role.permissions),
      session: null,
      token: null,
    };
    const count = () =>
      env.core.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM ${pages} WHERE ${visiblePagesFilter(env.core, member)}`)[0].n;
    expect(count()).toBe(3);
    try {
      env.core.tx(() => {
        env.core.sqlite.run(
          "INSERT INTO page_restrictions (id, page_id, operation, principal_type, principal_id, created_at) VALUES (?, ?, 0, 0, ?, ?)",
          [newId(), top.id, owner.id, new Date().toISOString()],
        );
        expect(count()).toBe(1);
        throw new Error("roll back");
      });
    } catch (err) {
      expect((err as Error).message).toBe("roll back");
    }
    expect(count()).toBe(3);
  });
});
