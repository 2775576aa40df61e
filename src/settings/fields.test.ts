/**
 * The admin settings (docs/decisions.md, "Each setting names its right"): e-mail, single sign-on,
 * images and embeds, trusted proxies and the two-factor policy. Each value checked with its range
 * and format; secrets never answered; each setting its own right (refused whole); settings that
 * widen access need re-authentication; trustedProxies believed on the next request.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { BASE, call, makeEnv, ownerAndMember, signUp, type TestEnv, type Who } from "../../tests/harness";
import { auditOf } from "../audit/testing";
import { createSession } from "../auth/sessions";
import { giveRole, makeRole } from "../roles/testing";
import { SETTING_DEFAULTS } from "./service";

let env: TestEnv;
let owner: Who & { id: string };
const start = async () => {
  env = makeEnv();
  ({ owner } = await ownerAndMember(env));
};

/** Each test of the block starts from an instance of its own, with an owner and a member. */
function freshInstanceEach() {
  beforeEach(start);
  afterEach(() => env.close());
}

const put = (body: unknown, as: Who = owner) => call(env, "PUT", "/api/admin/settings", { as, body });
const get = async () => (await call(env, "GET", "/api/admin/settings", { as: owner })).body;

async function holderOf(rights: string[], email: string) {
  const invite = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
  const who = await signUp(env, email, { inviteToken: invite.body.token });
  giveRole(env.core, who.id, makeRole(env.core, { name: `Only ${rights.join(" ")}`, tier: 1, permissions: rights }));
  return who;
}

describe("values", () => {
  freshInstanceEach();

  test("each new setting is stored as sent, normalised", async () => {
    const res = await put({
      baseUrl: "https://wiki.example.com/",
      emailEnabled: true,
      smtpProvider: "smtp",
      smtpHost: "SMTP.Example.com",
      smtpPort: 465,
      smtpTls: "tls",
      smtpUsername: "wiki",
      smtpFromAddress: "Wiki@Example.com",
      microsoftClientId: "00000000-1111-2222-3333-444444444444",
      microsoftTenant: "example.onmicrosoft.com",
      googleClientId: "123-abc.apps.googleusercontent.com",
      requireTotpForAdmins: true,
      restrictImageHosts: true,
      imageAllowlist: ["Images.example.com", "*.cdn.example.org", "images.example.com"],
      embedAllowlist: ["www.youtube.com"],
      trustedProxies: ["10.0.0.0/8", "::1"],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      baseUrl: "https://wiki.example.com",
      smtpHost: "smtp.example.com",
      smtpPort: 465,
      smtpTls: "tls",
      smtpFromAddress: "wiki@example.com",
      imageAllowlist: ["images.example.com", "*.cdn.example.org"],
      trustedProxies: ["10.0.0.0/8", "::1"],
      smtpPasswordSet: false,
    });
    expect(await get()).toEqual(res.body);
    // Optional text goes back to not set with "".
    expect((await put({ baseUrl: "", smtpHost: " " })).body).toMatchObject({ baseUrl: "", smtpHost: "" });
  });
});

describe("values refused", () => {
  // A refused request changes nothing (each case checks the instance's name after it), so the
  // 31 cases share one instance: making one for each was most of their time.
  beforeAll(start);
  afterAll(() => env.close());

  test.each([
    ["baseUrl", "wiki.example.com"],
    ["baseUrl", "ftp://wiki.example.com"],
    ["baseUrl", "https://wiki.example.com/?a=1"],
    ["baseUrl", 5],
    ["emailEnabled", "yes"],
    ["smtpProvider", "sendgrid"],
    ["smtpHost", "smtp example.com"],
    ["smtpHost", "-bad-.example.com"],
    ["smtpPort", 0],
    ["smtpPort", 65_536],
    ["smtpPort", "587"],
    ["smtpTls", true],
    ["smtpUsername", "x".repeat(255)],
    ["smtpPassword", 12],
    ["smtpPassword", "x".repeat(1001)],
    ["smtpFromAddress", "not an address"],
    ["microsoftClientId", "has spaces in it"],
    ["microsoftTenant", ""],
    ["microsoftTenant", "a/b"],
    ["googleClientId", "<script>"],
    ["googleClientSecret", ["x"]],
    ["requireTotpForAdmins", 1],
    ["restrictImageHosts", null],
    ["imageAllowlist", "images.example.com"],
    ["imageAllowlist", ["https://images.example.com"]],
    ["imageAllowlist", Array.from({ length: 201 }, (_, i) => `h${i}.example.com`)],
    ["embedAllowlist", [42]],
    ["embedAllowlist", ["*.*.example.com"]],
    ["trustedProxies", ["10.0.0.0/33"]],
    ["trustedProxies", ["proxy.local"]],
    ["trustedProxies", "10.0.0.1"],
  ])("%s = %j: 400 naming it, nothing changed", async (field, value) => {
    const res = await put({ instanceName: "Changed", [field]: value });
    expect(res.status).toBe(400);
    // The schema names a list's entry (embedAllowlist.0), the service the list.
    expect((res.body.field ?? Object.keys(res.body.errors ?? {})[0]).split(".")[0]).toBe(field);
    expect((await get()).instanceName).toBe(SETTING_DEFAULTS.instanceName);
  });
});

