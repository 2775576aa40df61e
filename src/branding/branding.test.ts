/**
 * /api/admin/branding end to end on a real app: reading and changing every field (all or
 * nothing, audited), the accent's contrast rule, the right and re-authentication, and what GET
 * /api/instance tells a visitor who has not signed in.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { call, cookieFrom, makeEnv, mintToken, ownerAndMember, PASSWORD, type TestEnv, type Who } from "../../tests/harness";
import { auditOf } from "../audit/testing";
import { BRANDING_DEFAULTS } from "./rules";

let env: TestEnv;
let owner: Who & { id: string };
let member: Who;
const start = async () => {
  env = makeEnv();
  ({ owner, member } = await ownerAndMember(env));
};

/** Each test of the block starts from an instance of its own, with an owner and a member. */
function freshInstanceEach() {
  beforeEach(start);
  afterEach(() => env.close());
}

const get = (as: Who = owner) => call(env, "GET", "/api/admin/branding", { as });
const put = (body: unknown, as: Who = owner) => call(env, "PUT", "/api/admin/branding", { as, body });
const instance = async () => (await call(env, "GET", "/api/instance")).body.branding;

describe("reading and changing", () => {
  freshInstanceEach();

  test("GET answers the defaults: Cairn's accent, the instance name, no images", async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...BRANDING_DEFAULTS, instanceName: "Cairn", logo: null, logoDark: null, favicon: null, updatedAt: null });
    expect(await instance()).toEqual({
      brandName: "Cairn",
      display: "name",
      signInArrangement: "centered",
      themePolicy: "user",
      accentLight: "#2f6f5e",
      accentDark: "#7fc8b0",
      logoUrl: null,
      logoDarkUrl: null,
      faviconUrl: null,
    });
  });

  test("PUT changes what is sent, answers it all, shows in /api/instance at once, and audits the changes in one entry", async () => {
    const res = await put({
      brandName: "  Acme Wiki ",
      display: "logo-and-name",
      signInArrangement: "split",
      themePolicy: "dark",
      accentPolicy: "custom",
      accentName: "Acme blue",
      accentLight: "#1D4ED8",
      accentDark: "#93c5fd",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      brandName: "Acme Wiki",
      display: "logo-and-name",
      signInArrangement: "split",
      themePolicy: "dark",
      accentPolicy: "custom",
      accentName: "Acme blue",
      accentLight: "#1d4ed8",
      accentDark: "#93c5fd",
    });
    expect(res.body.updatedAt).toEqual(expect.any(String));
    expect((await get()).body).toEqual(res.body);
    expect(await instance()).toMatchObject({
      brandName: "Acme Wiki",
      display: "logo-and-name",
      signInArrangement: "split",
      themePolicy: "dark",
      accentLight: "#1d4ed8",
      accentDark: "#93c5fd",
    });
    const [entry, ...more] = auditOf(env, "branding.updated");
    expect(more).toEqual([]);
    expect(entry.actorId).toBe(owner.id);
    expect(entry.details.changes).toEqual({
      brandName: { from: null, to: "Acme Wiki" },
      display: { from: "name", to: "logo-and-name" },
      signInArrangement: { from: "centered", to: "split" },
      themePolicy: { from: "user", to: "dark" },
      accentPolicy: { from: "default", to: "custom" },
      accentName: { from: null, to: "Acme blue" },
      accentLight: { from: "#2f6f5e", to: "#1d4ed8" },
      accentDark: { from: "#7fc8b0", to: "#93c5fd" },
    });
  });

  test("the custom accent applies only while the policy is custom; a blank brand name follows the instance name again", async () => {
    await put({ accentLight: "#1d4ed8", accentDark: "#93c5fd", brandName: "Acme" });
    expect(await instance()).toMatchObject({ brandName: "Acme", accentLight: "#2f6f5e", accentDark: "#7fc8b0" });
    await put({ accentPolicy: "custom" });
    expect(await instance()).toMatchObject({ accentLight: "#1d4ed8", accentDark: "#93c5fd" });
    await put({ brandName: "   " });
    await call(env, "PUT", "/api/admin/settings", { as: owner, body: { instanceName: "Team" } });
    expect((await get()).body).toMatchObject({ brandName: null, instanceName: "Team" });
    expect((await instance()).brandName).toBe("Team");
  });

  test("a value sent as it already is records nothing", async () => {
    expect((await put({ display: "name", accentLight: "#2F6F5E" })).status).toBe(200);
    expect(auditOf(env, "branding.updated")).toEqual([]);
    expect((await get()).body.updatedAt).toBeNull();
  });

  test("reset brings everything back and is audited", async () => {
    await put({ brandName: "Acme", accentPolicy: "custom", accentLight: "#1d4ed8" });
    const res = await call(env, "POST", "/api/admin/branding/reset", { as: owner });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...BRANDING_DEFAULTS, instanceName: "Cairn", logo: null, logoDark: null, favicon: null, updatedAt: null });
    expect((await instance()).brandName).toBe("Cairn");
    expect(auditOf(env, "branding.reset")).toHaveLength(1);
  });
});

