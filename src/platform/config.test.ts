import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "./config";

describe("loadConfig", () => {
  test("defaults", () => {
    expect(loadConfig([], {})).toEqual({ dataDir: "./data", host: "127.0.0.1", port: 3000, baseUrl: null, outboundAllow: [] });
  });

  test("flags beat environment variables, which beat defaults", () => {
    const env = { CAIRN_DATA: "/env/data", CAIRN_HOST: "0.0.0.0", CAIRN_PORT: "4000", CAIRN_BASE_URL: "https://wiki.example.com/", CAIRN_OUTBOUND_ALLOW: "10.0.0.0/8, hooks.local" };
    expect(loadConfig([], env)).toEqual({ dataDir: "/env/data", host: "0.0.0.0", port: 4000, baseUrl: "https://wiki.example.com", outboundAllow: ["10.0.0.0/8", "hooks.local"] });
    const flags = loadConfig(["--data", "/flag/data", "--port=5000", "--host", "::1", "--base-url", "http://x.test"], env);
    expect(flags).toMatchObject({ dataDir: "/flag/data", port: 5000, host: "::1", baseUrl: "http://x.test" });
  });

  test.each([
    [["--port", "abc"], /Port/],
    [["--port", "70000"], /Port/],
    [["--base-url", "wiki.example.com"], /Base URL/],
    [["--colour", "red"], /Unknown option --colour/],
    [["--data"], /needs a value/],
  ])("refuses %j clearly", (argv, message) => {
    expect(() => loadConfig(argv, {})).toThrow(ConfigError);
    expect(() => loadConfig(argv, {})).toThrow(message);
  });
});
