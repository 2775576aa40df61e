import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, signUp, type TestEnv, type Who } from "../../tests/harness";
import { ROLE_ID } from "../identity/rights";
import { recordEvent } from "../events/outbox";
import { newPage, newSpace } from "../pages/testing";
import { auditRows, seedEntries } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const seed = (n: number, targetId?: (i: number) => string) => seedEntries(env, n, targetId);

const sequences = (body: { sequence: number }[]) => body.map((e) => e.sequence);
const nextOf = (answer: { headers: Headers }) => answer.headers.get("x-next-before");
/** Newest to oldest, n, n-1, … down to 1. */
const downFrom = (n: number) => Array.from({ length: n }, (_, i) => n - i);

/** Follows X-Next-Before from the first page to the last; answers every page's sequences. */
async function allPages(who: Who, query: string) {
  const pages: number[][] = [];
  let before: string | null = null;
  for (;;) {
    const res = await call(env, "GET", `/api/audit?${query}${before ? `&before=${before}` : ""}`, { as: who });
    expect(res.status).toBe(200);
    pages.push(sequences(res.body));
    before = nextOf(res);
    if (!before) return pages;
    // The cursor is the oldest entry just read.
    expect(Number(before)).toBe(pages.at(-1)!.at(-1)!);
    if (pages.length > 50) throw new Error("paging never ends");
  }
}

describe("GET /api/audit?before=", () => {
  test("450 entries, 200 at a time: every entry once, newest to oldest, then no header", async () => {
    const owner = await signUp(env, "owner@example.com");
    seed(449);
    expect(auditRows(env)).toHaveLength(450);
    const pages = await allPages(owner, "take=200");
    expect(pages.map((p) => p.length)).toEqual([200, 200, 50]);
    expect(pages.flat()).toEqual(downFrom(450));
  });

  test("a page that ends exactly at the oldest entry carries no header (no empty page to fetch)", async () => {
    const owner = await signUp(env, "owner@example.com");
    seed(399);
    const pages = await allPages(owner, "take=200");
    expect(pages.map((p) => p.length)).toEqual([200, 200]);
    expect(pages.flat()).toEqual(downFrom(400));
  });

  test("entries written while paging come before the first page, never inside later ones", async () => {
    const owner = await signUp(env, "owner@example.com");
    seed(9);
    const first = await call(env, "GET", "/api/audit?take=4", { as: owner });
    expect(sequences(first.body)).toEqual([10, 9, 8, 7]);
    seed(5);
    const second = await call(env, "GET", `/api/audit?take=4&before=${nextOf(first)}`, { as: owner });
    expect(sequences(second.body)).toEqual([6, 5, 4, 3]);
    const third = await call(env, "GET", `/api/audit?take=4&before=${nextOf(second)}`, { as: owner });
    expect(sequences(third.body)).toEqual([2, 1]);
    expect(nextOf(third)).toBeNull();
  });

  test("combines with targetType and targetId", async () => {
    const owner = await signUp(env, "owner@example.com");
    seed(30, (i) => (i % 3 === 0 ? "wanted" : "other"));
    const wanted = auditRows(env)
      .filter((r) => r.targetId === "wanted")
      .map((r) => r.sequence)
      .reverse();
    expect(wanted).toHaveLength(10);
    expect((await allPages(owner, "targetId=wanted&take=3")).flat()).toEqual(wanted);
    expect((await allPages(owner, "targetType=group&targetId=wanted&take=4")).map((p) => p.length)).toEqual([4, 4, 2]);
    const groups = auditRows(env)
      .filter((r) => r.targetType === "group")
      .map((r) => r.sequence)
      .reverse();
    expect((await allPages(owner, "targetType=group&take=7")).flat()).toEqual(groups);
    // A cursor in the middle: only older matches.
    const res = await call(env, "GET", `/api/audit?targetId=wanted&before=${wanted[4]}`, { as: owner });
    expect(sequences(res.body)).toEqual(wanted.slice(5));
    expect(nextOf(res)).toBeNull();
  });

  test("entries the caller may not see are skipped, and do not promise a next page", async () => {
    const { owner, member } = await ownerAndMember(env);
    env.core.sqlite.query("UPDATE roles SET permissions = json_insert(permissions, '$[#]', 'audit.view') WHERE id = ?").run(ROLE_ID.user);
    const space = await newSpace(env, owner, "DOCS");
    const draft = await call(env, "POST", "/api/pages/draft", { as: member, body: { spaceId: space.id } });
    // Entries about the member's draft, which the owner may not see, around the two pages' own.
    const aboutDraft = () =>
      env.core.tx(() =>
        recordEvent(env.core, {
          type: "page.updated",
          targetType: "page",
          targetId: draft.body.id,
          spaceId: space.id,
          actorId: member.id,
          ip: "local",
          data: {},
        }),
      );
    aboutDraft();
    const older = await newPage(env, owner, space.id, "Older");
    aboutDraft();
    const newer = await newPage(env, owner, space.id, "Newer");
    aboutDraft();
    const created = (id: string) => auditRows(env).find((r) => r.action === "page.created" && r.targetId === id)!.sequence;

    const first = await call(env, "GET", "/api/audit?targetType=page&take=1", { as: owner });
    expect(sequences(first.body)).toEqual([created(newer.id)]);
    expect(nextOf(first)).toBe(String(created(newer.id)));
    const second = await call(env, "GET", `/api/audit?targetType=page&take=1&before=${nextOf(first)}`, { as: owner });
    expect(sequences(second.body)).toEqual([created(older.id)]);
    // Only the draft's entry is older, and the owner may not see it.
    expect(nextOf(second)).toBeNull();
    // The member sees the draft's entries too, so has more pages.
    expect((await allPages(member, "targetType=page&take=2")).map((p) => p.length)).toEqual([2, 2, 1]);
  });

  test("before=1 answers nothing; a cursor past the newest entry answers the newest", async () => {
    const owner = await signUp(env, "owner@example.com");
    seed(4);
    const none = await call(env, "GET", "/api/audit?before=1", { as: owner });
    expect(none).toMatchObject({ status: 200, body: [] });
    expect(nextOf(none)).toBeNull();
    const far = await call(env, "GET", "/api/audit?before=9007199254740991&take=2", { as: owner });
    expect(sequences(far.body)).toEqual([5, 4]);
    expect(nextOf(far)).toBe("4");
  });

  test.each(["0", "-1", "abc", "1.5", "", "99999999999999999999"])("before=%p is a 400 naming before", async (bad) => {
    const owner = await signUp(env, "owner@example.com");
    const res = await call(env, "GET", `/api/audit?before=${bad}`, { as: owner });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("before");
    expect(nextOf(res)).toBeNull();
  });

  test("the header and the parameter are in the API description", async () => {
    const op = (await call(env, "GET", "/api/openapi.json")).body.paths["/api/audit"].get;
    expect(op.parameters.find((p: { name: string }) => p.name === "before")).toMatchObject({
      in: "query",
      required: false,
      schema: { type: "integer" },
    });
    expect(op.responses["200"].headers["X-Next-Before"].schema).toMatchObject({ type: "integer", minimum: 1 });
    expect(op.description).toContain("X-Next-Before");
  });
});
