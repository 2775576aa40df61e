/**
 * Test harness: a real app on a real SQLite file in a temporary data directory, driven
 * in-process through app.handle (no mocks of our own layers). The clock is a ManualClock so
 * expiry, lockout and rate-limit tests move time instead of sleeping.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Core } from "../src/core";
import { openInstance } from "../src/instance";
import { createApp, durableHandler, type App, type RequestHandler } from "../src/http/app";
import { ManualClock } from "../src/platform/clock";
import { loadConfig } from "../src/platform/config";
import { silentLogger } from "../src/platform/log";
import { hashPasswordsCheaplyForTests } from "../src/identity/password";
import type { UserCaller } from "../src/identity/caller";
import { findUserWithRoleById } from "../src/users/service";

export const BASE = "http://cairn.test";

// Accounts made in-process hash at argon2id's least cost (src/auth/password.ts says why).
hashPasswordsCheaplyForTests();

export interface TestEnv {
  core: Core;
  app: App;
  /** The server's handler (answers once durable); call() goes through it. */
  handle: RequestHandler;
  clock: ManualClock;
  dir: string;
  close(): void;
}

/**
 * A data directory migrated once per test run; each fresh environment starts from a copy of it
 * (as PocketBase's tests do) instead of running every migration again (~20 ms each time).
 */
let template: string | null = null;
function migratedTemplate(): string {
  if (template) return template;
  const dir = mkdtempSync(join(tmpdir(), "cairn-template-"));
  openInstance(loadConfig(["--data", dir], {}), { log: silentLogger }).close();
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  template = dir;
  return dir;
}

/**
 * `env`: environment variables for the config (e.g. CAIRN_OUTBOUND_ALLOW); `archiveWal`: keep
 * the WAL archive as the server does (backups' point in time).
 */
export function makeEnv(opts: { dir?: string; env?: Record<string, string>; archiveWal?: boolean } = {}): TestEnv {
  let dir = opts.dir;
  if (!dir) {
    dir = mkdtempSync(join(tmpdir(), "cairn-test-"));
    cpSync(migratedTemplate(), dir, { recursive: true });
  }
  const clock = new ManualClock(Date.now());
  // Commits grouped as in the server, so every test runs through group commit.
  const core = openInstance(loadConfig(["--data", dir], opts.env ?? {}), {
    clock,
    log: silentLogger,
    groupCommits: true,
    archiveWal: opts.archiveWal,
  });
  const app = createApp(core);
  return {
    core,
    app,
    handle: durableHandler(core, app),
    clock,
    dir,
    close() {
      core.close();
      if (!opts.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Who {
  /** Session cookie value, or a bearer token (cct_…). */
  cookie?: string;
  token?: string;
}

export interface CallOptions {
  as?: Who;
  body?: unknown;
  headers?: Record<string, string>;
  /** Leave out X-Requested-With (to test the CSRF rule). */
  noCsrfHeader?: boolean;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function call(env: TestEnv, method: string, path: string, opts: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.as?.cookie) headers.cookie = `cairn_session=${opts.as.cookie}`;
  if (opts.as?.token) headers.authorization = `Bearer ${opts.as.token}`;
  if (method !== "GET" && !opts.noCsrfHeader && !("x-requested-with" in headers)) headers["x-requested-with"] = "Cairn";
  let body: BodyInit | undefined;
  if (opts.body !== undefined) {
    if (typeof opts.body === "string" || opts.body instanceof Uint8Array || opts.body instanceof FormData) body = opts.body as BodyInit;
    else {
      body = JSON.stringify(opts.body);
      headers["content-type"] ??= "application/json";
    }
  }
  const res = await env.handle(new Request(BASE + path, { method, headers, body }));
  const text = await res.text();
  let parsed: any = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export function cookieFrom(answer: Answer): string {
  const set = answer.headers.get("set-cookie") ?? "";
  const m = /cairn_session=([^;]*)/.exec(set);
  if (!m) throw new Error(`no session cookie in answer ${answer.status}: ${answer.text}`);
  return m[1];
}

export const PASSWORD = "correct horse battery staple";

/** Registers an account (the first becomes Owner) and answers its session. */
export async function signUp(env: TestEnv, email: string, extra: { inviteToken?: string; displayName?: string } = {}) {
  const res = await call(env, "POST", "/api/auth/register", {
    body: { email, displayName: extra.displayName ?? email.split("@")[0], password: PASSWORD, inviteToken: extra.inviteToken },
  });
  if (res.status !== 201) throw new Error(`register ${email}: ${res.status} ${res.text}`);
  return { id: res.body.id as string, cookie: cookieFrom(res), account: res.body };
}

/** The instance's owner, signed up, and a space of theirs (key ENG): most content tests start here. */
export async function ownerWithSpace(env: TestEnv) {
  const owner = await signUp(env, "owner@example.com");
  const space = await call(env, "POST", "/api/spaces", { as: owner, body: { key: "ENG", name: "Engineering", description: "" } });
  if (space.status !== 201) throw new Error(`create space: ${space.status} ${space.text}`);
  return { owner, spaceId: space.body.id as string };
}

/** An owner plus an invited member, each with a session. */
export async function ownerAndMember(env: TestEnv) {
  const owner = await signUp(env, "owner@example.com");
  const invite = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
  const member = await signUp(env, "member@example.com", { inviteToken: invite.body.token });
  return { owner, member };
}

export async function mintToken(env: TestEnv, who: Who, body: Record<string, unknown> = { name: "test" }): Promise<string> {
  const res = await call(env, "POST", "/api/api-tokens", { as: who, body });
  if (res.status !== 201) throw new Error(`mint token: ${res.status} ${res.text}`);
  return res.body.token;
}

/** The caller a session (or the given token) of this user would be: services never see HTTP. */
export function callerFor(env: TestEnv, userId: string, token: UserCaller["token"] = null): UserCaller {
  const { user, role } = findUserWithRoleById(env.core, userId)!;
  return { kind: "user", ip: "local", user, role, permissions: new Set(role.permissions), session: null, token };
}
