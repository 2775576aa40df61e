import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "./config";

describe("loadConfig", () => {
  test("defaults", () => {
    expect(loadConfig([], {})).toEqual({
      dataDir: "./data",
      host: "127.0.0.1",
      port: 3000,
      baseUrl: null,
      outboundAllow: [],
      trustedProxies: [],
      chromium: "/usr/bin/chromium",
    });
  });

  test("trusted proxies: addresses and CIDRs, from the flag or CAIRN_TRUSTED_PROXIES", () => {
    const fromEnv = loadConfig([], { CAIRN_TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8,::1" });
    expect(fromEnv.trustedProxies.map((n) => n.prefix)).toEqual([32, 8, 128]);
    expect(loadConfig(["--trusted-proxies", "192.168.1.0/24"], {}).trustedProxies).toHaveLength(1);
  });

  test("flags beat environment variables, which beat defaults", () => {
    const env = {
      CAIRN_DATA: "/env/data",
      CAIRN_HOST: "0.0.0.0",
      CAIRN_PORT: "4000",
      CAIRN_BASE_URL: "https://wiki.example.com/",
      CAIRN_OUTBOUND_ALLOW: "10.0.0.0/8, hooks.local",
    };
    expect(loadConfig([], env)).toEqual({
      dataDir: "/env/data",
      host: "0.0.0.0",
      port: 4000,
      baseUrl: "https://wiki.example.com",
      outboundAllow: ["10.0.0.0/8", "hooks.local"],
      trustedProxies: [],
      chromium: "/usr/bin/chromium",
    });
    const flags = loadConfig(["--data", "/flag/data", "--port=5000", "--host", "::1", "--base-url", "http://x.test"], env);
    expect(flags).toMatchObject({ dataDir: "/flag/data", port: 5000, host: "::1", baseUrl: "http://x.test" });
  });

  test("CAIRN_SEARCH_RECENT_PAGES: a whole number of pages, or the default", () => {
    expect(loadConfig([], { CAIRN_SEARCH_RECENT_PAGES: "2500" }).searchRecentPages).toBe(2500);
    expect(loadConfig([], { CAIRN_SEARCH_RECENT_PAGES: " " }).searchRecentPages).toBeUndefined();
    for (const bad of ["0", "-3", "1.5", "many", "10000001"])
      expect(() => loadConfig([], { CAIRN_SEARCH_RECENT_PAGES: bad })).toThrow(/CAIRN_SEARCH_RECENT_PAGES must be a whole number/);
  });

  test.each([
    [["--port", "abc"], /Port/],
    [["--port", "70000"], /Port/],
    [["--base-url", "wiki.example.com"], /Base URL/],
    [["--colour", "red"], /Unknown option --colour/],
    [["--data"], /needs a value/],
    [["--port", "--data", "/srv"], /Option --port needs a value/],
    [["--trusted-proxies", "proxy.local"], /Trusted proxies must be IP addresses or CIDRs/],
    [["--trusted-proxies", "10.0.0.0/99"], /not "10.0.0.0\/99"/],
  ])("refuses %j clearly", (argv, message) => {
    expect(() => loadConfig(argv, {})).toThrow(ConfigError);
    expect(() => loadConfig(argv, {})).toThrow(message);
  });
});
