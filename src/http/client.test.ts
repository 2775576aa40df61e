import { afterEach, describe, expect, test } from "bun:test";
import { BASE, makeEnv, PASSWORD, signUp, type TestEnv } from "../../tests/harness";
import { auditLog } from "../audit/tables";
import { parseCidr } from "../platform/ip-ranges";
import { identifyClient } from "./client";

const nets = (...cidrs: string[]) => cidrs.map((c) => parseCidr(c)!);
const request = (headers: Record<string, string> = {}) => new Request(`${BASE}/api/health`, { headers });

describe("the client's address and scheme", () => {
  test.each([
    [
      "no proxy is trusted: the socket, whatever the headers say",
      [],
      "203.0.113.7",
      { "x-forwarded-for": "1.2.3.4", "x-forwarded-proto": "https" },
      { ip: "203.0.113.7", https: false },
    ],
    [
      "a trusted proxy: the address it forwards, and its scheme",
      ["127.0.0.1"],
      "127.0.0.1",
      { "x-forwarded-for": "198.51.100.4", "x-forwarded-proto": "https" },
      { ip: "198.51.100.4", https: true },
    ],
    [
      "two trusted hops: the first untrusted address from the right",
      ["127.0.0.1", "10.0.0.0/8"],
      "127.0.0.1",
      { "x-forwarded-for": "198.51.100.4, 10.1.2.3" },
      { ip: "198.51.100.4", https: false },
    ],
    [
      "a spoofed entry on the left is not believed",
      ["127.0.0.1"],
      "127.0.0.1",
      { "x-forwarded-for": "1.1.1.1, 198.51.100.4" },
      { ip: "198.51.100.4", https: false },
    ],
    [
      "an untrusted socket's forwarded headers are ignored",
      ["10.0.0.0/8"],
      "192.0.2.1",
      { "x-forwarded-for": "1.1.1.1", "x-forwarded-proto": "https" },
      { ip: "192.0.2.1", https: false },
    ],
    [
      "junk in the chain stops the walk",
      ["127.0.0.1"],
      "127.0.0.1",
      { "x-forwarded-for": "198.51.100.4, not-an-ip" },
      { ip: "127.0.0.1", https: false },
    ],
    [
      "an IPv4-mapped socket address matches an IPv4 proxy",
      ["127.0.0.1"],
      "::ffff:127.0.0.1",
      { "x-forwarded-for": "2001:db8::5" },
      { ip: "2001:db8::5", https: false },
    ],
    ["a trusted proxy that sends no X-Forwarded-For is the client", ["127.0.0.1"], "127.0.0.1", {}, { ip: "127.0.0.1", https: false }],
  ])("%s", (_name, trusted, socket, headers, expected) => {
    expect(identifyClient(request(headers), socket, nets(...trusted))).toEqual(expected);
  });
});

describe("the socket's address, asked when first needed", () => {
  test("a read's address is asked of the socket once, at its first use, and kept", () => {
    let asked = 0;
    const client = identifyClient(request(), () => (asked++, "203.0.113.7"), []);
    expect(asked).toBe(0);
    expect(client.https).toBe(false);
    expect(client.ip).toBe("203.0.113.7");
    expect(client.ip).toBe("203.0.113.7");
    expect(asked).toBe(1);
  });

  test("a socket with no address is 'local', as before", () => {
    expect(identifyClient(request(), () => null, []).ip).toBe("local");
  });

  test("behind trusted proxies the socket is asked at once: it decides which headers to believe", () => {
    let asked = 0;
    const client = identifyClient(request({ "x-forwarded-for": "198.51.100.4" }), () => (asked++, "127.0.0.1"), nets("127.0.0.1"));
    expect(asked).toBe(1);
    expect(client).toEqual({ ip: "198.51.100.4", https: false });
  });
});

/** The address the audit log recorded for the latest wrong password. */
const lastFailureIp = (env: TestEnv) =>
  env.core.db
    .select()
    .from(auditLog)
    .all()
    .filter((e) => e.action === "user.login_failed")
    .at(-1)?.ip;

describe("behind a trusted proxy", () => {
  let env: TestEnv;
  afterEach(() => env.close());

  const login = (password: string, headers: Record<string, string>) =>
    env.handle(
      new Request(`${BASE}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-requested-with": "Cairn", ...headers },
        body: JSON.stringify({ email: "owner@example.com", password }),
      }),
      "127.0.0.1",
    );

  test(
    "HTTPS at the proxy: the session cookie is Secure and HSTS is sent; " + "sign-in failures are counted for the forwarded address",
    async () => {
      env = makeEnv({ env: { CAIRN_TRUSTED_PROXIES: "127.0.0.1" } });
      await signUp(env, "owner@example.com");
      const ok = await login(PASSWORD, { "x-forwarded-proto": "https", "x-forwarded-for": "198.51.100.4" });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("set-cookie")).toContain("; Secure");
      expect(ok.headers.get("strict-transport-security")).toContain("max-age=");
      expect((await login("wrong password", { "x-forwarded-for": "198.51.100.9" })).status).toBe(401);
      expect(lastFailureIp(env)).toBe("198.51.100.9");
    },
  );

  test("the same headers from an untrusted proxy change nothing", async () => {
    env = makeEnv();
    await signUp(env, "owner@example.com");
    const ok = await login(PASSWORD, { "x-forwarded-proto": "https", "x-forwarded-for": "198.51.100.4" });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("set-cookie")).not.toContain("Secure");
    expect(ok.headers.get("strict-transport-security")).toBeNull();
    await login("wrong password", { "x-forwarded-for": "198.51.100.9" });
    expect(lastFailureIp(env)).toBe("127.0.0.1");
  });
});
