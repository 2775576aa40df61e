import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { GROUP_ID } from "../identity/builtin-groups";
import { newSpace } from "../pages/testing";
import { callFrom, settle, wrongPassword } from "./testing";

const S = "/api/admin/security";

let env: TestEnv;
let owner: Who & { id: string };
let member: Who & { id: string };

beforeEach(async () => {
  env = makeEnv();
  ({ owner, member } = await ownerAndMember(env));
});
afterEach(() => env.close());

const get = async (path: string, as: Who = owner) => {
  await settle();
  return call(env, "GET", `${S}${path}`, { as });
};

describe("events", () => {
  test("sign-in failures, the lockout they cause, token minting and permission changes, each with its kind and severity", async () => {
    for (let i = 0; i < 5; i++) await wrongPassword(env, "198.51.100.7", "member@example.com");
    await mintToken(env, member, { name: "ci" });
    await newSpace(env, owner, "OPS");
    const grants = (await call(env, "GET", "/api/spaces/OPS/permissions", { as: owner })).body;
    await call(
      env,
      "DELETE",
      `/api/spaces/OPS/permissions/${grants.find((g: { principalId: string }) => g.principalId === GROUP_ID.everyone).id}`,
      { as: owner },
    );
    await call(env, "GET", "/api/spaces", { as: owner }); // reads are no events

    const all = (await get("/events")).body;
    expect(all.kinds.map((k: { name: string }) => k.name)).toContain("lockout");
    const summary = all.events.map((e: any) => [e.action, e.kind, e.severity]);
    expect(summary).toEqual([
      ["space.permission_revoked", "permission_change", 0],
      ["token.created", "token_minted", 0],
      ["user.login_failed", "lockout", 1],
      ["user.login_failed", "sign_in_failure", 0],
      ["user.login_failed", "sign_in_failure", 0],
      ["user.login_failed", "sign_in_failure", 0],
      ["user.login_failed", "sign_in_failure", 0],
    ]);
    expect(all.events[2]).toMatchObject({ ip: "198.51.100.7", targetName: "member@example.com", details: { locked: true } });
    expect(all.nextBefore).toBeNull();

    expect((await get("/events?kind=lockout")).body.events).toHaveLength(1);
    expect((await get("/events?kind=sign_in_failure")).body.events).toHaveLength(4);
    expect((await get("/events?severity=1")).body.events.map((e: any) => e.kind)).toEqual(["lockout"]);
    expect((await get("/events?severity=2")).body.events).toEqual([]);

    const first = (await get("/events?take=3")).body;
    expect(first.events).toHaveLength(3);
    const rest = (await get(`/events?take=10&before=${first.nextBefore}`)).body;
    expect(rest.events).toHaveLength(4);
    expect(rest.nextBefore).toBeNull();
  });

  test("an alert raised and resolved, and a block, are events too", async () => {
    for (let i = 0; i < 10; i++) await wrongPassword(env, `198.51.100.${1 + (i % 3)}`, "member@example.com");
    await callFrom(env, "192.0.2.1", "POST", `${S}/blocks`, { as: owner, body: { cidr: "198.51.100.0/24", reason: "brute force" } });
    const events = (await get("/events?kind=security")).body.events;
    expect(events.map((e: any) => [e.action, e.severity])).toEqual([
      ["security.block_added", 0],
      ["security.alert_raised", 2],
    ]);
    expect((await get("/events?severity=2")).body.events.map((e: any) => e.action)).toEqual(["security.alert_raised"]);
  });

  test.each([
    ["kind=nope", "kind"],
    ["severity=3", "severity"],
    ["severity=-1", "severity"],
    ["severity=warning", "severity"],
    ["take=0", "take"],
    ["take=201", "take"],
    ["take=ten", "take"],
    ["before=0", "before"],
  ])("?%s is a 400 naming %s", async (query, field) => {
    const res = await get(`/events?${query}`);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(field);
  });
});

describe("limits and overview", () => {
  test("limits: the settings, the detectors and the lockouts in force, which end with their time", async () => {
    for (let i = 0; i < 5; i++) await wrongPassword(env, "198.51.100.7", "member@example.com");
    const limits = (await get("/limits")).body;
    expect(limits.settings).toMatchObject({ loginRateLimitPerMinute: 10, lockoutThreshold: 5, lockoutBaseSeconds: 60 });
    expect(limits.detectors.map((d: { name: string }) => d.name)).toEqual([
      "brute_force_address",
      "brute_force_account",
      "mass_deletion",
      "permission_expansion",
      "token_burst",
    ]);
    expect(limits.lockouts).toEqual([
      {
        userId: member.id,
        email: "member@example.com",
        displayName: "member",
        address: "198.51.100.7",
        scope: "address",
        until: new Date(env.clock.now() + 60_000).toISOString(),
      },
    ]);
    env.clock.advance(61_000);
    expect((await get("/limits")).body.lockouts).toEqual([]);
  });

  test("overview: alerts by severity, failed sign-ins of the last day, lockouts, blocks, two-factor, last events", async () => {
    // Five from one address lock it out; the rest come from two more.
    for (let i = 0; i < 10; i++) await wrongPassword(env, `198.51.100.${i < 5 ? 1 : 2 + (i % 2)}`, "member@example.com");
    await callFrom(env, "192.0.2.1", "POST", `${S}/blocks`, { as: owner, body: { cidr: "203.0.113.0/24", reason: "x" } });
    const o = (await get("/overview")).body;
    expect(o).toMatchObject({
      openAlerts: { info: 0, warning: 0, critical: 1, acknowledged: 0 },
      failedSignIns24h: 10,
      activeBlocks: 1,
      twoFactor: { available: false, adminsWithout: 1 },
    });
    expect(o.activeLockouts).toBe(1);
    expect(o.lastEvents[0].action).toBe("security.block_added");
    env.clock.advance(86_400_000 + 1000);
    expect((await get("/overview")).body).toMatchObject({ failedSignIns24h: 0, activeLockouts: 0 });
  });

  test.each(["/overview", "/limits", "/events", "/alerts", "/blocks"])("%s needs security.manage", async (path) => {
    expect((await get(path, member)).body).toMatchObject({ status: 403, code: "permission_required" });
    expect((await call(env, "GET", `${S}${path}`)).status).toBe(401);
  });
});
