import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, ownerAndMember, signUp, type TestEnv, type Who } from "../../tests/harness";
import { auditOf } from "../audit/testing";
import { GROUP_ID } from "../identity/builtin-groups";
import { newPage, newSpace } from "../pages/testing";
import { settle, wrongPassword } from "./testing";

const ALERTS = "/api/admin/security/alerts";

let env: TestEnv;
let owner: Who & { id: string };
let member: Who & { id: string };

beforeEach(async () => {
  env = makeEnv();
  ({ owner, member } = await ownerAndMember(env));
});
afterEach(() => env.close());

async function alerts(query = ""): Promise<any[]> {
  await settle();
  const res = await call(env, "GET", `${ALERTS}${query}`, { as: owner });
  expect(res.status).toBe(200);
  return res.body;
}

/** `n` wrong passwords from `ip` for these accounts in turn, moving past the per-address minute limit when needed. */
async function spray(ip: string, emails: string[], n: number) {
  for (let i = 0; i < n; i++) {
    let status = await wrongPassword(env, ip, emails[i % emails.length]);
    if (status === 429) {
      env.clock.advance(61_000);
      status = await wrongPassword(env, ip, emails[i % emails.length]);
    }
    expect([401, 429]).toContain(status);
  }
}

describe("brute force", () => {
  test("many wrong passwords for several accounts from one address raise one critical alert, bumped not repeated", async () => {
    const third = await signUp(env, "third@example.com", {
      inviteToken: (await call(env, "POST", "/api/admin/invites", { as: owner, body: {} })).body.token,
    });
    const emails = ["owner@example.com", "member@example.com", "third@example.com"];
    await spray("203.0.113.9", emails, 9);
    expect(await alerts()).toEqual([]);
    await spray("203.0.113.9", emails, 1);
    const [alert] = await alerts();
    expect(alert).toMatchObject({ detector: "brute_force_address", subject: "address:203.0.113.9", severity: 2, status: 0, hits: 1 });
    expect(alert.summary).toBe("10 wrong passwords for 3 accounts from 203.0.113.9 within 15 minutes");
    expect(alert.details.accountEmails.sort()).toEqual(emails.sort());
    await spray("203.0.113.9", emails, 3);
    const again = await alerts();
    expect(again).toHaveLength(1);
    expect(again[0].hits).toBe(4);
    expect(auditOf(env, "security.alert_raised")).toHaveLength(1);
    expect(third.id).toBeString();
  });

  test("wrong passwords for one account from several addresses raise an alert about the account", async () => {
    for (let i = 0; i < 10; i++) await wrongPassword(env, `198.51.100.${1 + (i % 4)}`, "member@example.com");
    const list = await alerts();
    expect(list.map((a) => a.detector)).toEqual(["brute_force_account"]);
    expect(list[0]).toMatchObject({ subject: `user:${member.id}`, severity: 2 });
    expect(list[0].summary).toBe("10 wrong passwords for member@example.com from 4 addresses within 15 minutes");
  });

  test("failures spread beyond the window raise nothing", async () => {
    for (let i = 0; i < 10; i++) {
      await wrongPassword(env, `198.51.100.${1 + (i % 4)}`, "member@example.com");
      env.clock.advance(2 * 60_000);
    }
    expect(await alerts()).toEqual([]);
  });
});

describe("acknowledge and resolve", () => {
  async function raised() {
    for (let i = 0; i < 10; i++) await wrongPassword(env, `198.51.100.${1 + (i % 3)}`, "member@example.com");
    const [alert] = await alerts();
    return alert;
  }

  test("acknowledge then resolve with notes; audited; a resolved alert does not come back for what was already seen", async () => {
    const alert = await raised();
    const ack = await call(env, "POST", `${ALERTS}/${alert.id}/acknowledge`, { as: owner, body: { note: "Looking" } });
    expect(ack.body).toMatchObject({ status: 1, note: "Looking", acknowledgedByName: "owner", resolvedAt: null });
    expect((await call(env, "POST", `${ALERTS}/${alert.id}/acknowledge`, { as: owner, body: {} })).body.status).toBe(1);
    expect((await alerts("?status=1")).map((a) => a.id)).toEqual([alert.id]);
    expect(await alerts("?status=0")).toEqual([]);
    const done = await call(env, "POST", `${ALERTS}/${alert.id}/resolve`, { as: owner, body: { note: "Member mistyped; told them" } });
    expect(done.body).toMatchObject({ status: 2, note: "Member mistyped; told them", resolvedByName: "owner" });
    expect(auditOf(env, "security.alert_acknowledged")).toHaveLength(1);
    expect(auditOf(env, "security.alert_resolved")).toHaveLength(1);
    expect((await call(env, "POST", `${ALERTS}/${alert.id}/acknowledge`, { as: owner, body: {} })).status).toBe(409);
    // One more failure: the ten before the resolution are not counted again.
    env.clock.advance(1000);
    await wrongPassword(env, "198.51.100.1", "member@example.com");
    expect(await alerts("?status=0")).toEqual([]);
    // Ten new ones are a new alert.
    for (let i = 0; i < 10; i++) await wrongPassword(env, `198.51.100.${1 + (i % 3)}`, "member@example.com");
    const open = await alerts("?status=0");
    expect(open).toHaveLength(1);
    expect(open[0].id).not.toBe(alert.id);
  });

  test.each([
    ["GET", `${ALERTS}?status=3`, undefined, "status"],
    ["GET", `${ALERTS}?status=open`, undefined, "status"],
    ["GET", `${ALERTS}?take=0`, undefined, "take"],
    ["GET", `${ALERTS}?take=201`, undefined, "take"],
    ["POST", "ID/resolve", { note: "x".repeat(1001) }, "note"],
    ["POST", "ID/acknowledge", { note: 5 }, "note"],
    ["POST", "ID/resolve", { surprise: 2 }, "surprise"],
  ])("%s %s is a 400 naming %s", async (method, path, body, field) => {
    const alert = await raised();
    const url = path.startsWith("ID") ? `${ALERTS}/${alert.id}${path.slice(2)}` : path;
    const res = await call(env, method, url, { as: owner, body });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(field);
  });

  test("an unknown alert is a 404; a member gets 403, anonymous 401", async () => {
    expect((await call(env, "POST", `${ALERTS}/0190a5a0-0000-7000-8000-000000000000/resolve`, { as: owner, body: {} })).status).toBe(404);
    const alert = await raised();
    expect((await call(env, "POST", `${ALERTS}/${alert.id}/resolve`, { as: member, body: {} })).status).toBe(403);
    expect((await call(env, "GET", ALERTS, { as: member })).status).toBe(403);
    expect((await call(env, "GET", ALERTS)).status).toBe(401);
  });
});

