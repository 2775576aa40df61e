import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, signUp, type TestEnv, type Who } from "../../tests/harness";
import { newSpace } from "../pages/testing";
import { catchUpNotifications, KEEP_READ_MS, pruneReadNotifications, warnExpiringTokens } from "./schedule";
import { inbox, unread, watch } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const DAY = 86_400_000;

/** Sessions lapse while the clock moves by weeks: tests read through a token that never expires. */
async function reader(who: Who): Promise<Who> {
  return { token: (await call(env, "POST", "/api/api-tokens", { as: who, body: { name: "reader", expiresInDays: null } })).body.token };
}

async function mint(who: Who, name: string, expiresInDays: number | null) {
  const res = await call(env, "POST", "/api/api-tokens", { as: who, body: { name, expiresInDays } });
  expect(res.status).toBe(201);
  return res.body as { id: string; prefix: string; expiresAt: string | null };
}

describe("API token expiry warning (docs/decisions.md, Watches and notifications)", () => {
  test("the owner is warned once, a week before expiry, as the clock moves", async () => {
    const owner = await signUp(env, "owner@example.com");
    const me = await reader(owner);
    const token = await mint(owner, "CI deploy", 30);
    expect(warnExpiringTokens(env.core)).toBe(0);
    env.clock.advance(22 * DAY);
    expect(warnExpiringTokens(env.core)).toBe(0);
    expect(await inbox(env, me)).toEqual([]);
    env.clock.advance(DAY + 1000);
    expect(warnExpiringTokens(env.core)).toBe(1);
    expect(await inbox(env, me)).toEqual([
      {
        id: expect.any(String),
        action: "token.expiring",
        targetType: "token",
        targetId: token.id,
        spaceId: null,
        pageId: null,
        actorId: null,
        actorName: null,
        details: { name: "CI deploy", prefix: token.prefix, expiresAt: token.expiresAt },
        createdAt: new Date(env.clock.now()).toISOString(),
        readAt: null,
      },
    ]);
    // Once: later checks, and reading the entry, do not bring it back.
    expect(warnExpiringTokens(env.core)).toBe(0);
    expect((await call(env, "POST", "/api/notifications/read-all", { as: me })).status).toBe(204);
    env.clock.advance(3 * DAY);
    expect(warnExpiringTokens(env.core)).toBe(0);
    expect(await inbox(env, me)).toHaveLength(1);
  });

  test("a token the check missed for a while is still warned while it lives, not after it expired", async () => {
    const owner = await signUp(env, "owner@example.com");
    const me = await reader(owner);
    await mint(owner, "a", 10);
    await mint(owner, "b", 10);
    // Nine days on (the server was down at the 3-day mark): both are warned now.
    env.clock.advance(9 * DAY);
    expect(warnExpiringTokens(env.core)).toBe(2);
    const missed = await mint(owner, "missed", 20);
    // Not checked again until after it expired: nothing to warn of any more.
    env.clock.advance(21 * DAY);
    expect(warnExpiringTokens(env.core)).toBe(0);
    expect((await inbox(env, me)).map((n) => n.targetId)).not.toContain(missed.id);
    expect(await inbox(env, me)).toHaveLength(2);
  });

  test("no warning for a token without expiry (the reader), one made to last a week or less, or one revoked", async () => {
    const owner = await signUp(env, "owner@example.com");
    const me = await reader(owner);
    await mint(owner, "short", 7);
    const revoked = await mint(owner, "revoked", 30);
    expect((await call(env, "DELETE", `/api/api-tokens/${revoked.id}`, { as: owner })).status).toBe(204);
    for (let day = 0; day < 40; day++) {
      env.clock.advance(DAY);
      expect(warnExpiringTokens(env.core)).toBe(0);
    }
    expect(await unread(env, me)).toBe(0);
  });
});

describe("clearing old entries", () => {
  test("entries read more than 90 days ago are deleted; unread ones stay, however old", async () => {
    const owner = await signUp(env, "owner@example.com");
    const space = await newSpace(env, owner, "DOCS");
    // A second account watching the space, with three entries.
    const invite = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
    const member = await signUp(env, "member@example.com", { inviteToken: invite.body.token });
    await watch(env, member, "/api/spaces/DOCS");
    const me = await reader(member);
    for (const title of ["Old", "Kept unread", "Recent"]) {
      await call(env, "POST", "/api/pages", { as: owner, body: { spaceId: space.id, title } });
    }
    const [recent, , old] = await inbox(env, member);
    await call(env, "POST", `/api/notifications/${old.id}/read`, { as: member });
    env.clock.advance(KEEP_READ_MS - 1000);
    expect((await call(env, "POST", `/api/notifications/${recent.id}/read`, { as: me })).status).toBe(204);
    expect(pruneReadNotifications(env.core)).toBe(0);
    env.clock.advance(2000);
    expect(pruneReadNotifications(env.core)).toBe(1);
    expect((await inbox(env, me)).map((n) => n.details.pageTitle)).toEqual(["Recent", "Kept unread"]);
  });
});

describe("the upkeep runs as a job", () => {
  test("once at the server's start, then at each hour of the jobs module's schedule", async () => {
    const owner = await signUp(env, "owner@example.com");
    const me = await reader(owner);
    await mint(owner, "CI deploy", 30);
    await mint(owner, "Nightly", 32);
    env.clock.advance(23 * DAY + 1000);
    catchUpNotifications(env.core);
    await env.core.jobs.runDue();
    expect((await inbox(env, me)).map((n: { action: string }) => n.action)).toEqual(["token.expiring"]);
    // The second token comes due between two runs: the next hour's run warns about it.
    env.clock.advance(2 * DAY);
    await env.core.jobs.runDue(); // the schedule fires: the hour has passed
    expect((await inbox(env, me)).map((n: { action: string }) => n.action)).toEqual(["token.expiring", "token.expiring"]);
  });
});
