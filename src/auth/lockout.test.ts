/**
 * Sign-in lockout: per account and client address first, for every address only on evidence
 * of a spread-out attack; the right password is told about a lock; the per-address limit
 * counts only wrong passwords; the owner hears about failures at the next sign-in.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { BASE, call, makeEnv, PASSWORD, signUp, type Answer, type TestEnv } from "../../tests/harness";
import { auditOf } from "../audit/testing";
import { iso } from "../platform/clock";
import { setSetting } from "../settings/service";

let env: TestEnv;
beforeEach(async () => {
  env = makeEnv();
  await signUp(env, "owner@example.com");
});
afterEach(() => env.close());

const WRONG = "not the password at all";

/** POST /api/auth/login as if from the client address `ip` (the socket's, no proxy). */
async function signInFrom(ip: string, password: string, email = "owner@example.com"): Promise<Answer> {
  const headers = { "content-type": "application/json", "x-requested-with": "Cairn" };
  const res = await env.handle(
    new Request(`${BASE}/api/auth/login`, { method: "POST", headers, body: JSON.stringify({ email, password }) }),
    ip,
  );
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null };
}

async function failFrom(ip: string, times: number, email?: string) {
  for (let i = 0; i < times; i++) expect((await signInFrom(ip, WRONG, email)).status).toBe(401);
}

describe("a lock is per account and address", () => {
  test("wrong passwords from one address lock it out of the account, not the owner elsewhere", async () => {
    await failFrom("203.0.113.9", 5);
    const locked = await signInFrom("203.0.113.9", PASSWORD);
    expect(locked.status).toBe(429);
    expect((await signInFrom("198.51.100.4", PASSWORD)).status).toBe(200);
    // The owner's success elsewhere does not unlock the guessing address.
    expect((await signInFrom("203.0.113.9", PASSWORD)).status).toBe(429);
  });

  test("each lock of an address lasts base seconds, doubling up to the maximum; a success clears it", async () => {
    const expected = [60, 120, 240, 480, 900, 900];
    for (const seconds of expected) {
      await failFrom("local", 5);
      env.clock.advance(seconds * 1000 - 1000);
      expect((await signInFrom("local", PASSWORD)).headers.get("retry-after")).toBe("1");
      env.clock.advance(1000);
    }
    expect((await signInFrom("local", PASSWORD)).status).toBe(200);
    await failFrom("local", 5);
    expect((await signInFrom("local", PASSWORD)).headers.get("retry-after")).toBe("60");
  });

  test("an IPv6 address counts by its /64", async () => {
    for (let i = 1; i <= 5; i++) await failFrom(`2001:db8:1:2::${i}`, 1);
    expect((await signInFrom("2001:db8:1:2::99", PASSWORD)).status).toBe(429);
    expect((await signInFrom("2001:db8:1:3::1", PASSWORD)).status).toBe(200);
  });

  test("an address's failures are forgotten a day after its last one", async () => {
    await failFrom("local", 4);
    env.clock.advance(86_400_000 + 1000);
    await failFrom("local", 4);
    expect((await signInFrom("local", PASSWORD)).status).toBe(200);
  });
});

describe("a spread-out attack locks the account for every address", () => {
  const attackers = ["203.0.113.1", "203.0.113.2", "203.0.113.3", "203.0.113.4"];

  test("20 wrong passwords from 3 or more addresses within an hour, and the audit log says so", async () => {
    for (const ip of attackers) await failFrom(ip, 5);
    const elsewhere = await signInFrom("198.51.100.4", PASSWORD);
    expect(elsewhere.status).toBe(429);
    expect(elsewhere.body.detail).toBe(
      "This account is locked after too many wrong passwords from several addresses; try again in 60 seconds.",
    );
    const failed = auditOf(env, "user.login_failed");
    expect(failed.at(-2)!.details).toMatchObject({
      reason: "wrong_password",
      locked: true,
      lockedForSeconds: 60,
      everyAddress: true,
      addresses: 4,
    });
    expect(failed.at(-1)!.details).toEqual({ reason: "locked", lockedForSeconds: 60, everyAddress: true });
    expect(failed.filter((e) => e.details.everyAddress && e.details.locked)).toHaveLength(1);
    env.clock.advance(60_000);
    expect((await signInFrom("198.51.100.4", PASSWORD)).status).toBe(200);
  });

  test("two addresses alone never lock it for everyone, however many their failures", async () => {
    // Five to lock each, five more checked during each lock: 20 in all.
    await failFrom(attackers[0], 10);
    await failFrom(attackers[1], 10);
    expect((await signInFrom("198.51.100.4", PASSWORD)).status).toBe(200);
  });

  test("wrong passwords during an address's lock still count as evidence", async () => {
    setSetting(env.core, "lockoutAccountFailures", 12);
    await failFrom(attackers[0], 10);
    await failFrom(attackers[1], 1);
    expect((await signInFrom("198.51.100.4", PASSWORD)).status).toBe(200);
    await failFrom(attackers[2], 1);
    expect((await signInFrom("198.51.100.4", PASSWORD)).body.lockScope).toBe("account");
  });

  test("the numbers and the window are settings", async () => {
    setSetting(env.core, "lockoutAccountFailures", 3);
    setSetting(env.core, "lockoutAccountWindowSeconds", 60);
    await failFrom(attackers[0], 1);
    env.clock.advance(61_000);
    await failFrom(attackers[1], 1);
    await failFrom(attackers[2], 1);
    expect((await signInFrom("198.51.100.4", PASSWORD)).status).toBe(200);
    await failFrom(attackers[1], 1);
    await failFrom(attackers[3], 1);
    expect((await signInFrom("198.51.100.5", PASSWORD)).status).toBe(429);
  });
});

