/**
 * Titles and names refuse characters that show as nothing (platform/text.ts has the full
 * table): every kind of name below answers 400 naming its field and stores nothing, while the
 * joiners that do show something (an emoji sequence, a Persian word) are kept.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { newPage, newSpace } from "../src/pages/testing";
import { call, makeEnv, signUp, type TestEnv, type Who } from "./harness";

let env: TestEnv;

type Write = (owner: Who, ctx: { spaceId: string; pageId: string }, text: string) => Promise<{ status: number; body: any }>;

// [what, the field named in a refusal, a write of that field]
const NAMES: Array<[string, string, Write]> = [
  ["a page title", "title", (who, { spaceId }, title) => call(env, "POST", "/api/pages", { as: who, body: { spaceId, title } })],
  ["a page title (renamed)", "title", (who, { pageId }, title) => call(env, "PUT", `/api/pages/${pageId}`, { as: who, body: { title } })],
  ["a space name", "name", (who, _ctx, name) => call(env, "POST", "/api/spaces", { as: who, body: { key: "MORE", name } })],
  ["a space name (renamed)", "name", (who, _ctx, name) => call(env, "PUT", "/api/spaces/DOCS", { as: who, body: { name } })],
  ["a display name", "displayName", (who, _ctx, displayName) => call(env, "PUT", "/api/auth/me", { as: who, body: { displayName } })],
  ["a group name", "name", (who, _ctx, name) => call(env, "POST", "/api/groups", { as: who, body: { name } })],
  ["a role name", "name", (who, _ctx, name) => call(env, "POST", "/api/admin/roles", { as: who, body: { name, tier: 0 } })],
  [
    "a template name",
    "name",
    (who, _ctx, name) =>
      call(env, "POST", "/api/templates", {
        as: who,
        body: { name, contentJson: JSON.stringify({ type: "doc", content: [{ type: "paragraph" }] }) },
      }),
  ],
  ["a label", "name", (who, { pageId }, name) => call(env, "POST", `/api/pages/${pageId}/labels`, { as: who, body: { name } })],
];

const INVISIBLE: Array<[string, string]> = [
  ["a zero-width space (U+200B)", "Road\u200Bmap"],
  ["a zero-width joiner between Latin letters (U+200D)", "Road\u200Dmap"],
  ["a zero-width non-joiner between Latin letters (U+200C)", "Road\u200Cmap"],
  ["a word joiner (U+2060)", "Road\u2060map"],
  ["a byte-order mark at the start (U+FEFF)", "\uFEFFRoadmap"],
  ["a Mongolian vowel separator (U+180E)", "Road\u180Emap"],
  ["a Hangul filler alone (U+3164)", "\u3164"],
];

async function world() {
  const owner = await signUp(env, "owner@example.com", { displayName: "Owner" });
  const space = await newSpace(env, owner, "DOCS");
  const page = await newPage(env, owner, space.id, "Start");
  return { owner, ctx: { spaceId: space.id, pageId: page.id } };
}

const everyName = () =>
  env.core.sqlite
    .query(
      "SELECT title AS t FROM pages UNION ALL SELECT name FROM spaces UNION ALL SELECT display_name FROM users UNION ALL SELECT " +
        "name FROM groups UNION ALL SELECT name FROM roles UNION ALL SELECT name FROM templates UNION ALL SELECT name FROM labels",
    )
    .all()
    .map((r: any) => r.t as string);

describe("invisible characters in titles and names", () => {
  describe("refused", () => {
    // A refusal stores nothing (each case checks that against the names just before it), so the
    // 63 cases share one world: building one per case was most of this file's time.
    let shared: Awaited<ReturnType<typeof world>>;
    beforeAll(async () => {
      env = makeEnv();
      shared = await world();
    });
    afterAll(() => env.close());

    test.each(NAMES.flatMap(([what, field, write]) => INVISIBLE.map(([why, text]) => [what, why, field, text, write] as const)))(
      "%s with %s is 400 on the field; nothing stored",
      async (_what, _why, field, text, write) => {
        const { owner, ctx } = shared;
        const before = everyName();
        const res = await write(owner, ctx, text);
        expect(res.status).toBe(400);
        expect(res.body.field ?? Object.keys(res.body.errors ?? {})[0]).toBe(field);
        expect(everyName()).toEqual(before);
      },
    );
  });

  describe("kept", () => {
    // Each of these stores a name, so each starts from a world of its own.
    beforeEach(() => (env = makeEnv()));
    afterEach(() => env.close());

    test.each(NAMES.filter(([what]) => what !== "a label"))(
      "%s keeps an emoji sequence and a Persian word (joiners that show)",
      async (_what, _field, write) => {
        const { owner, ctx } = await world();
        const text = "Team 👩🏽\u200D💻 می\u200Cخواهم";
        const res = await write(owner, ctx, text);
        expect(res.status).toBeLessThan(300);
        expect(everyName()).toContain(text);
      },
    );
  });
});
