/**
 * Every change of accounts, sessions, tokens, invites, groups and settings leaves an audit entry
 * naming who, what, from where, with a few details and no secrets; a refused change leaves none.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, cookieFrom, makeEnv, mintToken, ownerAndMember, PASSWORD, signUp, type TestEnv } from "../../tests/harness";
import { recordEvent } from "../events/outbox";
import { sha256Hex } from "../platform/crypto";
import { deleteSetting, setSetting } from "../settings/service";
import { auditOf, auditRows } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const NEW_PASSWORD = "a different long passphrase";

/** Nothing secret anywhere in the log: passwords, cookie and token values or their hashes. */
function expectNoSecrets(secrets: string[]) {
  const text = JSON.stringify(auditRows(env));
  for (const s of secrets) {
    expect(text).not.toContain(s);
    expect(text).not.toContain(sha256Hex(s));
  }
}

/** Runs a change that must be refused and checks it appended nothing. */
async function refusedAppendsNothing(status: number, run: () => Promise<{ status: number }>) {
  const before = auditRows(env).length;
  expect((await run()).status).toBe(status);
  expect(auditRows(env)).toHaveLength(before);
}

describe("accounts and sessions", () => {
  test("registration, sign-in (right and wrong), sign-out", async () => {
    const owner = await signUp(env, "owner@example.com");
    expect(auditOf(env, "user.registered")).toMatchObject([
      {
        targetType: "user",
        targetId: owner.id,
        actorId: owner.id,
        actorName: "owner",
        ip: "local",
        details: { email: "owner@example.com", displayName: "owner", roleName: "Owner", inviteId: null },
      },
    ]);

    expect(
      (await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: "not the password" } })).status,
    ).toBe(401);
    expect(auditOf(env, "user.login_failed")).toMatchObject([
      { targetId: owner.id, actorId: null, actorName: null, ip: "local", details: { reason: "wrong_password", locked: false } },
    ]);
    // An unknown address names no account: nothing to record against.
    await refusedAppendsNothing(401, () =>
      call(env, "POST", "/api/auth/login", { body: { email: "nobody@example.com", password: "whatever it is" } }),
    );

    const login = await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: PASSWORD } });
    const cookie = cookieFrom(login);
    const [signedIn] = auditOf(env, "user.login");
    expect(signedIn).toMatchObject({ targetId: owner.id, actorId: owner.id, ip: "local" });
    const sessions = await call(env, "GET", "/api/auth/me/sessions", { as: { cookie } });
    expect(signedIn.details.sessionId).toBe(sessions.body.find((s: any) => s.current).id);

    expect((await call(env, "POST", "/api/auth/logout", { as: { cookie } })).status).toBe(204);
    expect(auditOf(env, "user.logout")).toMatchObject([
      { targetId: owner.id, actorId: owner.id, details: { sessionId: signedIn.details.sessionId } },
    ]);
    expectNoSecrets([PASSWORD, "not the password", cookie, owner.cookie]);
  });

  test("the failure that locks an account says so", async () => {
    const owner = await signUp(env, "owner@example.com");
    setSetting(env.core, "lockoutThreshold", 2);
    for (let i = 0; i < 2; i++)
      await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: "wrong wrong wrong" } });
    expect(auditOf(env, "user.login_failed").map((e) => e.details)).toEqual([
      { reason: "wrong_password", locked: false },
      { reason: "wrong_password", locked: true, lockedForSeconds: 60 },
    ]);
    expect(auditOf(env, "user.login_failed")[1].targetId).toBe(owner.id);
  });

  test("display name and password changes", async () => {
    const owner = await signUp(env, "owner@example.com");
    const other = cookieFrom(await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: PASSWORD } }));

    expect((await call(env, "PUT", "/api/auth/me", { as: owner, body: { displayName: "Ada" } })).status).toBe(200);
    expect(auditOf(env, "user.updated")).toMatchObject([
      { targetId: owner.id, actorId: owner.id, actorName: "Ada", ip: "local", details: { displayName: { from: "owner", to: "Ada" } } },
    ]);
    await refusedAppendsNothing(400, () => call(env, "PUT", "/api/auth/me", { as: owner, body: { displayName: "   " } }));

    await refusedAppendsNothing(400, () =>
      call(env, "PUT", "/api/auth/me/password", { as: owner, body: { currentPassword: "wrong password!", newPassword: NEW_PASSWORD } }),
    );
    const changed = await call(env, "PUT", "/api/auth/me/password", {
      as: owner,
      body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(changed.status).toBe(204);
    expect(auditOf(env, "user.password_changed")).toMatchObject([
      { targetId: owner.id, actorId: owner.id, ip: "local", details: { otherSessionsSignedOut: 1 } },
    ]);
    expectNoSecrets([PASSWORD, NEW_PASSWORD, "wrong password!", owner.cookie, other, cookieFrom(changed)]);
  });

  test("sessions signed out one by one and all at once", async () => {
    const owner = await signUp(env, "owner@example.com");
    const signIn = async () =>
      cookieFrom(await call(env, "POST", "/api/auth/login", { body: { email: "owner@example.com", password: PASSWORD } }));
    await signIn();
    await signIn();
    await signIn();
    const list = (await call(env, "GET", "/api/auth/me/sessions", { as: owner })).body as Array<{ id: string; current: boolean }>;
    const others = list.filter((s) => !s.current).map((s) => s.id);
    expect(others).toHaveLength(3);

    expect((await call(env, "DELETE", `/api/auth/me/sessions/${others[0]}`, { as: owner })).status).toBe(204);
    expect(auditOf(env, "session.revoked")).toMatchObject([
      { targetType: "session", targetId: others[0], actorId: owner.id, ip: "local", details: { userId: owner.id } },
    ]);
    await refusedAppendsNothing(404, () => call(env, "DELETE", `/api/auth/me/sessions/${others[0]}`, { as: owner }));

    expect((await call(env, "DELETE", "/api/auth/me/sessions/others", { as: owner })).status).toBe(204);
    expect(
      auditOf(env, "session.revoked")
        .map((e) => e.targetId)
        .sort(),
    ).toEqual([...others].sort());
  });
});

