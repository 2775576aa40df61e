/**
 * GET /api/audit filtered by who (actorId), what (action, exact or a "kind." prefix) and when
 * (from, to), alone, together and paged, against the real app and a real SQLite file.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, signUp, type TestEnv, type Who } from "../../tests/harness";
import { recordEvent, type EventType } from "../events/outbox";
import { auditRows } from "./testing";

let env: TestEnv;

/** Each test of the block starts from an instance of its own. */
function freshInstanceEach() {
  beforeEach(() => (env = makeEnv()));
  afterEach(() => env.close());
}

const sequences = (body: { sequence: number }[]) => body.map((e) => e.sequence);
const nextOf = (answer: { headers: Headers }) => answer.headers.get("x-next-before");
const DAY = 86_400_000;

/** One entry, written now (by the test clock). */
function write(type: EventType, actorId: string | null) {
  env.core.tx(() => recordEvent(env.core, { type, targetType: "group", targetId: "g", spaceId: null, actorId, ip: null, data: {} }));
}

/** Every page's sequences, following X-Next-Before to the end. */
async function allPages(who: Who, query: string) {
  const pages: number[][] = [];
  let before: string | null = null;
  for (;;) {
    const res = await call(env, "GET", `/api/audit?${query}${before ? `&before=${before}` : ""}`, { as: who });
    expect(res.status).toBe(200);
    pages.push(sequences(res.body));
    before = nextOf(res);
    if (!before) return pages;
    if (pages.length > 50) throw new Error("paging never ends");
  }
}

/** The expected answer, newest first, computed from the rows themselves. */
const expected = (keep: (r: ReturnType<typeof auditRows>[number]) => boolean) =>
  auditRows(env)
    .filter(keep)
    .map((r) => r.sequence)
    .reverse();

/** An owner (user.registered, 1 March 2026) and 3 days of entries by the owner and by Cairn. */
async function seeded() {
  env.clock.advance(Date.parse("2026-03-01T10:00:00Z") - env.clock.now());
  const owner = await signUp(env, "owner@example.com");
  for (let day = 0; day < 3; day++) {
    for (let i = 0; i < 10; i++) {
      write(i % 2 ? "group.updated" : "group.created", i % 3 ? owner.id : null);
      env.clock.advance(60_000);
    }
    env.clock.advance(DAY - 10 * 60_000);
  }
  return owner;
}