describe("secrets", () => {
  freshInstanceEach();

  test('never answered: GET says whether each is set; the audit log records only that it changed; "" or null clears', async () => {
    const res = await put({ smtpPassword: "hunter2-smtp", microsoftClientSecret: "ms-secret-value", googleClientSecret: "g-secret-value" });
    expect(res.body).toMatchObject({ smtpPasswordSet: true, microsoftClientSecretSet: true, googleClientSecretSet: true });
    const text = JSON.stringify(await get());
    for (const secret of ["hunter2-smtp", "ms-secret-value", "g-secret-value"]) expect(text).not.toContain(secret);
    expect(text).not.toContain('"smtpPassword"');
    expect((await put({ smtpPassword: "", microsoftClientSecret: null })).body).toMatchObject({
      smtpPasswordSet: false,
      microsoftClientSecretSet: false,
      googleClientSecretSet: true,
    });
    const entries = auditOf(env, "settings.updated");
    expect(JSON.stringify(entries)).not.toContain("hunter2");
    expect(entries.map((e) => e.details)).toEqual([
      { key: "smtpPassword", change: "set" },
      { key: "microsoftClientSecret", change: "set" },
      { key: "googleClientSecret", change: "set" },
      { key: "smtpPassword", change: "cleared" },
      { key: "microsoftClientSecret", change: "cleared" },
    ]);
  });
});

describe("each setting its own right", () => {
  freshInstanceEach();

  test(
    "security.manage changes the limits and sign-in policy; settings.manage the rest; a " +
      "request touching one the caller may not change is refused whole",
    async () => {
      const security = await holderOf(["security.manage"], "sec@example.com");
      const settings = await holderOf(["settings.manage"], "set@example.com");
      expect((await put({ lockoutThreshold: 7, requireTotpForAdmins: true }, security)).status).toBe(200);
      const mixed = await put({ lockoutThreshold: 8, instanceName: "Theirs" }, security);
      expect([mixed.status, mixed.body.code, mixed.body.setting, mixed.body.permission]).toEqual([
        403,
        "permission_required",
        "instanceName",
        "settings.manage",
      ]);
      const wrong = await put({ instanceName: "Ours", trustedProxies: [] }, settings);
      expect([wrong.status, wrong.body.setting, wrong.body.permission]).toEqual([403, "trustedProxies", "security.manage"]);
      expect(await get()).toMatchObject({ lockoutThreshold: 7, instanceName: SETTING_DEFAULTS.instanceName, requireTotpForAdmins: true });
      expect((await put({ instanceName: "Ours", smtpPort: 2525 }, settings)).status).toBe(200);
      // Reading every setting needs settings.manage.
      expect((await call(env, "GET", "/api/admin/settings", { as: security })).status).toBe(403);
      expect((await call(env, "GET", "/api/admin/settings", { as: settings })).status).toBe(200);
    },
  );
});

describe("settings that widen access need a recent re-authentication", () => {
  freshInstanceEach();

  let stale: Who;
  beforeEach(() => {
    stale = { cookie: createSession(env.core, owner.id, { ip: "127.0.0.1", userAgent: null, reauthAt: null }).value };
  });

  test.each([
    ["public registration on", { allowPublicRegistration: true }],
    ["public spaces on", { allowPublicSpaces: true }],
    ["two-factor for administrators off", { requireTotpForAdmins: false }],
    ["image restriction off", { restrictImageHosts: false }],
    ["a trusted proxy added", { trustedProxies: ["10.0.0.1"] }],
    ["an image host added", { imageAllowlist: ["img.example.com"] }],
    ["an embed host added", { embedAllowlist: ["www.youtube.com"] }],
  ])("%s: 403 reauth_required from a stale session", async (_name, body) => {
    const res = await put(body, stale);
    expect([res.status, res.body.code]).toEqual([403, "reauth_required"]);
    expect((await put(body)).status).toBe(200);
  });

  test("narrowing needs none: registration off, an entry removed, a secret changed, the name", async () => {
    await put({ trustedProxies: ["10.0.0.1", "10.0.0.2"], embedAllowlist: ["a.example.com"] });
    for (const body of [
      { allowPublicRegistration: false },
      { requireTotpForAdmins: true },
      { trustedProxies: ["10.0.0.1"] },
      { embedAllowlist: [] },
      { smtpPassword: "x" },
      { instanceName: "Stale" },
    ]) {
      expect((await put(body, stale)).status).toBe(200);
    }
  });
});

describe("trusted proxies", () => {
  freshInstanceEach();

  test("trustedProxies: a listed proxy's X-Forwarded-For is believed on the next request", async () => {
    const viaProxy = (name: string) =>
      env.handle(
        new Request(`${BASE}/api/admin/settings`, {
          method: "PUT",
          headers: {
            cookie: `cairn_session=${owner.cookie}`,
            "x-requested-with": "Cairn",
            "content-type": "application/json",
            "x-forwarded-for": "203.0.113.9",
          },
          body: JSON.stringify({ instanceName: name }),
        }),
        "10.1.2.3",
      );
    expect((await viaProxy("Before")).status).toBe(200);
    await put({ trustedProxies: ["10.1.0.0/16"] });
    expect((await viaProxy("After")).status).toBe(200);
    expect(
      auditOf(env, "settings.updated")
        .filter((e) => e.details.key === "instanceName")
        .map((e) => e.ip),
    ).toEqual(["10.1.2.3", "203.0.113.9"]);
  });
});
