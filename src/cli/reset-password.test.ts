/**
 * `cairn reset-password`, run as a person runs it (the real CLI, the password piped in) on a
 * data directory whose server is stopped, and on one whose server is running; then signing in
 * over HTTP with the new password.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { BASE, call, cookieFrom, makeEnv, PASSWORD, signUp, type Answer, type TestEnv } from "../../tests/harness";
import { ROOT, startServerProcess } from "../../tests/server-process";
import { auditOf } from "../audit/testing";
import { signInFailures } from "../auth/tables";
import { users } from "../users/tables";

const NEW_PASSWORD = "a brand new passphrase";
const WRONG = "not the password at all";

let root: string;
beforeAll(() => (root = mkdtempSync(join(tmpdir(), "cairn-reset-"))));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, `data-${++n}`);

/** The CLI from source, with `stdin` piped in. */
async function resetPassword(args: string[], stdin: string) {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.CAIRN_DATA;
  const proc = Bun.spawn(["bun", "src/main.ts", "reset-password", ...args], {
    cwd: ROOT,
    stdin: new Blob([stdin]),
    stdout: "pipe",
    stderr: "pipe",
    env,
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

function expectOneLine(text: string, pattern: RegExp) {
  const lines = text.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
}

/** A data directory with the owner signed up, its server stopped (the env closed by the caller). */
async function withOwner(dir: string): Promise<{ env: TestEnv; session: { cookie: string } }> {
  const env = makeEnv({ dir });
  const owner = await signUp(env, "owner@example.com");
  return { env, session: { cookie: owner.cookie } };
}

async function signInFrom(env: TestEnv, ip: string, password: string): Promise<Answer> {
  const headers = { "content-type": "application/json", "x-requested-with": "Cairn" };
  const res = await env.handle(
    new Request(`${BASE}/api/auth/login`, { method: "POST", headers, body: JSON.stringify({ email: "owner@example.com", password }) }),
    ip,
  );
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null };
}

describe("the server stopped", () => {
  test("sets the password, ends every session, clears the lockout everywhere, and is audited", async () => {
    const dir = freshDir();
    const { env, session } = await withOwner(dir);
    const second = { cookie: cookieFrom(await signInFrom(env, "198.51.100.1", PASSWORD)) };
    // An address lock, then (wrong passwords from three addresses) the account-wide one.
    for (const ip of ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) for (let i = 0; i < 7; i++) await signInFrom(env, ip, WRONG);
    expect((await signInFrom(env, "192.0.2.50", PASSWORD)).body.lockScope).toBe("account");
    env.close();

    const run = await resetPassword(["owner@example.com", "--data", dir], `${NEW_PASSWORD}\n`);
    expect(run).toMatchObject({ code: 0, err: "" });
    expectOneLine(
      run.out,
      /^Password reset for owner@example\.com: 2 sessions signed out, sign-in lockout cleared; API tokens unchanged\.$/,
    );

    const after = makeEnv({ dir });
    try {
      const owner = after.core.db.select().from(users).where(eq(users.email, "owner@example.com")).get()!;
      expect(owner).toMatchObject({ failedLogins: 0, lockouts: 0, lockedUntil: null });
      expect(after.core.db.select().from(signInFailures).all()).toEqual([]);
      for (const old of [session, second]) expect((await call(after, "GET", "/api/auth/me", { as: old })).status).toBe(401);
      expect((await signInFrom(after, "192.0.2.50", PASSWORD)).status).toBe(401);
      const signedIn = await signInFrom(after, "203.0.113.1", NEW_PASSWORD);
      expect(signedIn.status).toBe(200);
      // The owner is still told about the wrong passwords: 21 before the reset, the old one after.
      expect(signedIn.body.failedSignInsSinceLast.count).toBe(22);
      expect(auditOf(after, "user.password_reset")).toMatchObject([
        { targetId: owner.id, actorId: null, ip: null, details: { via: "cli", sessionsSignedOut: 2, lockoutCleared: true } },
      ]);
      const verified = await call(after, "POST", "/api/admin/audit/verify", { as: { cookie: cookieFrom(signedIn) } });
      expect(verified.body).toMatchObject({ ok: true, problem: null });
    } finally {
      after.close();
    }
  });

  test.each([
    ["an empty line", "\n", /^cairn: The new password is empty\. Nothing was changed\.$/],
    ["nothing at all", "", /^cairn: The new password is empty\./],
    ["a short one", "short\n", /^cairn: The new password must be at least 8 characters\. Nothing was changed\.$/],
    ["a common one", "password123\n", /^cairn: The new password is one of the most commonly used passwords; choose another\./],
    ["two lines", `${NEW_PASSWORD}\nmore\n`, /^cairn: Give the new password on one line of standard input\./],
  ])("refuses %s: one line, exit 2, the old password still works", async (_name, stdin, message) => {
    const dir = freshDir();
    const { env, session } = await withOwner(dir);
    env.close();
    const run = await resetPassword(["owner@example.com", "--data", dir], stdin);
    expect(run.code).toBe(2);
    expect(run.out).toBe("");
    expectOneLine(run.err, message);
    const after = makeEnv({ dir });
    try {
      expect((await call(after, "GET", "/api/auth/me", { as: session })).status).toBe(200);
      expect((await signInFrom(after, "local", PASSWORD)).status).toBe(200);
    } finally {
      after.close();
    }
  });

  test("an unknown e-mail: one line, exit 2", async () => {
    const dir = freshDir();
    (await withOwner(dir)).env.close();
    const run = await resetPassword(["nobody@example.com", "--data", dir], `${NEW_PASSWORD}\n`);
    expect(run).toMatchObject({ code: 2, out: "" });
    expectOneLine(run.err, /^cairn: No account has the e-mail address nobody@example\.com in .*\. Nothing was changed\.$/);
  });

  test("a data directory that does not exist: one line, exit 2, and none is created", async () => {
    const dir = join(root, "never-made");
    const run = await resetPassword(["owner@example.com", "--data", dir], `${NEW_PASSWORD}\n`);
    expect(run).toMatchObject({ code: 2, out: "" });
    expectOneLine(run.err, /^cairn: There is no data directory at .*never-made; nothing was created\./);
    expect(existsSync(dir)).toBe(false);
  });

  test("cairn help lists the command", () => {
    const help = Bun.spawnSync(["bun", "src/main.ts", "help"], { cwd: ROOT });
    expect(help.stdout.toString()).toContain("cairn reset-password EMAIL [--data DIR]");
  });
});

describe("the server running", () => {
  test("the running server signs the old session out and takes the new password at once", async () => {
    const dir = freshDir();
    (await withOwner(dir)).env.close();
    const server = await startServerProcess(dir);
    try {
      const post = (path: string, body: unknown, cookie?: string) =>
        fetch(server.url + path, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-requested-with": "Cairn",
            ...(cookie ? { cookie: `cairn_session=${cookie}` } : {}),
          },
          body: JSON.stringify(body),
        });
      const signIn = (password: string) => post("/api/auth/login", { email: "owner@example.com", password });
      const me = (cookie: string) => fetch(`${server.url}/api/auth/me`, { headers: { cookie: `cairn_session=${cookie}` } });

      const before = /cairn_session=([^;]*)/.exec((await signIn(PASSWORD)).headers.get("set-cookie")!)![1];
      expect((await me(before)).status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await signIn(WRONG)).status).toBe(401);
      expect((await signIn(PASSWORD)).status).toBe(429);

      const run = await resetPassword(["owner@example.com", "--data", dir], `${NEW_PASSWORD}\n`);
      expect(run.err).toBe("");
      expect(run.code).toBe(0);
      expectOneLine(
        run.out,
        /^Password reset for owner@example\.com: 2 sessions signed out, sign-in lockout cleared; API tokens unchanged\.$/,
      );

      expect((await me(before)).status).toBe(401);
      expect((await signIn(PASSWORD)).status).toBe(401);
      const after = await signIn(NEW_PASSWORD);
      expect(after.status).toBe(200);
      const cookie = /cairn_session=([^;]*)/.exec(after.headers.get("set-cookie")!)![1];
      expect((await me(cookie)).status).toBe(200);
      // The entry written by the other process continues the chain the server writes to.
      const verified = await (await post("/api/admin/audit/verify", {}, cookie)).json();
      expect(verified).toMatchObject({ ok: true, problem: null });
    } finally {
      server.proc.kill("SIGTERM");
      await server.proc.exited;
    }
  });
});
