import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, ownerAndMember, signUp, type TestEnv, type Who } from "../../tests/harness";
import { auditOf } from "../audit/testing";
import { callFrom } from "./testing";

const ADMIN_IP = "192.0.2.10";
const BLOCKS = "/api/admin/security/blocks";

let env: TestEnv;
let owner: Who & { id: string };
let member: Who & { id: string };

const start = async () => {
  env = makeEnv();
  ({ owner, member } = await ownerAndMember(env));
};

/** Each test of the block starts from an instance of its own, with an owner and a member. */
function freshInstanceEach() {
  beforeEach(start);
  afterEach(() => env.close());
}

const block = (body: Record<string, unknown>, from = ADMIN_IP) => callFrom(env, from, "POST", BLOCKS, { as: owner, body });

describe("adding a block refuses", () => {
  // A refused block adds nothing (each case checks the list is still empty after it), so the 19
  // cases share one instance: making one for each was most of their time.
  beforeAll(start);
  afterAll(() => env.close());

  test.each([
    ["cidr", { cidr: "nope", reason: "x" }],
    ["cidr", { cidr: "10.0.0.0/33", reason: "x" }],
    ["cidr", { cidr: "10.0.0.0/8/1", reason: "x" }],
    ["cidr", { cidr: "example.com", reason: "x" }],
    ["cidr", { cidr: "0.0.0.0/0", reason: "everyone" }],
    ["cidr", { cidr: "::/0", reason: "everyone" }],
    ["cidr", { cidr: "10.0.0.0/7", reason: "too wide" }],
    ["cidr", { cidr: "2001::/15", reason: "too wide" }],
    ["cidr", { cidr: "", reason: "x" }],
    ["cidr", { reason: "x" }],
    ["reason", { cidr: "198.51.100.0/24" }],
    ["reason", { cidr: "198.51.100.0/24", reason: "" }],
    ["reason", { cidr: "198.51.100.0/24", reason: "   " }],
    ["reason", { cidr: "198.51.100.0/24", reason: "x".repeat(501) }],
    ["expiresInHours", { cidr: "198.51.100.0/24", reason: "x", expiresInHours: 0 }],
    ["expiresInHours", { cidr: "198.51.100.0/24", reason: "x", expiresInHours: 1.5 }],
    ["expiresInHours", { cidr: "198.51.100.0/24", reason: "x", expiresInHours: "3" }],
    ["expiresInHours", { cidr: "198.51.100.0/24", reason: "x", expiresInHours: 24 * 365 + 1 }],
    ["surprise", { cidr: "198.51.100.0/24", reason: "x", surprise: true }],
  ])("a bad %s is a 400 naming it: %j", async (field, body) => {
    const res = await block(body);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(field);
    expect((await call(env, "GET", BLOCKS, { as: owner })).body.blocks).toEqual([]);
  });
});

describe("adding a block", () => {
  freshInstanceEach();

  test("a range is normalised and answered with who made it; the list shows the caller's address", async () => {
    const res = await block({ cidr: "198.51.100.77/24", reason: "scraper", expiresInHours: 2 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      cidr: "198.51.100.0/24",
      reason: "scraper",
      createdById: owner.id,
      createdByName: "owner",
      active: true,
    });
    expect(Date.parse(res.body.expiresAt) - env.clock.now()).toBe(2 * 3_600_000);
    const list = await callFrom(env, ADMIN_IP, "GET", BLOCKS, { as: owner });
    expect(list.body).toMatchObject({ yourAddress: ADMIN_IP, blocks: [{ id: res.body.id, cidr: "198.51.100.0/24" }] });
    expect(auditOf(env, "security.block_added")).toHaveLength(1);
  });

  test.each([
    ["the address itself", "192.0.2.10"],
    ["its /24", "192.0.2.0/24"],
    ["its /8", "192.0.0.0/8"],
  ])("covering the caller's own address (%s) is refused with a 409 that says so", async (_, cidr) => {
    const res = await block({ cidr, reason: "oops" });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "conflict", field: "cidr", yourAddress: ADMIN_IP });
    expect(res.body.detail).toContain("your own address");
  });

  test("an IPv4-mapped caller is protected by IPv4 ranges too, and IPv6 callers by IPv6 ranges", async () => {
    expect((await block({ cidr: "192.0.2.0/24", reason: "x" }, "::ffff:192.0.2.10")).status).toBe(409);
    expect((await block({ cidr: "2001:db8:1::/48", reason: "x" }, "2001:db8:1::5")).status).toBe(409);
    expect((await block({ cidr: "2001:db8:2::/48", reason: "x" }, "2001:db8:1::5")).status).toBe(201);
  });

  test("only security.manage may list, add or remove blocks", async () => {
    expect((await call(env, "GET", BLOCKS)).status).toBe(401);
    expect((await call(env, "GET", BLOCKS, { as: member })).status).toBe(403);
    expect(
      (await callFrom(env, ADMIN_IP, "POST", BLOCKS, { as: member, body: { cidr: "198.51.100.0/24", reason: "x" } })).body,
    ).toMatchObject({ status: 403, code: "permission_required" });
    const made = await block({ cidr: "198.51.100.0/24", reason: "x" });
    expect((await call(env, "DELETE", `${BLOCKS}/${made.body.id}`, { as: member })).status).toBe(403);
  });
});