describe("every value is checked; one refused value changes nothing", () => {
  // A refused change stores and audits nothing (each case checks both after it), so the 20 cases
  // share one instance: making one for each was most of their time.
  beforeAll(start);
  afterAll(() => env.close());

  test.each([
    ["an unknown display", { display: "banner" }, "display"],
    ["an unknown arrangement", { signInArrangement: "left" }, "signInArrangement"],
    ["an unknown theme policy", { themePolicy: "system" }, "themePolicy"],
    ["an unknown accent policy", { accentPolicy: "brand" }, "accentPolicy"],
    ["a display as a number", { display: 1 }, "display"],
    ["a null display", { display: null }, "display"],
    ["a colour name", { accentLight: "red" }, "accentLight"],
    ["a colour without #", { accentLight: "1d4ed8" }, "accentLight"],
    ["a colour with 5 digits", { accentDark: "#93c5f" }, "accentDark"],
    ["rgb()", { accentDark: "rgb(0,0,0)" }, "accentDark"],
    ["a colour as a number", { accentLight: 0x1d4ed8 }, "accentLight"],
    ["a light accent too pale for AA", { accentLight: "#7fc8b0" }, "accentLight"],
    ["a dark accent too dark for AA", { accentDark: "#2f6f5e" }, "accentDark"],
    ["a brand name too long", { brandName: "x".repeat(61) }, "brandName"],
    ["a brand name with a control character", { brandName: "Acme\u001b[2J" }, "brandName"],
    ["a brand name on two lines", { brandName: "Acme\nWiki" }, "brandName"],
    ["a brand name as a number", { brandName: 7 }, "brandName"],
    ["an accent name too long", { accentName: "x".repeat(41) }, "accentName"],
    ["an unknown field", { accentColour: "#000000" }, "accentColour"],
    ["a good value beside a bad one", { brandName: "Acme", accentLight: "#ffff00" }, "accentLight"],
  ])("%s: 400 naming the field", async (_name, body, field) => {
    const res = await put(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.field ?? Object.keys(res.body.errors ?? {})[0]).toBe(field);
    expect((await get()).body.updatedAt).toBeNull();
    expect(auditOf(env, "branding.updated")).toEqual([]);
  });
});

describe("an empty change, a refused accent", () => {
  freshInstanceEach();

  test("an empty change is 400; a refused accent carries the nearest passing colour", async () => {
    expect((await put({})).status).toBe(400);
    const res = await put({ accentLight: "#ffcc00" });
    expect(res.body.suggestion).toMatch(/^#[0-9a-f]{6}$/);
    expect(res.body.detail).toContain("4.5:1");
    expect((await put({ accentLight: res.body.suggestion })).status).toBe(200);
  });
});

describe("accent-preview", () => {
  freshInstanceEach();

  test("answers each colour's ratios, the verdicts and a suggestion; changes nothing", async () => {
    const res = await call(env, "POST", "/api/admin/branding/accent-preview", { as: owner, body: { light: "#FFCC00", dark: "#7fc8b0" } });
    expect(res.status).toBe(200);
    expect(res.body.light.colour).toBe("#ffcc00");
    expect(res.body.light.passesAA).toBe(false);
    expect(res.body.light.checks.map((c: any) => c.against)).toEqual(["page background", "surface", "button label"]);
    expect(res.body.light.checks[0].ratio).toBeCloseTo(1.47, 1);
    expect(res.body.light.suggestion).not.toBe("#ffcc00");
    expect(res.body.dark).toMatchObject({ colour: "#7fc8b0", passesAA: true, suggestion: "#7fc8b0" });
    const again = await call(env, "POST", "/api/admin/branding/accent-preview", { as: owner, body: { light: res.body.light.suggestion } });
    expect(again.body).toMatchObject({ light: { passesAA: true }, dark: null });
    expect(auditOf(env, "branding.updated")).toEqual([]);
  });

  test.each([
    ["nothing", {}, undefined],
    ["a bad colour", { light: "blue" }, "light"],
    ["a bad dark colour", { light: "#000", dark: "#12" }, "dark"],
    ["a number", { light: 12 }, "light"],
  ])("%s: 400", async (_name, body, field) => {
    const res = await call(env, "POST", "/api/admin/branding/accent-preview", { as: owner, body });
    expect(res.status).toBe(400);
    if (field) expect(res.body.field ?? Object.keys(res.body.errors ?? {})[0]).toBe(field);
  });
});

describe("who may", () => {
  freshInstanceEach();

  test("anonymous 401, a member 403 permission_required, for reading and changing", async () => {
    expect((await call(env, "GET", "/api/admin/branding")).status).toBe(401);
    const asMember = await get(member);
    expect([asMember.status, asMember.body.code, asMember.body.permission]).toEqual([403, "permission_required", "branding.manage"]);
    expect((await put({ display: "logo" }, member)).status).toBe(403);
    expect((await call(env, "POST", "/api/admin/branding/accent-preview", { as: member, body: { light: "#000000" } })).status).toBe(403);
    expect((await call(env, "POST", "/api/admin/branding/reset", { as: member })).status).toBe(403);
  });

  test(
    "changes need a recent re-authentication: a stale session and a token get " + "403 reauth_required; reading and previewing do not",
    async () => {
      const token = await mintToken(env, owner);
      expect((await put({ display: "logo" }, { token })).body.code).toBe("reauth_required");
      expect((await get({ token })).status).toBe(200);
      env.clock.advance(6 * 60 * 1000);
      for (const res of [
        await put({ display: "logo" }),
        await call(env, "POST", "/api/admin/branding/reset", { as: owner }),
        await call(env, "DELETE", "/api/admin/branding/logo", { as: owner }),
      ]) {
        expect([res.status, res.body.code]).toEqual([403, "reauth_required"]);
      }
      expect((await call(env, "POST", "/api/admin/branding/accent-preview", { as: owner, body: { light: "#000000" } })).status).toBe(200);
      const proof = await call(env, "POST", "/api/auth/reauth", { as: owner, body: { password: PASSWORD } });
      expect(proof.status).toBe(204);
      expect((await put({ display: "logo" }, { cookie: cookieFrom(proof) })).status).toBe(200);
    },
  );
});
