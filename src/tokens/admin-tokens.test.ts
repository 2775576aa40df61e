import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { ROLE_ID } from "../identity/rights";
import { giveRole, makeRole } from "../roles/testing";
import { eventsOf } from "../events/testing";
import { tokenActivity } from "./admin-activity";

let env: TestEnv;
beforeEach(() => {
  env = makeEnv();
});
afterEach(() => env.close());

const get = (who: Who | undefined, path: string) => call(env, "GET", `/api/admin/api-tokens${path}`, { as: who });
const revoke = (who: Who, id: string) => call(env, "DELETE", `/api/admin/api-tokens/${id}`, { as: who });
const storedRequests = () => (env.core.sqlite.query("SELECT coalesce(sum(requests), 0) AS n FROM api_token_days").get() as { n: number }).n;
const UNKNOWN = "01900000-0000-7000-8000-000000000000";

async function world() {
  const { owner, member } = await ownerAndMember(env);
  const ownerToken = await mintToken(env, owner, { name: "owner's deploy", readOnly: true });
  env.clock.advance(1000);
  const memberToken = await mintToken(env, member, { name: "member's script", expiresInDays: 30 });
  const list = (await get(owner, "")).body as Array<{ id: string; name: string }>;
  const idOf = (name: string) => list.find((t) => t.name === name)!.id;
  return { owner, member, ownerToken, memberToken, ownerTokenId: idOf("owner's deploy"), memberTokenId: idOf("member's script") };
}

describe("who may", () => {
  test("anonymous 401; a member 403 permission_required; a role with only tokens.manage sees every route", async () => {
    const { member, memberTokenId } = await world();
    for (const path of ["", `/activity?tokenId=${memberTokenId}`, "/summary"]) {
      expect((await get(undefined, path)).status).toBe(401);
      const refused = await get(member, path);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: "permission_required", permission: "tokens.manage" });
    }
    expect((await revoke(member, memberTokenId)).status).toBe(403);
    giveRole(env.core, member.id, makeRole(env.core, { permissions: ["tokens.manage"] }));
    for (const path of ["", `/activity?tokenId=${memberTokenId}`, "/summary"]) expect((await get(member, path)).status).toBe(200);
  });
});

describe("GET /api/admin/api-tokens", () => {
  test("every token with its owner, revoked ones too, newest first; never the value or its hash", async () => {
    const { owner, member, memberTokenId } = await world();
    env.clock.advance(1000);
    await mintToken(env, member, { name: "later" });
    expect((await call(env, "DELETE", `/api/api-tokens/${memberTokenId}`, { as: member })).status).toBe(204);
    const res = await get(owner, "");
    expect(res.status).toBe(200);
    expect(res.body.map((t: { name: string; state: string }) => [t.name, t.state])).toEqual([
      ["later", "active"],
      ["member's script", "revoked"],
      ["owner's deploy", "active"],
    ]);
    expect(res.body[1]).toMatchObject({ readOnly: false, owner: { id: member.id, displayName: "member", email: "member@example.com" } });
    expect(res.body[1].expiresAt).not.toBeNull();
    expect(res.body[2]).toMatchObject({ readOnly: true, expiresAt: null, revokedAt: null, owner: { id: owner.id } });
    expect(res.body[0].prefix).toStartWith("cct_");
    expect(res.text).not.toContain("tokenHash");
  });

  test("an expired token says so; last use is current (the use counts are flushed first)", async () => {
    const { ownerToken, memberToken } = await world();
    const owner = { token: ownerToken }; // a session would have expired in the month below
    expect((await call(env, "GET", "/api/auth/me", { as: { token: memberToken } })).status).toBe(200);
    let listed = (await get(owner, "")).body.find((t: { name: string }) => t.name === "member's script");
    expect(listed).toMatchObject({ useCount: 1, state: "active" });
    expect(listed.lastUsedAt).not.toBeNull();
    env.clock.advance(31 * 86_400_000);
    listed = (await get(owner, "")).body.find((t: { name: string }) => t.name === "member's script");
    expect(listed.state).toBe("expired");
  });
});

