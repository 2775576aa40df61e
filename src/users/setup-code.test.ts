/**
 * The setup code (docs/decisions.md, "The setup code"): a first run reachable from other machines
 * does not let the first visitor become the owner. In-process with the listening host configured,
 * then the real server on a real port (0.0.0.0) with `cairn setup-code` beside it.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, makeEnv, PASSWORD, signUp, type TestEnv } from "../../tests/harness";
import { ROOT, startServerProcess } from "../../tests/server-process";
import { listensBeyondLoopback, readSetupCode } from "./setup-code";

// Servers and the CLI start from source: seconds each, many more on a loaded machine.
setDefaultTimeout(120_000);

const owner = (extra: Record<string, unknown> = {}) => ({ email: "owner@example.com", displayName: "Ada", password: PASSWORD, ...extra });

describe("the listening address", () => {
  test.each([
    ["127.0.0.1", false],
    ["127.0.0.2", false],
    ["::1", false],
    ["[::1]", false],
    ["localhost", false],
    ["LOCALHOST", false],
    ["0.0.0.0", true],
    ["::", true],
    ["192.168.1.20", true],
    ["10.0.0.5", true],
    ["wiki.example.com", true],
  ])("%s reaches beyond this computer: %p", (host, beyond) => {
    expect(listensBeyondLoopback(host)).toBe(beyond);
  });
});

describe("in-process, listening on 0.0.0.0", () => {
  let env: TestEnv;
  beforeAll(() => (env = makeEnv({ env: { CAIRN_HOST: "0.0.0.0" } })));
  afterAll(() => env.close());

  test("the owner needs the code: missing 400, wrong 403, both naming setupCode; right: the owner, and the code is gone", async () => {
    expect((await call(env, "GET", "/api/instance")).body).toMatchObject({ needsOwner: true, setupCodeRequired: true });

    const missing = await call(env, "POST", "/api/auth/register", { body: owner() });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: "validation_failed", field: "setupCode" });
    expect(missing.body.detail).toMatch(
      new RegExp(
        "^The setup code is required: this server can be reached from other machines.*printed it in its log.*" +
          String.raw`the command "cairn setup-code --data DIR" on the server prints it again\.$`,
      ),
    );
    expect(missing.body.errors.setupCode).toHaveLength(1);

    const code = readSetupCode(env.dir)!;
    expect(code).toMatch(/^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
    const wrong = await call(env, "POST", "/api/auth/register", { body: owner({ setupCode: "ABCD-EFGH-JKMN" }) });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ code: "forbidden", field: "setupCode" });
    expect(wrong.body.detail).toMatch(/^That is not the setup code\. Cairn printed it in its log/);
    // Nothing was created by either.
    expect((await call(env, "GET", "/api/instance")).body.needsOwner).toBe(true);

    // As typed off a terminal: lower case, spaces instead of dashes.
    const typed = code.toLowerCase().replace(/-/g, " ");
    const made = await call(env, "POST", "/api/auth/register", { body: owner({ setupCode: typed }) });
    expect(made.status).toBe(201);
    expect(made.body.role).toBe(2);
    expect(existsSync(join(env.dir, "setup-code"))).toBe(false);
    expect((await call(env, "GET", "/api/instance")).body).toMatchObject({ needsOwner: false, setupCodeRequired: false });

    // The old code opens nothing now: a second account needs an invite as always, code or not.
    const again = await call(env, "POST", "/api/auth/register", { body: { ...owner({ setupCode: code }), email: "mallory@example.com" } });
    expect(again.status).toBe(400);
    expect(again.body.field).toBe("inviteToken");
  });
});

describe("in-process, on loopback", () => {
  test("no code is asked and none is made", async () => {
    const env = makeEnv();
    try {
      expect((await call(env, "GET", "/api/instance")).body).toMatchObject({ needsOwner: true, setupCodeRequired: false });
      await signUp(env, "owner@example.com");
      expect(existsSync(join(env.dir, "setup-code"))).toBe(false);
    } finally {
      env.close();
    }
  });
});

describe("the real server on 0.0.0.0, and cairn setup-code", () => {
  let root: string;
  beforeAll(() => (root = mkdtempSync(join(tmpdir(), "cairn-setup-code-"))));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  async function setupCode(dir: string) {
    const proc = Bun.spawn(["bun", "src/main.ts", "setup-code", "--data", dir], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, out: out.trim(), err: err.trim() };
  }

  test("prints the code at start; the command prints the same; the owner form's endpoint wants it over the port", async () => {
    const dir = join(root, "data");
    const server = await startServerProcess(dir, ["--host", "0.0.0.0"]);
    let code = "";
    try {
      const post = (body: unknown) =>
        fetch(`http://127.0.0.1:${server.port}/api/auth/register`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
          body: JSON.stringify(body),
        });
      const printed = await setupCode(dir);
      expect(printed.code).toBe(0);
      code = /^Setup code: ([A-Z0-9-]{14}) \(/.exec(printed.out)![1];

      const missing = await post(owner());
      expect(missing.status).toBe(400);
      expect(((await missing.json()) as { field: string }).field).toBe("setupCode");
      expect((await post(owner({ setupCode: "2222-3333-4444" }))).status).toBe(403);
      expect((await post(owner({ setupCode: code }))).status).toBe(201);

      const after = await setupCode(dir);
      expect(after).toMatchObject({ code: 2, out: "" });
      expect(after.err).toBe(
        "cairn: The owner account exists already (owner@example.com): no setup code is needed any " +
          "more. Sign in, or run `cairn reset-password EMAIL` if the password is lost.",
      );
    } finally {
      server.proc.kill("SIGTERM");
      await server.proc.exited;
    }
    // The line in the log at start named the same code.
    const log = await server.output();
    const line = log.split("\n").find((l) => l.includes("first run: the owner account needs this setup code"));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ host: "0.0.0.0", again: `cairn setup-code --data ${dir}` });
    expect(JSON.parse(line!).setupCode).toBe(code);
  });
});