describe("the right password while locked", () => {
  test("is told the account is locked and for how long; a wrong password's answer does not change", async () => {
    const wrongBefore = (await signInFrom("local", WRONG)).text;
    const unknown = (await signInFrom("local", WRONG, "nobody@example.com")).text;
    await failFrom("local", 4);
    const wrongLocked = (await signInFrom("local", WRONG)).text;
    expect(wrongBefore).toBe(unknown);
    expect(wrongLocked).toBe(unknown);

    env.clock.advance(30_000);
    const right = await signInFrom("local", PASSWORD);
    expect(right.status).toBe(429);
    expect(right.headers.get("retry-after")).toBe("30");
    expect(right.body).toMatchObject({
      code: "rate_limited",
      retryAfter: 30,
      lockScope: "address",
      lockedUntil: iso(env.clock.now() + 30_000),
      detail: "This account is locked for sign-ins from your address after too many wrong passwords; try again in 30 seconds.",
    });
    expect(right.headers.get("set-cookie")).toBeNull();
    expect(auditOf(env, "user.login_failed").at(-1)!.details).toEqual({ reason: "locked", lockedForSeconds: 30 });
  });

  test("the lock checks only lockoutThreshold more passwords; after that every password gets the wrong-password answer", async () => {
    const unknown = (await signInFrom("local", WRONG, "nobody@example.com")).text;
    setSetting(env.core, "loginRateLimitPerMinute", 100);
    await failFrom("local", 5 + 5);
    const right = await signInFrom("local", PASSWORD);
    expect(right.status).toBe(401);
    expect(right.text).toBe(unknown);
    expect(auditOf(env, "user.login_failed").filter((e) => e.details.duringLock)).toHaveLength(5);
    env.clock.advance(60_000);
    expect((await signInFrom("local", PASSWORD)).status).toBe(200);
  });
});

describe("the per-address limit counts only wrong passwords", () => {
  test("a team behind one address may sign in any number of times", async () => {
    for (let i = 0; i < 30; i++) expect((await signInFrom("local", PASSWORD)).status).toBe(200);
  });

  test("after loginRateLimitPerMinute wrong ones, every sign-in from that address waits for the minute to end", async () => {
    await failFrom("203.0.113.9", 10, "nobody@example.com");
    const held = await signInFrom("203.0.113.9", PASSWORD);
    expect(held.status).toBe(429);
    expect(held.body.detail).toContain("from your address");
    expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await signInFrom("198.51.100.4", PASSWORD)).status).toBe(200);
    env.clock.advance(60_000);
    expect((await signInFrom("203.0.113.9", PASSWORD)).status).toBe(200);
  });
});

describe("the owner is told at the next sign-in", () => {
  test("how many wrong passwords since the previous sign-in, from where and when, once", async () => {
    expect((await signInFrom("local", PASSWORD)).body.failedSignInsSinceLast).toBeNull();
    await failFrom("203.0.113.9", 2);
    env.clock.advance(5000);
    await failFrom("198.51.100.4", 1);
    const lastAt = iso(env.clock.now());
    env.clock.advance(5000);
    const first = await signInFrom("local", PASSWORD);
    expect(first.body.failedSignInsSinceLast).toEqual({ count: 3, addresses: ["198.51.100.4", "203.0.113.9"], lastAt });
    expect((await signInFrom("local", PASSWORD)).body.failedSignInsSinceLast).toBeNull();
  });

  test("the answer's schema documents the field", async () => {
    const doc = (await call(env, "GET", "/api/openapi.json")).body;
    const schema = JSON.stringify(doc.paths["/api/auth/login"].post.responses["200"]);
    expect(schema).toContain("failedSignInsSinceLast");
  });
});