describe("GET /api/audit filters", () => {
  freshInstanceEach();

  test("actorId alone: only that user's entries", async () => {
    const owner = await seeded();
    const res = await call(env, "GET", `/api/audit?actorId=${owner.id}&take=200`, { as: owner });
    expect(sequences(res.body)).toEqual(expected((r) => r.actorId === owner.id));
    expect(res.body.length).toBeGreaterThan(10);
    const nobody = await call(env, "GET", "/api/audit?actorId=no-such-user", { as: owner });
    expect(nobody).toMatchObject({ status: 200, body: [] });
  });

  test("action alone: exact, and a prefix ending in a dot", async () => {
    const owner = await seeded();
    const exact = await call(env, "GET", "/api/audit?action=group.updated&take=200", { as: owner });
    expect(sequences(exact.body)).toEqual(expected((r) => r.action === "group.updated"));
    expect(exact.body).toHaveLength(15);
    const kind = await call(env, "GET", "/api/audit?action=group.&take=200", { as: owner });
    expect(sequences(kind.body)).toEqual(expected((r) => r.action.startsWith("group.")));
    expect(kind.body).toHaveLength(30);
    const users = await call(env, "GET", "/api/audit?action=user.&take=200", { as: owner });
    expect(users.body.map((e: { action: string }) => e.action)).toEqual(
      expected((r) => r.action.startsWith("user.")).map(() => "user.registered"),
    );
  });

  test("from and to alone: instants, and dates with to covering its whole day", async () => {
    const owner = await seeded();
    const on2nd = (r: { createdAt: string }) => r.createdAt.startsWith("2026-03-02");
    const day = await call(env, "GET", "/api/audit?from=2026-03-02&to=2026-03-02&take=200", { as: owner });
    expect(sequences(day.body)).toEqual(expected(on2nd));
    expect(day.body).toHaveLength(10);
    const fromOnly = await call(env, "GET", "/api/audit?from=2026-03-03&take=200", { as: owner });
    expect(sequences(fromOnly.body)).toEqual(expected((r) => r.createdAt >= "2026-03-03"));
    const toOnly = await call(env, "GET", "/api/audit?to=2026-03-01&take=200", { as: owner });
    expect(sequences(toOnly.body)).toEqual(expected((r) => r.createdAt < "2026-03-02"));
    expect(toOnly.body).toHaveLength(11);
    // An instant with an offset: 12:03+02:00 is 10:03Z, so entries from 10:03Z on that day.
    const instant = await call(env, "GET", `/api/audit?from=${encodeURIComponent("2026-03-02T12:03:00+02:00")}&to=2026-03-02T10:05:00Z`, {
      as: owner,
    });
    expect(instant.body.map((e: { createdAt: string }) => e.createdAt)).toEqual([
      "2026-03-02T10:05:00.000Z",
      "2026-03-02T10:04:00.000Z",
      "2026-03-02T10:03:00.000Z",
    ]);
  });

  test("all combined with AND, and with targetType", async () => {
    const owner = await seeded();
    const res = await call(
      env,
      "GET",
      `/api/audit?actorId=${owner.id}&action=group.updated&from=2026-03-02&to=2026-03-03&targetType=group&take=200`,
      { as: owner },
    );
    const want = expected(
      (r) => r.actorId === owner.id && r.action === "group.updated" && r.createdAt >= "2026-03-02" && r.createdAt < "2026-03-04",
    );
    expect(sequences(res.body)).toEqual(want);
    expect(want.length).toBeGreaterThan(2);
    const none = await call(env, "GET", `/api/audit?actorId=${owner.id}&targetType=page`, { as: owner });
    expect(none.body).toEqual([]);
  });

  test("a filtered list pages like the whole one: each entry once, full pages, no header at the end", async () => {
    const owner = await seeded();
    const want = expected((r) => r.actorId === owner.id && r.action.startsWith("group."));
    expect(want).toHaveLength(18);
    const pages = await allPages(owner, `actorId=${owner.id}&action=group.&take=4`);
    expect(pages.map((p) => p.length)).toEqual([4, 4, 4, 4, 2]);
    expect(pages.flat()).toEqual(want);
    // Entries older than the first page of the unfiltered log are found on the first filtered page.
    const first = await call(env, "GET", "/api/audit?take=5", { as: owner });
    const old = await call(env, "GET", "/api/audit?action=user.registered", { as: owner });
    expect(old.body[0].sequence).toBeLessThan(Math.min(...sequences(first.body)));
    expect(nextOf(old)).toBeNull();
  });

  test("to before from is a 400 naming to", async () => {
    const owner = await signUp(env, "owner@example.com");
    const res = await call(env, "GET", "/api/audit?from=2026-03-02&to=2026-03-01", { as: owner });
    expect(res).toMatchObject({ status: 400, body: { field: "to" } });
  });

  test("the parameters are in the API description", async () => {
    const op = (await call(env, "GET", "/api/openapi.json")).body.paths["/api/audit"].get;
    for (const name of ["actorId", "action", "from", "to"])
      expect(op.parameters.find((p: { name: string }) => p.name === name)).toMatchObject({ in: "query", required: false });
  });
});

describe("GET /api/audit filters refused", () => {
  // A refused read changes nothing, so the 14 cases share one instance and owner.
  let owner: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    env = makeEnv();
    owner = await signUp(env, "owner@example.com");
  });
  afterAll(() => env.close());

  test.each([
    ["actorId", ""],
    ["action", ""],
    ["action", "page"],
    ["action", "page.nonsense"],
    ["action", "nothing."],
    ["action", "."],
    ["action", "page_"],
    ["from", "yesterday"],
    ["from", "2026-02-30"],
    ["from", "2026-03-01T10:00:00"],
    ["from", "2026-13-01"],
    ["to", "03/01/2026"],
    ["to", ""],
    ["to", "2026-03-01T25:00:00Z"],
  ])("%s=%p is a 400 naming it", async (field, bad) => {
    const res = await call(env, "GET", `/api/audit?${field}=${encodeURIComponent(bad)}`, { as: owner });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });
});

describe("the audit screen", () => {
  test("the audit screen's action picker lists exactly the server's event types", async () => {
    const { EVENT_TYPES } = await import("../events/outbox");
    const { AUDIT_ACTIONS } = await import("../web/features/audit/actions");
    expect(Object.values(AUDIT_ACTIONS).flat().sort()).toEqual([...EVENT_TYPES].sort());
  });
});
