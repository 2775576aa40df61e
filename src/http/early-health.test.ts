/**
 * The health check a server answers before its HTTP application is loaded (early-health.ts)
 * is the application's own answer: status, body and every header, for each kind of caller.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { BASE, makeEnv, mintToken, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { earlyHealth } from "./early-health";

const IP = "198.51.100.7";
let env: TestEnv;
let owner: Who & { id: string };

beforeEach(async () => {
  env = makeEnv();
  ({ owner } = await ownerAndMember(env));
});
afterEach(() => env.close());

async function seen(response: Response | null | Promise<Response>) {
  const res = await response;
  if (!res) return null;
  const headers: string[] = [];
  res.headers.forEach((value, name) => {
    if (name !== "date") headers.push(`${name}: ${value}`);
  });
  headers.sort();
  return { status: res.status, body: await res.text(), headers };
}

const request = (method: string, path: string, headers: Record<string, string> = {}) => new Request(BASE + path, { method, headers });

test("answers as the application does: anonymous, signed in by cookie or token, a wrong token, HEAD", async () => {
  const early = earlyHealth(env.core);
  const token = await mintToken(env, owner);
  const cases: Array<[string, Record<string, string>]> = [
    ["GET", {}],
    ["HEAD", {}],
    ["GET", { cookie: `cairn_session=${owner.cookie}` }],
    ["GET", { authorization: `Bearer ${token}` }],
    ["GET", { authorization: "Bearer cairn_not_a_token" }],
    ["GET", { "x-forwarded-proto": "https" }],
  ];
  for (const [method, headers] of cases) {
    const fromApp = await seen(env.handle(request(method, "/api/health", headers), IP));
    const fromEarly = await seen(early(request(method, "/api/health", headers), IP));
    expect({ method, headers, answer: fromEarly }).toEqual({ method, headers, answer: fromApp });
  }
  expect((await seen(early(request("GET", "/api/health"), IP)))?.body).toBe(JSON.stringify({ status: "ok", database: "ok" }));
});

test("anything else is left to the application", async () => {
  const early = earlyHealth(env.core);
  expect(early(request("GET", "/api/instance"), IP)).toBeNull();
  expect(early(request("POST", "/api/health", { "x-requested-with": "Cairn" }), IP)).toBeNull();
  expect(early(request("GET", "/api/healthz"), IP)).toBeNull();
});
