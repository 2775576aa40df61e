/**
 * The checks every request makes (address blocks, the token, the session, the settings) are
 * answered from memory until one of the tables they read changes: a page edit leaves them,
 * and a block, a revocation, a sign-out or a suspension bites on the very next request, made
 * here or by another process.
 */
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { call, makeEnv, mintToken, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { keptAnswerStats } from "../platform/db/kept-answers";
import { callFrom } from "../security/testing";

const ADMIN_IP = "192.0.2.10";
const READER_IP = "198.51.100.23";

let env: TestEnv;
let owner: Who & { id: string };
let member: Who & { id: string };
let pageId = "";

beforeEach(async () => {
  env = makeEnv();
  ({ owner, member } = await ownerAndMember(env));
  const space = await call(env, "POST", "/api/spaces", { as: owner, body: { key: "KEPT", name: "Kept" } });
  const page = await call(env, "POST", "/api/pages", { as: owner, body: { spaceId: space.body.id, title: "Edited" } });
  pageId = page.body.id;
});
afterEach(() => env.close());

const misses = (name: string) => keptAnswerStats()[name]?.misses ?? 0;
const edit = async (n: number) =>
  expect((await call(env, "PUT", `/api/pages/${pageId}`, { as: owner, body: { title: `Edited ${n}` } })).status).toBe(200);

test("a page edit leaves the kept checks as they are: no settings, blocks, token or session read again", async () => {
  const token = await mintToken(env, member);
  expect((await callFrom(env, READER_IP, "GET", "/api/auth/me", { as: { token } })).status).toBe(200);
  expect((await callFrom(env, READER_IP, "GET", "/api/auth/me", { as: member })).status).toBe(200);
  await edit(1);
  expect((await callFrom(env, READER_IP, "GET", "/api/auth/me", { as: { token } })).status).toBe(200);
  const before = {
    settings: misses("settings"),
    blocks: misses("security blocks"),
    tokens: misses("tokens"),
    sessions: misses("sessions"),
  };
  await edit(2);
  expect((await callFrom(env, READER_IP, "GET", "/api/auth/me", { as: { token } })).status).toBe(200);
  expect((await callFrom(env, READER_IP, "GET", "/api/auth/me", { as: member })).status).toBe(200);
  // The owner's own edit read its session too: kept, as the member's.
  expect({
    settings: misses("settings"),
    blocks: misses("security blocks"),
    tokens: misses("tokens"),
    sessions: misses("sessions"),
  }).toEqual(before);
});

test("a block added after a page edit refuses the very next request from that address; removing it serves it again", async () => {
  const token = await mintToken(env, member);
  expect((await callFrom(env, READER_IP, "GET", "/api/auth/me", { as: { token } })).status).toBe(200);
  await edit(1);
  const added = await callFrom(env, ADMIN_IP, "POST", "/api/admin/security/blocks", {
    as: owner,
    body: { cidr: "198.51.100.0/24", reason: "attack" },
  });
  expect(added.status).toBe(201);
  expect((await callFrom(env, READER_IP, "GET", "/api/auth/me", { as: { token } })).body).toMatchObject({
    status: 403,
    code: "address_blocked",
  });
  expect((await callFrom(env, ADMIN_IP, "DELETE", `/api/admin/security/blocks/${added.body.id}`, { as: owner })).status).toBe(204);
  expect((await callFrom(env, READER_IP, "GET", "/api/auth/me", { as: { token } })).status).toBe(200);
});

test("a revoked token, a signed-out session and a suspended account are refused on the very next request", async () => {
  const token = await mintToken(env, member);
  const other = await mintToken(env, member, { name: "second" });
  for (const who of [{ token }, { token: other }, member]) expect((await call(env, "GET", "/api/auth/me", { as: who })).status).toBe(200);
  await edit(1);
  const listed = await call(env, "GET", "/api/api-tokens", { as: member });
  const id = listed.body.find((t: { name: string }) => t.name === "test").id;
  expect((await call(env, "DELETE", `/api/api-tokens/${id}`, { as: member })).status).toBe(204);
  expect((await call(env, "GET", "/api/auth/me", { as: { token } })).body).toMatchObject({ status: 401, code: "invalid_token" });
  expect((await call(env, "GET", "/api/auth/me", { as: { token: other } })).status).toBe(200);
  expect((await call(env, "PUT", `/api/admin/users/${member.id}/status`, { as: owner, body: { status: 1 } })).status).toBe(200);
  expect((await call(env, "GET", "/api/auth/me", { as: { token: other } })).body).toMatchObject({ status: 401, code: "invalid_token" });
  expect((await call(env, "GET", "/api/auth/me", { as: member })).status).toBe(401);
  // The owner signs out: the same cookie no longer opens a session.
  expect((await call(env, "GET", "/api/auth/me", { as: owner })).status).toBe(200);
  expect((await call(env, "POST", "/api/auth/logout", { as: owner })).status).toBe(204);
  expect((await call(env, "GET", "/api/auth/me", { as: owner })).body).toMatchObject({ status: 401, sessionEnded: true });
});

test("a kept session still ends when it has been idle too long", async () => {
  expect((await call(env, "GET", "/api/auth/me", { as: member })).status).toBe(200);
  env.clock.advance(15 * 86_400_000);
  expect((await call(env, "GET", "/api/auth/me", { as: member })).status).toBe(401);
});

test("a block written by another process (a command beside the server) refuses the next request", async () => {
  const token = await mintToken(env, member);
  expect((await callFrom(env, READER_IP, "GET", "/api/auth/me", { as: { token } })).status).toBe(200);
  const command = new Database(env.core.data.dbPath);
  try {
    command.run("PRAGMA busy_timeout = 5000");
    command.run(
      "INSERT INTO security_blocks (id, cidr, reason, created_by_id, created_at, expires_at) VALUES ('b1', " +
        "'198.51.100.0/24', 'from a command', NULL, '2020-01-01T00:00:00.000Z', NULL)",
    );
  } finally {
    command.close();
  }
  expect((await callFrom(env, READER_IP, "GET", "/api/auth/me", { as: { token } })).body).toMatchObject({
    status: 403,
    code: "address_blocked",
  });
});
