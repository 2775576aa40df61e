/**
 * The server answers a write only once it is durable (group commit: platform/db/transactions.ts).
 * The harness's call() goes through the same handler as the server.
 */
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { call, makeEnv, type TestEnv } from "../../tests/harness";
import { doc, ownerMemberAndPage } from "../pages/testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const versionsSeenByAnotherProcess = (pageId: string) => {
  const other = new Database(join(env.dir, "cairn.db"), { readonly: true });
  try {
    return other.query<{ n: number }, [string]>("SELECT count(*) AS n FROM page_versions WHERE page_id = ?").get(pageId)!.n;
  } finally {
    other.close();
  }
};

describe("answers once durable", () => {
  test("a write answered 200 is already committed: another connection sees it", async () => {
    const { owner, page } = await ownerMemberAndPage(env);
    const edits = await Promise.all(
      [1, 2, 3].map((n) =>
        call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { title: `Guide ${n}`, contentJson: doc(`v${n}`) } }),
      ),
    );
    expect(edits.map((e) => e.status)).toEqual([200, 200, 200]);
    expect(versionsSeenByAnotherProcess(page.id)).toBe(4);
  });

  test("when the COMMIT fails, the answer is a 503 that says what to do, and nothing was saved", async () => {
    const { owner, page } = await ownerMemberAndPage(env);
    // A deferred foreign key that a new version breaks: SQLite refuses it only at COMMIT.
    env.core.sqlite.run("CREATE TABLE broken (page_id TEXT REFERENCES pages(id) DEFERRABLE INITIALLY DEFERRED)");
    env.core.sqlite.run("CREATE TRIGGER break_commit AFTER INSERT ON page_versions BEGIN INSERT INTO broken VALUES ('no such page'); END");
    const res = await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { title: "Lost", contentJson: doc("lost") } });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe("service_unavailable");
    expect(res.body.detail).toContain("free disk space");
    env.core.sqlite.run("DROP TRIGGER break_commit");
    const now = await call(env, "GET", `/api/pages/${page.id}`, { as: owner });
    expect([now.body.title, now.body.currentVersionNumber]).toEqual(["Guide", 1]);
    expect(versionsSeenByAnotherProcess(page.id)).toBe(1);
    // The next write is a new transaction and is saved.
    const again = await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { title: "Kept" } });
    expect([again.status, again.body.currentVersionNumber]).toEqual([200, 2]);
  });
});
