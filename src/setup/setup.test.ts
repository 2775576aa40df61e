import { rmSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { ROLE_ID } from "../identity/rights";
import { eventsOf } from "../events/testing";
import { STEP_KEYS } from "./steps";

let env: TestEnv;
let owner: Who & { id: string };
let member: Who & { id: string };
beforeEach(async () => {
  env = makeEnv();
  ({ owner, member } = await ownerAndMember(env));
});
afterEach(() => env.close());

const setup = (as: Who = owner) => call(env, "GET", "/api/setup", { as });
const step = (key: string, body: unknown, as: Who = owner) => call(env, "POST", `/api/setup/steps/${key}`, { as, body });
const complete = (as: Who = owner) => call(env, "POST", "/api/setup/complete", { as });
const stepOf = (body: { steps: { key: string }[] }, key: string) => body.steps.find((s) => s.key === key) as Record<string, any>;

/** Every step that can only be skipped today, plus the ones the test does not set up. */
async function skip(...keys: string[]) {
  for (const key of keys) expect((await step(key, { skipped: true })).status).toBe(200);
}

describe("GET /api/setup", () => {
  test("a new instance: every step pending, in order, with what can be skipped and the evidence", async () => {
    const res = await setup();
    expect(res.status).toBe(200);
    expect(res.body.completed).toBe(false);
    expect(res.body.completedAt).toBeNull();
    expect(res.body.currentStep).toBe("welcome");
    expect(res.body.steps.map((s: any) => s.key)).toEqual([...STEP_KEYS]);
    expect(res.body.steps.every((s: any) => s.state === "pending")).toBe(true);
    expect(res.body.steps.filter((s: any) => !s.skippable).map((s: any) => s.key)).toEqual(["welcome", "account", "done"]);
    // Only steps for what exists: no e-mail, single sign-on or two-factor step until those do.
    expect(res.body.steps.map((s: any) => s.key)).toEqual([
      "welcome",
      "account",
      "instance",
      "registration",
      "permissions",
      "backups",
      "first-space",
      "done",
    ]);
    expect(res.body.steps.filter((s: any) => !s.available)).toEqual([]);
    expect(stepOf(res.body, "account").evidence).toEqual({ present: true, detail: expect.stringContaining('"owner"') });
    expect(stepOf(res.body, "instance").evidence.present).toBe(false);
    expect(stepOf(res.body, "first-space").evidence.present).toBe(false);
    // Backups are on from the first start: the step says when.
    expect(stepOf(res.body, "backups").evidence).toEqual({
      present: true,
      detail: expect.stringMatching(/^Backups are scheduled \("0 3 \* \* \*", server time\); the next runs at /),
    });
  });

  test("backups: done while a schedule is set, missing when the schedule is turned off", async () => {
    expect((await step("backups", { skipped: false })).status).toBe(200);
    const policy = await call(env, "GET", "/api/admin/backups", { as: owner });
    const off = await call(env, "PUT", "/api/admin/backups/policy", { as: owner, body: { ...policy.body.policy, schedule: null } });
    expect(off.status).toBe(200);
    expect(stepOf((await setup()).body, "backups").evidence).toEqual({
      present: false,
      detail: expect.stringContaining("No backups are scheduled"),
    });
  });

  test("the evidence follows what the other APIs changed", async () => {
    await call(env, "PUT", "/api/admin/settings", { as: owner, body: { instanceName: "Acme Wiki" } });
    await call(env, "POST", "/api/spaces", { as: owner, body: { key: "DOCS", name: "Docs" } });
    const res = await setup();
    expect(stepOf(res.body, "instance").evidence).toEqual({ present: true, detail: 'The instance is named "Acme Wiki".' });
    expect(stepOf(res.body, "first-space").evidence).toEqual({ present: true, detail: 'A space exists: "Docs" (DOCS).' });
  });

  test("only the owner: anonymous 401, a member or an administrator 403, the owner's token 200", async () => {
    expect((await setup({})).status).toBe(401);
    expect((await setup(member)).status).toBe(403);
    env.core.sqlite.query("UPDATE users SET role_id = ? WHERE id = ?").run(ROLE_ID.admin, member.id);
    const refused = await setup(member);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("permission_required");
    expect(refused.body.permission).toBe("owner");
    expect((await step("welcome", { skipped: false }, member)).status).toBe(403);
    expect((await complete(member)).status).toBe(403);
    expect((await setup({ token: await mintToken(env, owner) })).status).toBe(200);
  });
});

describe("POST /api/setup/steps/{key}", () => {
  test("marks a step done or skipped, changes its mind before completion, resumes at the first pending step", async () => {
    let res = await step("welcome", { skipped: false });
    expect(res.status).toBe(200);
    expect(stepOf(res.body, "welcome").state).toBe("done");
    expect(res.body.currentStep).toBe("account");
    res = await step("backups", { skipped: true });
    expect(stepOf(res.body, "backups").state).toBe("skipped");
    expect(stepOf(res.body, "backups").updatedAt).toBeString();
    // Back in the wizard: the name is set after all.
    await call(env, "PUT", "/api/admin/settings", { as: owner, body: { instanceName: "Acme" } });
    res = await step("instance", { skipped: true });
    res = await step("instance", { skipped: false });
    expect(stepOf(res.body, "instance").state).toBe("done");
  });

  test("steps for features that do not exist are not steps (404)", async () => {
    for (const key of ["email", "two-factor", "sso"]) expect((await step(key, { skipped: true })).status).toBe(404);
  });

  test("registration and permissions record the setting as it is when marked done", async () => {
    await call(env, "PUT", "/api/admin/settings", { as: owner, body: { allowPublicRegistration: true } });
    let res = await step("registration", { skipped: false });
    expect(stepOf(res.body, "registration").choice).toEqual({ allowPublicRegistration: true });
    expect(stepOf(res.body, "registration").evidence.detail).toBe("Recorded: anyone may register.");
    res = await step("permissions", { skipped: false });
    expect(stepOf(res.body, "permissions").choice).toEqual({ allowPublicSpaces: false });
    res = await step("permissions", { skipped: true });
    expect(stepOf(res.body, "permissions").choice).toBeNull();
  });

  test("done without its evidence: 409 naming what is missing", async () => {
    for (const [key, words] of [
      ["instance", "instance name is still the default"],
      ["first-space", "No space exists yet"],
    ] as const) {
      const res = await step(key, { skipped: false });
      expect(res.status, key).toBe(409);
      expect(res.body.code).toBe("conflict");
      expect(res.body.step).toBe(key);
      expect(res.body.detail).toContain(words);
    }
    expect(stepOf((await setup()).body, "instance").state).toBe("pending");
  });

  test.each([
    ["welcome", { skipped: true }, 400, "skipped"],
    ["account", { skipped: true }, 400, "skipped"],
    ["done", { skipped: true }, 400, "skipped"],
    ["welcome", {}, 400, "skipped"],
    ["welcome", { skipped: "true" }, 400, "skipped"],
    ["welcome", { skipped: 1 }, 400, "skipped"],
    ["welcome", { skipped: null }, 400, "skipped"],
    ["welcome", { skipped: false, extra: 1 }, 400, "extra"],
    ["welcome", [], 400, undefined],
    ["nope", { skipped: false }, 404, undefined],
    ["WELCOME", { skipped: false }, 404, undefined],
    ["x".repeat(51), { skipped: false }, 400, "key"],
  ] as const)("bad input: %s %j → %d", async (key, body, status, field) => {
    const res = await step(key, body);
    expect(res.status).toBe(status);
    if (field) expect(res.text).toContain(field);
  });

  test("an unknown step is 404 only for the owner; others are refused first", async () => {
    expect((await step("nope", { skipped: false }, {})).status).toBe(401);
    expect((await step("nope", { skipped: false }, member)).status).toBe(403);
  });

  test("audited when the state changes, not when marked as it already is", async () => {
    await step("welcome", { skipped: false });
    await step("welcome", { skipped: false });
    await step("backups", { skipped: true });
    const events = eventsOf(env, "setup.step_recorded");
    expect(events.map((e: any) => [e.targetId, e.data.state])).toEqual([
      ["welcome", "done"],
      ["backups", "skipped"],
    ]);
    expect(events[0].actorId).toBe(owner.id);
  });

  test("a read-only token may look but not change", async () => {
    const token = await mintToken(env, owner, { name: "ro", readOnly: true });
    expect((await setup({ token })).status).toBe(200);
    expect((await step("welcome", { skipped: false }, { token })).status).toBe(403);
  });
});

describe("POST /api/setup/complete", () => {
  test("409 naming the first step not skipped whose evidence is missing", async () => {
    let res = await complete();
    expect(res.status).toBe(409);
    expect(res.body.step).toBe("instance");
    expect(res.body.detail).toStartWith('Step "instance" is not finished: ');
    await skip("instance");
    res = await complete();
    expect(res.body.step).toBe("registration");
    await step("registration", { skipped: false });
    await skip("permissions", "backups");
    res = await complete();
    expect(res.body.step).toBe("first-space");
    expect((await setup()).body.completed).toBe(false);
  });

  test("completes: pending steps with evidence become done, the completion is audited, then nothing changes (409)", async () => {
    await call(env, "PUT", "/api/admin/settings", { as: owner, body: { instanceName: "Acme" } });
    await call(env, "POST", "/api/spaces", { as: owner, body: { key: "DOCS", name: "Docs" } });
    await step("registration", { skipped: false });
    await step("permissions", { skipped: false });
    await skip("backups");
    const res = await complete();
    expect(res.status).toBe(200);
    expect(res.body.completed).toBe(true);
    expect(res.body.completedAt).toBeString();
    expect(res.body.currentStep).toBeNull();
    expect(res.body.steps.map((s: any) => `${s.key}:${s.state}`)).toEqual([
      "welcome:done",
      "account:done",
      "instance:done",
      "registration:done",
      "permissions:done",
      "backups:skipped",
      "first-space:done",
      "done:done",
    ]);
    const [event] = eventsOf(env, "setup.completed");
    expect(event.actorId).toBe(owner.id);
    expect(event.data).toEqual({ skipped: ["backups"] });

    const again = await complete();
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain("completed");
    const change = await step("backups", { skipped: false });
    expect(change.status).toBe(409);
    expect(change.body.detail).toContain("can no longer be changed");
    expect((await step("nope", { skipped: false })).status).toBe(404);
    expect((await setup()).body.completed).toBe(true);
  });

  test("an owner who skips everything that can be skipped completes at once", async () => {
    await skip("instance", "registration", "permissions", "backups", "first-space");
    expect((await complete()).status).toBe(200);
  });
});

test("an instance upgraded with spaces already counts as set up (migration 0020)", async () => {
  await call(env, "POST", "/api/spaces", { as: owner, body: { key: "OLD", name: "Old" } });
  env.core.sqlite.exec(
    "DROP TABLE setup_steps; DROP TABLE setup_completion; DELETE FROM __cairn_migrations WHERE tag = '0020_setup_wizard'",
  );
  env.core.close();
  const reopened = makeEnv({ dir: env.dir });
  try {
    const res = await call(reopened, "GET", "/api/setup", { as: owner });
    expect(res.body.completed).toBe(true);
    expect((await call(reopened, "POST", "/api/setup/steps/welcome", { as: owner, body: { skipped: false } })).status).toBe(409);
  } finally {
    reopened.close();
    rmSync(env.dir, { recursive: true, force: true });
    env = makeEnv(); // for afterEach to close
  }
});