describe("tokens and invites", () => {
  test("tokens created and revoked, never their value", async () => {
    const owner = await signUp(env, "owner@example.com");
    const value = await mintToken(env, owner, { name: "CI", readOnly: true, expiresInDays: 30 });
    const [created] = auditOf(env, "token.created");
    expect(created).toMatchObject({
      targetType: "token",
      actorId: owner.id,
      ip: "local",
      details: { name: "CI", prefix: value.slice(0, 12), readOnly: true, expiresAt: expect.any(String) },
    });

    await refusedAppendsNothing(400, () => call(env, "POST", "/api/api-tokens", { as: owner, body: { name: " " } }));
    await refusedAppendsNothing(404, () => call(env, "DELETE", "/api/api-tokens/0190aaaa-0000-7000-8000-000000000000", { as: owner }));
    expect((await call(env, "DELETE", `/api/api-tokens/${created.targetId}`, { as: owner })).status).toBe(204);
    expect(auditOf(env, "token.revoked")).toMatchObject([{ targetId: created.targetId, actorId: owner.id, details: { name: "CI" } }]);
    await refusedAppendsNothing(404, () => call(env, "DELETE", `/api/api-tokens/${created.targetId}`, { as: owner }));
    expectNoSecrets([value]);
  });

  test("invites created, used and withdrawn, never their token", async () => {
    const owner = await signUp(env, "owner@example.com");
    const invite = await call(env, "POST", "/api/admin/invites", { as: owner, body: { email: "ada@example.com" } });
    expect(auditOf(env, "invite.created")).toMatchObject([
      { targetType: "invite", targetId: invite.body.id, actorId: owner.id, ip: "local", details: { email: "ada@example.com" } },
    ]);
    const ada = await signUp(env, "ada@example.com", { inviteToken: invite.body.token });
    expect(auditOf(env, "user.registered").at(-1)).toMatchObject({
      targetId: ada.id,
      actorId: ada.id,
      details: { inviteId: invite.body.id, roleName: "User" },
    });

    const spare = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
    expect((await call(env, "DELETE", `/api/admin/invites/${spare.body.id}`, { as: owner })).status).toBe(204);
    expect(auditOf(env, "invite.deleted")).toMatchObject([{ targetId: spare.body.id, actorId: owner.id, details: { email: null } }]);
    await refusedAppendsNothing(404, () => call(env, "DELETE", `/api/admin/invites/${spare.body.id}`, { as: owner }));
    await refusedAppendsNothing(403, () => call(env, "POST", "/api/admin/invites", { as: ada, body: {} }));
    expectNoSecrets([invite.body.token, spare.body.token]);
  });
});