describe("other detectors", () => {
  test("mass deletion: one account trashing a subtree of 25 pages", async () => {
    const space = await newSpace(env, member, "DOCS");
    const root = await newPage(env, member, space.id, "Root");
    for (let i = 0; i < 24; i++) await newPage(env, member, space.id, `Child ${i}`, { parentPageId: root.id });
    expect((await call(env, "DELETE", `/api/pages/${root.id}`, { as: member })).status).toBe(204);
    const [alert] = await alerts();
    expect(alert).toMatchObject({ detector: "mass_deletion", subject: `user:${member.id}`, severity: 2 });
    expect(alert.summary).toBe("member@example.com: 25 pages trashed or purged within 10 minutes");
  });

  test("mass deletion: pages trashed one by one add up; a few do not", async () => {
    const space = await newSpace(env, member, "DOCS");
    const pages = [];
    for (let i = 0; i < 25; i++) pages.push(await newPage(env, member, space.id, `Page ${i}`));
    for (const p of pages.slice(0, 24)) await call(env, "DELETE", `/api/pages/${p.id}`, { as: member });
    expect(await alerts()).toEqual([]);
    await call(env, "DELETE", `/api/pages/${pages[24].id}`, { as: member });
    expect((await alerts()).map((a) => a.detector)).toEqual(["mass_deletion"]);
  });

  test("permission expansion: a space opened to Everyone again", async () => {
    const space = await newSpace(env, owner, "OPEN");
    const grants = (await call(env, "GET", "/api/spaces/OPEN/permissions", { as: owner })).body;
    const everyone = grants.find((g: { principalId: string }) => g.principalId === GROUP_ID.everyone);
    expect((await call(env, "DELETE", `/api/spaces/OPEN/permissions/${everyone.id}`, { as: owner })).status).toBe(204);
    expect(await alerts()).toEqual([]);
    expect(
      (
        await call(env, "POST", "/api/spaces/OPEN/permissions", {
          as: owner,
          body: { principalType: 1, principalId: GROUP_ID.everyone, operation: 0 },
        })
      ).status,
    ).toBe(201);
    const [alert] = await alerts();
    expect(alert).toMatchObject({ detector: "permission_expansion", subject: `space:${space.id}`, severity: 1 });
    expect(alert.summary).toBe("owner@example.com opened space OPEN to Everyone");
  });

  test("permission expansion: many grants by one account", async () => {
    await newSpace(env, owner, "TEAM");
    const people = [];
    for (let i = 0; i < 10; i++)
      people.push(
        await signUp(env, `p${i}@example.com`, {
          inviteToken: (await call(env, "POST", "/api/admin/invites", { as: owner, body: {} })).body.token,
        }),
      );
    for (const p of people.slice(0, 9))
      await call(env, "POST", "/api/spaces/TEAM/permissions", { as: owner, body: { principalType: 0, principalId: p.id, operation: 2 } });
    expect(await alerts()).toEqual([]);
    await call(env, "POST", "/api/spaces/TEAM/permissions", {
      as: owner,
      body: { principalType: 0, principalId: people[9].id, operation: 2 },
    });
    const [alert] = await alerts();
    expect(alert).toMatchObject({ detector: "permission_expansion", subject: `user:${owner.id}`, severity: 1 });
  });

  test("permission expansion: role promotions count, demotions do not", async () => {
    const people = [];
    for (let i = 0; i < 10; i++)
      people.push(
        await signUp(env, `p${i}@example.com`, {
          inviteToken: (await call(env, "POST", "/api/admin/invites", { as: owner, body: {} })).body.token,
        }),
      );
    const role = (id: string, tier: number) => call(env, "PUT", `/api/admin/users/${id}/role`, { as: owner, body: { role: tier } });
    for (const p of people.slice(0, 5)) expect((await role(p.id, 1)).status).toBe(200);
    for (const p of people.slice(0, 5)) expect((await role(p.id, 0)).status).toBe(200);
    expect(await alerts()).toEqual([]);
    for (const p of people.slice(5)) expect((await role(p.id, 1)).status).toBe(200);
    const [alert] = await alerts();
    expect(alert).toMatchObject({ detector: "permission_expansion", subject: `user:${owner.id}`, details: { changes: 10 } });
  });

  test("token-minting burst: ten tokens in ten minutes", async () => {
    for (let i = 0; i < 9; i++) await mintToken(env, member, { name: `t${i}` });
    expect(await alerts()).toEqual([]);
    await mintToken(env, member, { name: "t9" });
    const [alert] = await alerts();
    expect(alert).toMatchObject({ detector: "token_burst", subject: `user:${member.id}`, severity: 1 });
    expect(alert.summary).toBe("member@example.com created 10 API tokens within 10 minutes");
  });
});