describe("a blocked address", () => {
  freshInstanceEach();

  const BAD = "198.51.100.23";

  test("gets 403 address_blocked before anything else: anonymous, signed in, with a token, a UI page, a body too large", async () => {
    const token = await mintToken(env, owner);
    expect((await block({ cidr: "198.51.100.0/24", reason: "attack" })).status).toBe(201);
    const expectBlocked = (res: { status: number; body: any }) => expect(res.body).toMatchObject({ status: 403, code: "address_blocked" });
    expectBlocked(await callFrom(env, BAD, "GET", "/api/health"));
    expectBlocked(await callFrom(env, BAD, "GET", "/api/spaces", { as: owner }));
    expectBlocked(await callFrom(env, BAD, "GET", "/api/spaces", { as: { token } }));
    expectBlocked(await callFrom(env, BAD, "GET", "/api/spaces", { as: { token: "cct_wrong" } }));
    expectBlocked(await callFrom(env, BAD, "GET", "/"));
    expectBlocked(await callFrom(env, BAD, "GET", "/login"));
    expectBlocked(await callFrom(env, BAD, "POST", "/api/auth/login", { body: "{not json" }));
    expectBlocked(
      await callFrom(env, BAD, "POST", "/api/pages", {
        as: owner,
        body: "x".repeat(10),
        headers: { "content-length": String(900 * 1024 * 1024) },
      }),
    );
    // The mapped IPv6 form of the same address, and the answer carries the security headers.
    const mapped = await callFrom(env, `::ffff:${BAD}`, "GET", "/api/health");
    expectBlocked(mapped);
    expect(mapped.headers.get("x-content-type-options")).toBe("nosniff");
    // Everyone else is served.
    expect((await callFrom(env, "198.51.101.1", "GET", "/api/health")).status).toBe(200);
    expect((await call(env, "GET", "/api/health")).status).toBe(200);
  });

  test("is served again once the block expires or is removed", async () => {
    const timed = await block({ cidr: "198.51.100.0/24", reason: "an hour", expiresInHours: 1 });
    const lasting = await block({ cidr: "2001:db8::/32", reason: "until removed" });
    expect((await callFrom(env, BAD, "GET", "/api/health")).status).toBe(403);
    expect((await callFrom(env, "2001:db8::99", "GET", "/api/health")).status).toBe(403);
    env.clock.advance(3_600_000 + 1000);
    expect((await callFrom(env, BAD, "GET", "/api/health")).status).toBe(200);
    expect(
      (await callFrom(env, ADMIN_IP, "GET", BLOCKS, { as: owner })).body.blocks.find((b: { id: string }) => b.id === timed.body.id).active,
    ).toBe(false);
    expect((await callFrom(env, ADMIN_IP, "DELETE", `${BLOCKS}/${lasting.body.id}`, { as: owner })).status).toBe(204);
    expect((await callFrom(env, "2001:db8::99", "GET", "/api/health")).status).toBe(200);
    expect(auditOf(env, "security.block_removed")).toHaveLength(1);
    expect((await callFrom(env, ADMIN_IP, "DELETE", `${BLOCKS}/${lasting.body.id}`, { as: owner })).status).toBe(404);
  });
});

describe("behind a trusted proxy", () => {
  freshInstanceEach();

  test("the forwarded client address is the one blocked and the one protected", async () => {
    const proxied = makeEnv({ env: { CAIRN_TRUSTED_PROXIES: "10.0.0.1" } });
    try {
      const admin = await signUp(proxied, "owner@example.com");
      const via = (client: string) => ({ "x-forwarded-for": client });
      // The proxy's own address is not the caller's: blocking the client's range is refused…
      const own = await callFrom(proxied, "10.0.0.1", "POST", BLOCKS, {
        as: admin,
        headers: via("203.0.113.5"),
        body: { cidr: "203.0.113.0/24", reason: "x" },
      });
      expect(own.status).toBe(409);
      // …and blocking another client's range blocks that client only, though every request comes from the proxy.
      expect(
        (
          await callFrom(proxied, "10.0.0.1", "POST", BLOCKS, {
            as: admin,
            headers: via("203.0.113.5"),
            body: { cidr: "198.51.100.0/24", reason: "x" },
          })
        ).status,
      ).toBe(201);
      expect((await callFrom(proxied, "10.0.0.1", "GET", "/api/health", { headers: via("198.51.100.4") })).status).toBe(403);
      expect((await callFrom(proxied, "10.0.0.1", "GET", "/api/health", { headers: via("203.0.113.5") })).status).toBe(200);
      // An untrusted sender cannot claim a clean address to get round a block.
      expect((await callFrom(proxied, "198.51.100.4", "GET", "/api/health", { headers: via("203.0.113.5") })).status).toBe(403);
    } finally {
      proxied.close();
    }
  });
});