describe("groups and settings", () => {
  test("groups created, renamed, given and losing members, deleted", async () => {
    const { owner, member } = await ownerAndMember(env);
    const group = (await call(env, "POST", "/api/groups", { as: owner, body: { name: "Editors", description: "Edit things" } })).body;
    await refusedAppendsNothing(409, () => call(env, "POST", "/api/groups", { as: owner, body: { name: "editors" } }));
    await refusedAppendsNothing(403, () => call(env, "POST", "/api/groups", { as: member, body: { name: "Mine" } }));
    await call(env, "PUT", `/api/groups/${group.id}`, { as: owner, body: { name: "Writers" } });
    await call(env, "POST", `/api/groups/${group.id}/members`, { as: owner, body: { userId: member.id } });
    await call(env, "POST", `/api/groups/${group.id}/members`, { as: owner, body: { userId: member.id } }); // already in: no change
    await call(env, "DELETE", `/api/groups/${group.id}/members/${member.id}`, { as: owner });
    await refusedAppendsNothing(404, () => call(env, "DELETE", `/api/groups/${group.id}/members/${member.id}`, { as: owner }));
    await call(env, "DELETE", `/api/groups/${group.id}`, { as: owner });

    const entries = auditRows(env).filter((r) => r.targetType === "group");
    expect(entries.map((e) => [e.action, e.targetId, e.actorId, e.ip, JSON.parse(e.details)])).toEqual([
      ["group.created", group.id, owner.id, "local", { name: "Editors", description: "Edit things" }],
      [
        "group.updated",
        group.id,
        owner.id,
        "local",
        { name: { from: "Editors", to: "Writers" }, description: { from: "Edit things", to: "Edit things" } },
      ],
      ["group.member_added", group.id, owner.id, "local", { userId: member.id }],
      ["group.member_removed", group.id, owner.id, "local", { userId: member.id }],
      ["group.deleted", group.id, owner.id, "local", { name: "Writers" }],
    ]);
  });

  test("settings changes name the key, the old and the new value", async () => {
    const owner = await signUp(env, "owner@example.com");
    setSetting(env.core, "allowPublicRegistration", true, { actorId: owner.id, ip: "192.0.2.7" });
    deleteSetting(env.core, "allowPublicRegistration", { actorId: owner.id, ip: "192.0.2.7" });
    deleteSetting(env.core, "allowPublicRegistration"); // nothing stored: no change
    setSetting(env.core, "instanceName", "Team wiki"); // no account (CLI, start-up)
    expect(auditOf(env, "settings.updated").map((e) => [e.targetType, e.targetId, e.actorId, e.actorName, e.ip, e.details])).toEqual([
      ["setting", "allowPublicRegistration", owner.id, "owner", "192.0.2.7", { key: "allowPublicRegistration", from: false, to: true }],
      ["setting", "allowPublicRegistration", owner.id, "owner", "192.0.2.7", { key: "allowPublicRegistration", from: true, to: false }],
      ["setting", "instanceName", null, null, null, { key: "instanceName", from: "Cairn", to: "Team wiki" }],
    ]);
  });
});

describe("the recording mechanism", () => {
  test("an event and its entry commit or roll back together", () => {
    const before = auditRows(env).length;
    const write = () =>
      recordEvent(env.core, {
        type: "group.deleted",
        targetType: "group",
        targetId: "g",
        spaceId: null,
        actorId: null,
        ip: null,
        data: {},
      });
    expect(() =>
      env.core.tx(() => {
        write();
        throw new Error("the change failed after recording");
      }),
    ).toThrow("the change failed");
    expect(auditRows(env)).toHaveLength(before);
    env.core.tx(write);
    expect(auditRows(env)).toHaveLength(before + 1);
    // The entry shares the event's id.
    const event = env.core.sqlite.query<{ id: string }, []>("SELECT id FROM events ORDER BY seq DESC LIMIT 1").get()!;
    expect(auditRows(env).at(-1)!.id).toBe(event.id);
  });

  test("details: secret-looking keys redacted, long lists and strings shortened", () => {
    env.core.tx(() =>
      recordEvent(env.core, {
        type: "group.updated",
        targetType: "group",
        targetId: "g",
        spaceId: null,
        actorId: null,
        data: {
          password: "hunter2hunter2",
          nested: { secret: "whsec_abc", token: "cct_xyz", tokenId: "kept" },
          ids: Array.from({ length: 60 }, (_, i) => i),
          note: "x".repeat(1500),
        },
      }),
    );
    const details = auditOf(env, "group.updated")[0].details;
    expect(details.password).toBe("[redacted]");
    expect(details.nested).toEqual({ secret: "[redacted]", token: "[redacted]", tokenId: "kept" });
    expect(details.ids).toHaveLength(51);
    expect(details.ids[50]).toBe("…and 10 more");
    expect(details.note).toHaveLength(1001);
    expectNoSecrets(["hunter2hunter2", "whsec_abc", "cct_xyz"]);
  });

  test("space changes carry the caller's address", async () => {
    const owner = await signUp(env, "owner@example.com");
    await call(env, "POST", "/api/spaces", { as: owner, body: { key: "DOCS", name: "Docs" } });
    await call(env, "PUT", "/api/spaces/DOCS", { as: owner, body: { name: "Documents" } });
    expect(
      auditRows(env)
        .filter((r) => r.targetType === "space")
        .map((r) => [r.action, r.ip]),
    ).toEqual([
      ["space.created", "local"],
      ["space.updated", "local"],
    ]);
  });
});
