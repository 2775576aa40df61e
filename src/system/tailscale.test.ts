/**
 * The real tailscale CLI cannot be installed here: these tests put a small fake `tailscale` on
 * PATH that prints what the real one prints (`tailscale status --json`, the ipnstate.Status
 * shape of the tailscale source), or hangs, or prints garbage, or is missing.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, makeEnv, ownerAndMember, type TestEnv } from "../../tests/harness";
import { interpret } from "./tailscale";

/** `tailscale status --json` of a logged-in, running machine (fields trimmed to a realistic subset). */
export const RUNNING = {
  Version: "1.76.6-t1234abcd-g5678ef01",
  TUN: true,
  BackendState: "Running",
  HaveNodeKey: true,
  AuthURL: "",
  TailscaleIPs: ["100.101.102.103", "fd7a:115c:a1e0::1234:5678"],
  Self: {
    ID: "nTEST1CNTRL",
    PublicKey: "nodekey:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    HostName: "wiki-server",
    DNSName: "wiki-server.tail1234.ts.net.",
    OS: "linux",
    UserID: 1234567890,
    TailscaleIPs: ["100.101.102.103", "fd7a:115c:a1e0::1234:5678"],
    AllowedIPs: ["100.101.102.103/32", "fd7a:115c:a1e0::1234:5678/128"],
    Addrs: ["203.0.113.7:41641"],
    CurAddr: "",
    Relay: "fra",
    RxBytes: 0,
    TxBytes: 0,
    Created: "2026-01-05T09:12:44.123456789Z",
    LastWrite: "0001-01-01T00:00:00Z",
    LastSeen: "0001-01-01T00:00:00Z",
    LastHandshake: "0001-01-01T00:00:00Z",
    Online: true,
    ExitNode: false,
    ExitNodeOption: false,
    Active: false,
    PeerAPIURL: ["http://100.101.102.103:35432"],
    Capabilities: ["https://tailscale.com/cap/file-sharing"],
    InNetworkMap: true,
    InMagicSock: false,
    InEngine: false,
    KeyExpiry: "2027-05-04T09:12:44Z",
  },
  Health: [],
  MagicDNSSuffix: "tail1234.ts.net",
  CurrentTailnet: { Name: "team@example.com", MagicDNSSuffix: "tail1234.ts.net", MagicDNSEnabled: true },
  CertDomains: ["wiki-server.tail1234.ts.net"],
  Peer: {},
  User: { "1234567890": { ID: 1234567890, LoginName: "team@example.com", DisplayName: "Team", ProfilePicURL: "", Roles: [] } },
  ClientVersion: null,
};

let env: TestEnv;
let bin: string;
const savedPath = process.env.PATH;

beforeEach(() => {
  env = makeEnv();
  bin = mkdtempSync(join(tmpdir(), "cairn-fake-tailscale-"));
});
afterEach(() => {
  process.env.PATH = savedPath;
  env.close();
  rmSync(bin, { recursive: true, force: true });
});

/** Puts a `tailscale` script in a folder of its own and makes that folder the whole PATH (plus /bin for sh and sleep). */
function fakeTailscale(script: string) {
  const file = join(bin, "tailscale");
  writeFileSync(file, `#!/bin/sh\n${script}\n`);
  chmodSync(file, 0o755);
  process.env.PATH = `${bin}:/bin:/usr/bin`;
}

const printJson = (value: unknown, exit = 0) => `cat <<'JSON'\n${JSON.stringify(value, null, 2)}\nJSON\nexit ${exit}`;

async function status() {
  const { owner } = await ownerAndMember(env);
  const res = await call(env, "GET", "/api/admin/tailscale", { as: owner });
  expect(res.status).toBe(200);
  return res.body;
}

describe("GET /api/admin/tailscale", () => {
  test("a running, logged-in machine: configured, online, its address, name and key expiry", async () => {
    fakeTailscale(`[ "$1 $2" = "status --json" ] || exit 2\n${printJson(RUNNING)}`);
    expect(await status()).toEqual({
      configured: true,
      online: true,
      address: "100.101.102.103",
      addresses: ["100.101.102.103", "fd7a:115c:a1e0::1234:5678"],
      hostName: "wiki-server",
      dnsName: "wiki-server.tail1234.ts.net",
      tailnet: "team@example.com",
      keyExpiry: "2027-05-04T09:12:44.000Z",
      backendState: "Running",
      version: "1.76.6-t1234abcd-g5678ef01",
      reason: null,
      checkedAt: expect.any(String),
    });
  });

  test("installed but not logged in: configured false, with the reason", async () => {
    fakeTailscale(
      printJson({
        ...RUNNING,
        BackendState: "NeedsLogin",
        AuthURL: "https://login.example.test/a/abc",
        TailscaleIPs: null,
        Self: { ...RUNNING.Self, TailscaleIPs: null, Online: false, KeyExpiry: undefined },
      }),
    );
    expect(await status()).toMatchObject({
      configured: false,
      online: false,
      address: null,
      backendState: "NeedsLogin",
      reason: expect.stringContaining("not logged in"),
    });
  });

  test("stopped: configured (logged in) but offline", async () => {
    fakeTailscale(printJson({ ...RUNNING, BackendState: "Stopped", Self: { ...RUNNING.Self, Online: false } }));
    expect(await status()).toMatchObject({
      configured: true,
      online: false,
      address: "100.101.102.103",
      reason: expect.stringContaining("stopped"),
    });
  });

  test("no CLI on PATH: configured false, not an error", async () => {
    process.env.PATH = bin; // empty folder
    const body = await status();
    expect(body).toMatchObject({ configured: false, online: false, reason: expect.stringContaining("not installed") });
    expect(Date.parse(body.checkedAt)).not.toBeNaN();
  });

  test("the daemon is not running (the CLI fails with a message): configured false with it", async () => {
    fakeTailscale(
      `echo 'failed to connect to local tailscaled; it doesn'"'"'t appear to be running (sudo systemctl start tailscaled ?)' >&2\nexit 1`,
    );
    expect(await status()).toMatchObject({ configured: false, reason: expect.stringContaining("failed to connect to local tailscaled") });
  });

  test("garbage on stdout: configured false", async () => {
    fakeTailscale(`echo 'Welcome to Tailscale! {not json'`);
    expect(await status()).toMatchObject({ configured: false, reason: "tailscale status printed something other than its JSON status." });
  });

  test("a CLI that hangs is stopped after 2 s: configured false, the page still answers", async () => {
    fakeTailscale("sleep 30");
    const started = Date.now();
    expect(await status()).toMatchObject({ configured: false, reason: expect.stringContaining("did not answer within 2 s") });
    expect(Date.now() - started).toBeLessThan(6_000);
  }, 15_000);

  test("the right dashboard.view is needed", async () => {
    const { member } = await ownerAndMember(env);
    expect((await call(env, "GET", "/api/admin/tailscale", { as: member })).status).toBe(403);
    expect((await call(env, "GET", "/api/admin/tailscale")).status).toBe(401);
  });
});

describe("interpret", () => {
  test("JSON of another shape, or an array, is not a status", () => {
    expect(interpret("[]", "", 0, "t").configured).toBe(false);
    expect(interpret('{"hello":1}', "", 0, "t").reason).toBe("tailscale status printed something other than its JSON status.");
  });
});
