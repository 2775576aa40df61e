/**
 * Display names are one line without control characters (platform/text.ts). Every way one is
 * written passes normaliseDisplayName: registering, accepting an invite (registering with its
 * token) and changing one's profile.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, PASSWORD, signUp, type TestEnv } from "../../tests/harness";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const BAD: Array<[string, string]> = [
  ["NUL", "Ada\u0000"],
  ["a tab", "Ada\tLovelace"],
  ["a line feed", "Ada\nLovelace"],
  ["ESC", "\u001B[31mAda"],
  ["DEL", "Ada\u007F"],
  ["a C1 control (NEL)", "Ada\u0085"],
  ["a right-to-left override", "\u202Eada"],
  ["a right-to-left isolate", "Ada\u2067x\u2069"],
  ["a lone surrogate", "Ada \uD83D"],
];

const users = () =>
  (env.core.sqlite.query("SELECT display_name AS name FROM users ORDER BY created_at").all() as Array<{ name: string }>).map((u) => u.name);

describe("display names refuse control characters", () => {
  test.each(BAD)("registering the first account with %s is 400 on displayName", async (_what, displayName) => {
    const res = await call(env, "POST", "/api/auth/register", { body: { email: "ada@example.com", displayName, password: PASSWORD } });
    expect(res).toMatchObject({ status: 400, body: { field: "displayName" } });
    expect(res.body.detail).toContain("must not contain control characters");
    expect(users()).toEqual([]);
  });

  test.each(BAD)("accepting an invite with %s is 400 on displayName; the invite stays usable", async (_what, displayName) => {
    const owner = await signUp(env, "owner@example.com", { displayName: "Owner" });
    const invite = (await call(env, "POST", "/api/admin/invites", { as: owner, body: {} })).body;
    const res = await call(env, "POST", "/api/auth/register", {
      body: { email: "ada@example.com", displayName, password: PASSWORD, inviteToken: invite.token },
    });
    expect(res).toMatchObject({ status: 400, body: { field: "displayName" } });
    await signUp(env, "ada@example.com", { inviteToken: invite.token, displayName: "Ada" });
    expect(users()).toEqual(["Owner", "Ada"]);
  });

  test.each(BAD)("changing one's profile to %s is 400 on displayName; the name stays", async (_what, displayName) => {
    const owner = await signUp(env, "owner@example.com", { displayName: "Owner" });
    const res = await call(env, "PUT", "/api/auth/me", { as: owner, body: { displayName } });
    expect(res).toMatchObject({ status: 400, body: { field: "displayName" } });
    expect(users()).toEqual(["Owner"]);
  });

  test("names in other scripts, with right-to-left marks and emoji, are kept; runs of spaces still collapse", async () => {
    const owner = await signUp(env, "owner@example.com", { displayName: "Owner" });
    for (const [sent, kept] of [
      ["أحمد\u200F", "أحمد\u200F"],
      ["李 小龙 🐉", "李 小龙 🐉"],
      ["  Ada   Lovelace ", "Ada Lovelace"],
    ]) {
      expect((await call(env, "PUT", "/api/auth/me", { as: owner, body: { displayName: sent } })).body.displayName).toBe(kept);
    }
  });
});
