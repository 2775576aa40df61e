import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, ownerAndMember, signUp, type TestEnv } from "../../tests/harness";
import { ROLE_ID } from "../identity/rights";
import { recordEvent } from "../events/outbox";
import { newPage, newSpace } from "../pages/testing";
import { auditRows, seedEntries } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const seed = (n: number, targetId?: (i: number) => string) => seedEntries(env, n, targetId);

const giveUsersAuditView = () =>
  env.core.sqlite.query("UPDATE roles SET permissions = json_insert(permissions, '$[#]', 'audit.view') WHERE id = ?").run(ROLE_ID.user);

describe("GET /api/audit", () => {
  test("answers entries newest first in the documented shape", async () => {
    const owner = await signUp(env, "owner@example.com");
    const space = await newSpace(env, owner, "DOCS", "Docs");
    const res = await call(env, "GET", "/api/audit", { as: owner });
    expect(res.status).toBe(200);
    expect(res.body.map((e: any) => e.action)).toEqual(["space.created", "user.registered"]);
    expect(res.body[0]).toEqual({
      id: expect.any(String),
      sequence: 2,
      action: "space.created",
      targetType: "space",
      targetId: space.id,
      spaceId: space.id,
      actorId: owner.id,
      actorName: "owner",
      ip: "local",
      details: { key: "DOCS", name: "Docs" },
      createdAt: expect.any(String),
    });
  });

  test("50 by default, `take` up to 200, never more", async () => {
    const owner = await signUp(env, "owner@example.com");
    seed(210);
    const byDefault = await call(env, "GET", "/api/audit", { as: owner });
    expect(byDefault.body).toHaveLength(50);
    expect(byDefault.body[0].sequence).toBe(211);
    const sequences = byDefault.body.map((e: any) => e.sequence);
    expect(sequences).toEqual([...sequences].sort((a: number, b: number) => b - a));
    expect((await call(env, "GET", "/api/audit?take=200", { as: owner })).body).toHaveLength(200);
    expect((await call(env, "GET", "/api/audit?take=1", { as: owner })).body.map((e: any) => e.sequence)).toEqual([211]);
  });

  for (const bad of ["0", "201", "-1", "abc", "1.5", ""]) {
    test(`take=${bad} is a 400 naming take`, async () => {
      const owner = await signUp(env, "owner@example.com");
      const res = await call(env, "GET", `/api/audit?take=${bad}`, { as: owner });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe("take");
    });
  }

  test("filters by target type and id", async () => {
    const { owner, member } = await ownerAndMember(env);
    seed(3, (i) => (i === 1 ? "wanted" : "other"));
    const byTarget = await call(env, "GET", "/api/audit?targetType=group&targetId=wanted", { as: owner });
    expect(byTarget.body.map((e: any) => [e.targetType, e.targetId])).toEqual([["group", "wanted"]]);
    const users = await call(env, "GET", "/api/audit?targetType=user", { as: owner });
    expect(users.body.map((e: any) => e.targetId).sort()).toEqual([owner.id, member.id].sort());
    expect((await call(env, "GET", "/api/audit?targetId=nothing-here", { as: owner })).body).toEqual([]);
    const bad = await call(env, "GET", "/api/audit?targetType=planet", { as: owner });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("targetType");
  });

  test("needs an account holding audit.view", async () => {
    const { owner, member } = await ownerAndMember(env);
    expect((await call(env, "GET", "/api/audit")).status).toBe(401);
    const refused = await call(env, "GET", "/api/audit", { as: member });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "permission_required", permission: "audit.view" });
    expect((await call(env, "GET", "/api/audit", { as: owner })).status).toBe(200);
  });

  test("a read-only token may read it if its owner holds the right", async () => {
    const { owner, member } = await ownerAndMember(env);
    const ownerToken = await mintToken(env, owner, { name: "audit reader", readOnly: true });
    const res = await call(env, "GET", "/api/audit", { as: { token: ownerToken } });
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({ action: "token.created", actorId: owner.id });
    const memberToken = await mintToken(env, member, { name: "no right", readOnly: true });
    expect((await call(env, "GET", "/api/audit", { as: { token: memberToken } })).body.code).toBe("permission_required");
    expect((await call(env, "GET", "/api/audit", { as: { token: "cct_not-a-real-token" } })).status).toBe(401);
  });

  test("leaves out entries about pages the caller cannot see, before counting take", async () => {
    const { owner, member } = await ownerAndMember(env);
    giveUsersAuditView();
    const space = await newSpace(env, owner, "DOCS");
    const page = await newPage(env, owner, space.id, "Public page");
    const draft = await call(env, "POST", "/api/pages/draft", { as: member, body: { spaceId: space.id } });
    expect(draft.status).toBe(201);
    // An entry about the member's draft (which only the member may see).
    env.core.tx(() =>
      recordEvent(env.core, {
        type: "page.updated",
        targetType: "page",
        targetId: draft.body.id,
        spaceId: space.id,
        actorId: member.id,
        ip: "local",
        data: { versionNumber: 2 },
      }),
    );

    const ownerView = await call(env, "GET", "/api/audit?take=1", { as: owner });
    expect(ownerView.body.map((e: any) => e.targetId)).toEqual([page.id]);
    const ownerAll = await call(env, "GET", "/api/audit?take=200", { as: owner });
    expect(ownerAll.body.some((e: any) => e.targetId === draft.body.id)).toBe(false);
    const byTarget = await call(env, "GET", `/api/audit?targetType=page&targetId=${draft.body.id}`, { as: owner });
    expect(byTarget.body).toEqual([]);

    const memberView = await call(env, "GET", "/api/audit?take=1", { as: member });
    expect(memberView.body.map((e: any) => e.targetId)).toEqual([draft.body.id]);
  });

  test("entries about a deleted space stay readable", async () => {
    const owner = await signUp(env, "owner@example.com");
    const space = await newSpace(env, owner, "GONE");
    const res = await call(env, "DELETE", "/api/spaces/GONE", {
      as: owner,
      body: { password: "correct horse battery staple", confirmKey: "GONE" },
    });
    expect(res.status).toBe(204);
    const list = await call(env, "GET", `/api/audit?targetType=space&targetId=${space.id}`, { as: owner });
    expect(list.body.map((e: any) => e.action)).toEqual(["space.deleted", "space.created"]);
  });
});

describe("POST /api/admin/audit/verify", () => {
  test("needs audit.view; a full token may run it, a read-only one may not", async () => {
    const { owner, member } = await ownerAndMember(env);
    expect((await call(env, "POST", "/api/admin/audit/verify")).status).toBe(401);
    expect((await call(env, "POST", "/api/admin/audit/verify", { as: member })).body).toMatchObject({
      status: 403,
      code: "permission_required",
    });
    const full = await mintToken(env, owner, { name: "monitor" });
    const ok = await call(env, "POST", "/api/admin/audit/verify", { as: { token: full } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, brokenAtSequence: null, problem: null, checked: auditRows(env).length });
    const readOnly = await mintToken(env, owner, { name: "ro", readOnly: true });
    expect((await call(env, "POST", "/api/admin/audit/verify", { as: { token: readOnly } })).body.code).toBe("read_only_token");
  });

  test("verifying appends nothing", async () => {
    const owner = await signUp(env, "owner@example.com");
    const before = auditRows(env).length;
    await call(env, "POST", "/api/admin/audit/verify", { as: owner });
    expect(auditRows(env)).toHaveLength(before);
  });
});
