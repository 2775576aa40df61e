/**
 * `cairn users`, run as a person runs it (the real CLI) on a data directory whose server is
 * stopped, and on one whose server is running: the owner finds the address they signed up with.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, makeEnv, ownerAndMember, PASSWORD, signUp } from "../../tests/harness";
import { ROOT, startServerProcess } from "../../tests/server-process";

// Each test starts the CLI (and one a server) from source: seconds each on a busy machine.
setDefaultTimeout(120_000);
let root: string;
beforeAll(() => (root = mkdtempSync(join(tmpdir(), "cairn-users-"))));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, `data-${++n}`);

async function users(args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.CAIRN_DATA;
  const proc = Bun.spawn(["bun", "src/main.ts", "users", ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe", env });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

const cells = (line: string) => line.split(/ {2,}/);

describe("the server stopped", () => {
  test("lists every account: e-mail, name, role, status, last seen; owner first", async () => {
    const dir = freshDir();
    const env = makeEnv({ dir });
    const { owner } = await ownerAndMember(env);
    const invite = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
    const third = await signUp(env, "grace@example.com", { inviteToken: invite.body.token, displayName: "Grace Hopper" });
    expect((await call(env, "PUT", `/api/admin/users/${third.id}/status`, { as: owner, body: { status: 1 } })).status).toBe(200);
    env.close();

    const run = await users(["--data", dir]);
    expect(run).toMatchObject({ code: 0, err: "" });
    const lines = run.out.trim().split("\n");
    expect(cells(lines[0])).toEqual(["EMAIL", "NAME", "ROLE", "STATUS", "LAST SEEN"]);
    expect(lines).toHaveLength(4);
    const [first, ...rest] = lines.slice(1).map(cells);
    expect(first.slice(0, 4)).toEqual(["owner@example.com", "owner", "Owner", "active"]);
    // The session signUp opened was used: seen today, to the minute, in UTC.
    expect(first[4]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    const byEmail = Object.fromEntries(rest.map((c) => [c[0], c]));
    expect(byEmail["member@example.com"].slice(0, 4)).toEqual(["member@example.com", "member", "User", "active"]);
    // Suspending ended its sessions: nothing of it is stored any more.
    expect(byEmail["grace@example.com"]).toEqual(["grace@example.com", "Grace Hopper", "User", "suspended", "never"]);
  });

  test("a data directory with no account yet says so", async () => {
    const dir = freshDir();
    makeEnv({ dir }).close();
    const run = await users(["--data", dir]);
    expect(run).toMatchObject({ code: 0, err: "" });
    expect(run.out.trim()).toMatch(/^No accounts yet in .*: the first person to open the wiki creates the owner's\.$/);
  });

  test("a folder that is not a data directory, or a stray word: one line, exit 2, nothing created", async () => {
    const dir = join(root, "never-made");
    const missing = await users(["--data", dir]);
    expect(missing).toMatchObject({ code: 2, out: "" });
    expect(missing.err.trim()).toMatch(/^cairn: There is no data directory at .*never-made; nothing was created\./);
    expect(existsSync(dir)).toBe(false);
    const empty = join(root, "empty");
    mkdirSync(empty);
    expect((await users(["--data", empty])).err.trim()).toMatch(/^cairn: .*empty holds no Cairn database \(cairn\.db\)/);
    const stray = await users(["owner@example.com", "--data", empty]);
    expect(stray).toMatchObject({ code: 2, out: "" });
    expect(stray.err.trim()).toBe('cairn: Unexpected "owner@example.com". Usage: cairn users [--data DIR]');
  });

  test("cairn help lists the command", () => {
    const help = Bun.spawnSync(["bun", "src/main.ts", "help"], { cwd: ROOT });
    expect(help.stdout.toString()).toContain("cairn users [--data DIR]");
  });
});

describe("the server running", () => {
  test("lists the accounts, the one just registered over HTTP included", async () => {
    const dir = freshDir();
    const env = makeEnv({ dir });
    await signUp(env, "owner@example.com");
    env.close();
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
      const signedIn = await post("/api/auth/login", { email: "owner@example.com", password: PASSWORD });
      const cookie = /cairn_session=([^;]*)/.exec(signedIn.headers.get("set-cookie")!)![1];
      const invite = (await (await post("/api/admin/invites", {}, cookie)).json()) as { token: string };
      expect(
        (await post("/api/auth/register", { email: "ada@example.com", displayName: "Ada", password: PASSWORD, inviteToken: invite.token }))
          .status,
      ).toBe(201);
      const run = await users(["--data", dir]);
      expect(run).toMatchObject({ code: 0, err: "" });
      const lines = run.out.trim().split("\n").map(cells);
      expect(lines.slice(1).map((c) => c.slice(0, 4))).toEqual([
        ["owner@example.com", "owner", "Owner", "active"],
        ["ada@example.com", "Ada", "User", "active"],
      ]);
      expect(lines[1][4]).toMatch(/UTC$/);
    } finally {
      server.proc.kill("SIGTERM");
      await server.proc.exited;
    }
  });
});
