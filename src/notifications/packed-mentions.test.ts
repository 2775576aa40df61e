/** Mentions compare against the previous version's document, which may be stored packed (platform/db/packed-text.ts). */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv } from "../../tests/harness";
import { invited } from "../comments/testing";
import { newPage, newSpace } from "../pages/testing";
import { actionsOf, docMentioning, inbox } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

test("an edit of a long page tells only the people it newly mentions", async () => {
  const { owner, member } = await ownerAndMember(env);
  const carol = await invited(env, owner, "carol@example.com");
  const space = await newSpace(env, owner, "DOCS", "Docs");
  const long = "a long page, ".repeat(200);
  const page = await newPage(env, owner, space.id, "Guide", { contentJson: docMentioning(long, member.id) });
  expect(env.core.sqlite.query("SELECT typeof(content_json) AS kind FROM page_versions WHERE page_id = ?").get(page.id)).toEqual({
    kind: "blob",
  });
  await call(env, "PUT", `/api/pages/${page.id}`, {
    as: owner,
    body: { title: "Guide", contentJson: docMentioning(long + "more", member.id, carol.id), baseVersion: 1 },
  });
  expect(await actionsOf(env, member)).toEqual(["mention page"]);
  expect(await inbox(env, carol)).toMatchObject([{ action: "mention", targetId: page.id, details: { versionNumber: 2 } }]);
});
