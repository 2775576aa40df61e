/**
 * Titles are one line of text without control characters (platform/text.ts): every way a
 * title is written (create, update, a draft's PUT, publish) refuses them with a 400 on
 * `title`, and nothing is stored. The full character table is in platform/text.test.ts.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, signUp, type TestEnv, type Who } from "../../tests/harness";
import { findControl } from "../platform/text";
import { newPage, newSpace } from "./testing";

let env: TestEnv;

const BAD: Array<[string, string]> = [
  ["NUL", "Nul\u0000l"],
  ["a tab", "Tab\there"],
  ["a line feed", "Two\nlines"],
  ["a trailing line feed", "Title\n"],
  ["ESC", "\u001B[2JCleared"],
  ["DEL", "Del\u007F"],
  ["a C1 control (CSI)", "Csi\u009B31m"],
  ["a right-to-left override", "invoice\u202Efdp.exe"],
  ["a left-to-right isolate", "Iso\u2066late\u2069"],
  ["a lone surrogate", "Half \uD83D emoji"],
];

const WRITES: Array<[string, (who: Who, spaceId: string, title: string) => Promise<{ status: number; body: any }>]> = [
  ["POST /api/pages", (who, spaceId, title) => call(env, "POST", "/api/pages", { as: who, body: { spaceId, title } })],
  [
    "PUT /api/pages/{id}",
    async (who, spaceId, title) =>
      call(env, "PUT", `/api/pages/${(await newPage(env, who, spaceId, "Before")).id}`, { as: who, body: { title } }),
  ],
  [
    "PUT /api/pages/{id} (a draft)",
    async (who, spaceId, title) => call(env, "PUT", `/api/pages/${(await draft(who, spaceId)).id}`, { as: who, body: { title } }),
  ],
  [
    "POST /api/pages/{id}/publish",
    async (who, spaceId, title) => call(env, "POST", `/api/pages/${(await draft(who, spaceId)).id}/publish`, { as: who, body: { title } }),
  ],
];

async function draft(who: Who, spaceId: string) {
  return (await call(env, "POST", "/api/pages/draft", { as: who, body: { spaceId } })).body as { id: string };
}

const storedTitles = () => (env.core.sqlite.query("SELECT title FROM pages").all() as Array<{ title: string }>).map((r) => r.title);

describe("page titles refuse control characters", () => {
  describe("refused", () => {
    // A refusal stores nothing, and each case looks at every stored title after its write, so the
    // 40 cases share one owner and space: making them anew for each was most of this file's time.
    let owner: Who;
    let spaceId: string;
    beforeAll(async () => {
      env = makeEnv();
      owner = await signUp(env, "owner@example.com");
      spaceId = (await newSpace(env, owner, "DOCS")).id;
    });
    afterAll(() => env.close());

    test.each(WRITES.flatMap(([route, write]) => BAD.map(([what, title]) => [route, what, title, write] as const)))(
      "%s: %s is 400 on title",
      async (_route, _what, title, write) => {
        const res = await write(owner, spaceId, title);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ field: "title" });
        expect(res.body.detail).toContain("must not contain control characters");
        expect(storedTitles().filter((t) => findControl(t, "single-line"))).toEqual([]);
      },
    );
  });

  describe("kept", () => {
    beforeEach(() => (env = makeEnv()));
    afterEach(() => env.close());

    test("right-to-left titles with their marks, emoji and inner spaces are fine", async () => {
      const owner = await signUp(env, "owner@example.com");
      const space = await newSpace(env, owner, "DOCS");
      for (const title of ["שלום \u200Fעולם", "Café 管理 😀", "Two  spaces"]) {
        expect((await call(env, "POST", "/api/pages", { as: owner, body: { spaceId: space.id, title } })).body.title).toBe(title);
      }
    });
  });
});