describe("DELETE /api/admin/api-tokens/{id}", () => {
  test("revokes another person's token at once, audited with who did it; again is 204 with nothing new", async () => {
    const { owner, memberToken, memberTokenId, member } = await world();
    expect((await call(env, "GET", "/api/auth/me", { as: { token: memberToken } })).status).toBe(200);
    expect((await revoke(owner, memberTokenId)).status).toBe(204);
    const refused = await call(env, "GET", "/api/auth/me", { as: { token: memberToken } });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("invalid_token");
    const events = eventsOf(env, "token.revoked");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ targetId: memberTokenId, actorId: owner.id });
    expect(events[0].data).toMatchObject({ name: "member's script", ownerId: member.id, byAdministrator: true });
    expect((await revoke(owner, memberTokenId)).status).toBe(204);
    expect(eventsOf(env, "token.revoked")).toHaveLength(1);
  });

  test("the owner's tokens: only the owner (403 owner_protected for another administrator)", async () => {
    const { owner, member, ownerTokenId, ownerToken } = await world();
    giveRole(env.core, member.id, ROLE_ID.admin);
    const refused = await revoke(member, ownerTokenId);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("owner_protected");
    expect((await call(env, "GET", "/api/auth/me", { as: { token: ownerToken } })).status).toBe(200);
    expect((await revoke(owner, ownerTokenId)).status).toBe(204);
  });

  test("unknown id 404, an id that is no id 400", async () => {
    const { owner } = await world();
    expect((await revoke(owner, UNKNOWN)).status).toBe(404);
    const bad = await revoke(owner, "not-an-id");
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("tokenId");
  });

  test("a token (with tokens.manage) may revoke; a read-only token is refused", async () => {
    const { owner, memberTokenId } = await world();
    const readOnly = await mintToken(env, owner, { name: "ro", readOnly: true });
    expect((await revoke({ token: readOnly }, memberTokenId)).body.code).toBe("read_only_token");
    expect((await revoke({ token: await mintToken(env, owner, { name: "rw" }) }, memberTokenId)).status).toBe(204);
  });
});

describe("GET /api/admin/api-tokens/activity", () => {
  test("requests per day counted in memory, written per day (not per request), with the last address", async () => {
    const { owner, memberToken, memberTokenId } = await world();
    for (let i = 0; i < 3; i++) await call(env, "GET", "/api/auth/me", { as: { token: memberToken } });
    expect(storedRequests()).toBe(0);
    tokenActivity(env.core).flush();
    expect(storedRequests()).toBe(3);
    env.clock.advance(86_400_000);
    await call(env, "GET", "/api/auth/me", { as: { token: memberToken } });
    const res = await get(owner, `/activity?tokenId=${memberTokenId}&take=7`);
    expect(res.status).toBe(200);
    expect(res.body.days).toHaveLength(7);
    expect(res.body.days.slice(-2).map((d: { requests: number }) => d.requests)).toEqual([3, 1]);
    expect(res.body.totalRequests).toBe(4);
    expect(res.body.lastIp).toBe("local");
    expect(res.body.lastUsedAt).toBe(new Date(env.clock.now()).toISOString());
    expect(res.body.token).toMatchObject({ id: memberTokenId, name: "member's script", useCount: 4 });
  });

  test("a token never used: zeros, no last use", async () => {
    const { owner, memberTokenId } = await world();
    const res = await get(owner, `/activity?tokenId=${memberTokenId}`);
    expect(res.body.days).toHaveLength(30);
    expect(res.body).toMatchObject({ totalRequests: 0, lastUsedAt: null, lastIp: null });
  });

  test.each([
    ["take=0", "take"],
    ["take=366", "take"],
    ["take=abc", "take"],
    ["take=1.5", "take"],
    ["tokenId=not-an-id", "tokenId"],
    ["tokenId=", "tokenId"],
    ["", "tokenId"],
  ])("%s is a 400 naming %s", async (query, field) => {
    const { owner, memberTokenId } = await world();
    const q = query.startsWith("take") ? `tokenId=${memberTokenId}&${query}` : query;
    const res = await get(owner, `/activity?${q}`);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  test("an unknown token is 404", async () => {
    const { owner } = await world();
    expect((await get(owner, `/activity?tokenId=${UNKNOWN}`)).status).toBe(404);
  });
});

describe("GET /api/admin/api-tokens/summary", () => {
  test("per day: created, revoked, requests; every day of the range", async () => {
    const { owner, memberToken, memberTokenId } = await world();
    await call(env, "GET", "/api/auth/me", { as: { token: memberToken } });
    await revoke(owner, memberTokenId);
    const res = await get(owner, "/summary?days=7");
    expect(res.status).toBe(200);
    expect(res.body.days).toHaveLength(7);
    expect(res.body.days.at(-1)).toEqual({
      day: new Date(env.clock.now()).toISOString().slice(0, 10),
      created: 2,
      revoked: 1,
      requests: 1,
    });
    expect(res.body.totals).toEqual({ created: 2, revoked: 1, requests: 1 });
    expect((await get(owner, "/summary")).body.days).toHaveLength(30);
  });

  test.each(["0", "366", "abc", "-1", "2.5"])("days=%s is a 400 naming days", async (value) => {
    const { owner } = await world();
    const res = await get(owner, `/summary?days=${value}`);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("days");
  });
});
