/**
 * GET/PUT /api/admin/settings: every setting, each checked (types strict, ranges, settings that
 * depend on each other), all or nothing, audited; the right settings.manage; tokens as for
 * other admin endpoints (a read-only one only reads).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { auditOf } from "../audit/testing";
import { openExistingDataDir } from "../cli/open-data-dir";
import { silentLogger } from "../platform/log";
import { getSettings, SETTING_DEFAULTS, setSetting, settingsView } from "./service";

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

const put = (body: unknown, as: Who = owner) => call(env, "PUT", "/api/admin/settings", { as, body });

describe("reading and changing", () => {
  freshInstanceEach();

  test("GET answers every setting, defaults included", async () => {
    const res = await call(env, "GET", "/api/admin/settings", { as: owner });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(settingsView(SETTING_DEFAULTS));
  });

  test("PUT changes what is sent, answers them all, and audits each change with who, from and to", async () => {
    const res = await put({
      allowPublicSpaces: true,
      lockoutThreshold: 8,
      instanceName: "  Team wiki  ",
      loginRateLimitPerMinute: SETTING_DEFAULTS.loginRateLimitPerMinute,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      settingsView({ ...SETTING_DEFAULTS, allowPublicSpaces: true, lockoutThreshold: 8, instanceName: "Team wiki" }),
    );
    expect((await call(env, "GET", "/api/admin/settings", { as: owner })).body).toEqual(res.body);
    expect((await call(env, "GET", "/api/instance")).body.name).toBe("Team wiki");
    // A value sent as it already was records nothing.
    expect(auditOf(env, "settings.updated").map((e) => [e.actorId, e.ip, e.details])).toEqual([
      [owner.id, "local", { key: "instanceName", from: "Cairn", to: "Team wiki" }],
      [owner.id, "local", { key: "allowPublicSpaces", from: false, to: true }],
      [owner.id, "local", { key: "lockoutThreshold", from: 5, to: 8 }],
    ]);
  });

  test("a change by another process (a cairn command beside the server) is seen at once", async () => {
    expect(getSettings(env.core).allowPublicRegistration).toBe(false);
    // The server's group of writes after the last answer (event consumers' cursors) commits
    // within its turn; this test opens the other process synchronously, so commit it first.
    env.core.commits.flush();
    const other = openExistingDataDir(env.dir, silentLogger);
    try {
      setSetting(other, "allowPublicRegistration", true);
    } finally {
      other.close();
    }
    // The change stamp is read once per synchronous run (platform/db/change-stamp.ts), and the
    // read above made it fresh for this one: a request from the network always starts in a
    // later run, as this one does after a turn.
    await Bun.sleep(0);
    expect((await call(env, "GET", "/api/admin/settings", { as: owner })).body.allowPublicRegistration).toBe(true);
  });
});

describe("every value is checked; one refused value changes nothing", () => {
  // A refused change stores and audits nothing (each case checks both after it), so the 15 cases
  // share one instance: making one for each was most of their time.
  beforeAll(start);
  afterAll(() => env.close());

  test.each([
    ["a boolean as a string", { allowPublicSpaces: "true" }, "allowPublicSpaces"],
    ["a boolean as a number", { allowPublicRegistration: 1 }, "allowPublicRegistration"],
    ["null", { allowPublicSpaces: null }, "allowPublicSpaces"],
    ["a number as a string", { lockoutThreshold: "5" }, "lockoutThreshold"],
    ["a fraction", { lockoutThreshold: 2.5 }, "lockoutThreshold"],
    ["below the range", { lockoutThreshold: 0 }, "lockoutThreshold"],
    ["above the range", { anonymousRateLimitPerMinute: 100_001 }, "anonymousRateLimitPerMinute"],
    ["one address locking the account for all", { lockoutAccountAddresses: 1 }, "lockoutAccountAddresses"],
    ["a blank name", { instanceName: "   " }, "instanceName"],
    ["a name with a control character", { instanceName: "Wiki\u001b[2J" }, "instanceName"],
    ["a name too long", { instanceName: "x".repeat(101) }, "instanceName"],
    ["a maximum lock below the first", { lockoutMaxSeconds: 30 }, "lockoutMaxSeconds"],
    ["a first lock above the maximum", { lockoutBaseSeconds: 1000 }, "lockoutBaseSeconds"],
    ["an unknown setting", { allowPublicSpace: true }, "allowPublicSpace"],
    ["a good value beside a bad one", { instanceName: "Changed", lockoutThreshold: 0 }, "lockoutThreshold"],
  ])("%s: 400 naming the field", async (_name, body, field) => {
    const res = await put(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.field ?? Object.keys(res.body.errors ?? {})[0]).toBe(field);
    expect((await call(env, "GET", "/api/admin/settings", { as: owner })).body).toEqual(settingsView(SETTING_DEFAULTS));
    expect(auditOf(env, "settings.updated")).toEqual([]);
  });
});

describe("an empty change", () => {
  freshInstanceEach();

  test("an empty change is a 400 listing the settings", async () => {
    const res = await put({});
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain("allowPublicSpaces");
  });
});

describe("who may", () => {
  freshInstanceEach();

  test("the right settings.manage: a member gets 403, nobody signed in 401", async () => {
    const denied = await put({ allowPublicSpaces: true }, member);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: "permission_required", permission: "settings.manage" });
    expect((await call(env, "GET", "/api/admin/settings", { as: member })).status).toBe(403);
    expect((await call(env, "GET", "/api/admin/settings")).status).toBe(401);
    expect((await put({ allowPublicSpaces: true }, {})).status).toBe(401);
  });

  test("a token acts as its account; a read-only token only reads", async () => {
    const full = { token: await mintToken(env, owner) };
    const readOnly = { token: await mintToken(env, owner, { name: "ro", readOnly: true }) };
    expect((await call(env, "GET", "/api/admin/settings", { as: readOnly })).status).toBe(200);
    const refused = await put({ instanceName: "Tokens" }, readOnly);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("read_only_token");
    expect((await put({ instanceName: "Tokens" }, full)).body.instanceName).toBe("Tokens");
    // A token never satisfies re-authentication, which widening access needs.
    expect((await put({ allowPublicSpaces: true }, full)).body.code).toBe("reauth_required");
  });
});

describe("a value edited by hand", () => {
  freshInstanceEach();

  test("a stored value that breaks its rule (the database edited by hand) is not used: the default stands", async () => {
    env.core.sqlite
      .query(
        "INSERT INTO settings (key, value, updated_at) VALUES ('lockoutThreshold', '0', " +
          "'2026-01-01T00:00:00.000Z'), ('allowPublicSpaces', '\"yes\"', '2026-01-01T00:00:00.000Z')",
      )
      .run();
    const res = await call(env, "GET", "/api/admin/settings", { as: owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ lockoutThreshold: SETTING_DEFAULTS.lockoutThreshold, allowPublicSpaces: false });
  });
});
