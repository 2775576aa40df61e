/** Many pages in one call (createPages): the same checks and rows as createPage's, all or none. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { makeEnv, ownerAndMember, signUp, type TestEnv, callerFor } from "../../tests/harness";
import { auditOf } from "../audit/testing";
import { verifyAudit } from "../audit/service";
import { startCountingStatements } from "../platform/db/statement-count";
import { STATEMENTS_PER_PAGE_CREATED_IN_BATCH } from "../../tests/budgets";
import { createPage, createPages } from "./service";
import { doc, eventsOf, newSpace } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

/** The rows a space's pages wrote, without ids and times: parent by title, position, version 1, links, watches. */
function shapeOf(spaceId: string) {
  const rows = env.core.sqlite
    .query<Record<string, unknown>, [string]>(
      `SELECT p.title, parent.title AS parent, p.position, p.status, p.current_version AS version, p.content_json AS json, ` +
        `p.plain_text AS text,
         (SELECT count(*) FROM page_versions v WHERE v.page_id = p.id AND v.version_number = 1 AND ` +
        `v.content_json = p.content_json) AS versions,
         (SELECT count(*) FROM page_watches w WHERE w.page_id = p.id) AS ` +
        `watches
       FROM pages p LEFT JOIN pages parent ON parent.id = p.parent_id WHERE p.space_id = ? ORDER BY p.doc_id`,
    )
    .all(spaceId);
  return rows;
}

const TREE = [
  { title: "Root A", contentJson: doc("first") },
  { title: "Root B" },
  { title: "A1", parentIndex: 0, contentJson: doc("under A") },
  { title: "A2", parentIndex: 0 },
  { title: "A1a", parentIndex: 2 },
];

describe("createPages", () => {
  test("writes what createPage writes page by page: rows, positions, versions, watches, events, audit", async () => {
    const owner = await signUp(env, "owner@example.com");
    const caller = callerFor(env, owner.id);
    const one = await newSpace(env, owner, "ONE");
    const many = await newSpace(env, owner, "MANY");
    const ids: string[] = [];
    for (const { parentIndex, ...input } of TREE)
      ids.push(
        createPage(env.core, caller, { ...input, spaceId: one.id, parentPageId: parentIndex === undefined ? null : ids[parentIndex] }).id,
      );
    const made = createPages(env.core, caller, many.id, TREE);
    expect(made.map((p) => [p.title, p.canEdit, p.currentVersionNumber])).toEqual(TREE.map((t) => [t.title, true, 1]));
    expect(shapeOf(many.id)).toEqual(shapeOf(one.id));
    // An existing page named by id as parent: after its existing children.
    const later = createPages(env.core, caller, many.id, [
      { title: "A3", parentPageId: made[0].id },
      { title: "A4", parentPageId: made[0].id },
    ]);
    expect(later.map((p) => p.position)).toEqual([2, 3]);

    const created = (spaceId: string) =>
      eventsOf(env, "page.created")
        .filter((e) => e.spaceId === spaceId)
        .map((e) => e.data);
    expect(
      created(many.id)
        .slice(0, TREE.length)
        .map((d) => (d as { title: string }).title),
    ).toEqual(created(one.id).map((d) => (d as { title: string }).title));
    expect(auditOf(env, "page.created")).toHaveLength(TREE.length * 2 + 2);
    expect(verifyAudit(env.core, caller).ok).toBe(true);
  });

  test("all or none: one refused page refuses the call and writes nothing", async () => {
    const owner = await signUp(env, "owner@example.com");
    const caller = callerFor(env, owner.id);
    const space = await newSpace(env, owner, "DOCS");
    const other = await newSpace(env, owner, "OTHER");
    const elsewhere = createPage(env.core, caller, { spaceId: other.id, title: "Elsewhere" });
    const before = eventsOf(env).length;
    expect(() => createPages(env.core, caller, space.id, [{ title: "Fine" }, { title: "  " }])).toThrow("title");
    expect(() => createPages(env.core, caller, space.id, [{ title: "Fine" }, { title: "Bad parent", parentPageId: elsewhere.id }])).toThrow(
      "same space",
    );
    expect(() => createPages(env.core, caller, space.id, [{ title: "Ahead", parentIndex: 1 }, { title: "Later" }])).toThrow("earlier page");
    expect(() => createPages(env.core, caller, space.id, [{ title: "Self", parentIndex: 0 }])).toThrow("earlier page");
    expect(env.core.sqlite.query("SELECT count(*) AS n FROM pages WHERE space_id = ?").get(space.id)).toEqual({ n: 0 });
    expect(eventsOf(env)).toHaveLength(before);
  });

  test("a caller who may not edit the space is refused as by createPage, with the same error", async () => {
    const { owner, member } = await ownerAndMember(env);
    const space = await newSpace(env, owner, "DOCS");
    const outcome = (fn: () => unknown) => {
      try {
        fn();
        return "allowed";
      } catch (err) {
        return (err as Error).message;
      }
    };
    const one = outcome(() => createPage(env.core, callerFor(env, member.id), { spaceId: space.id, title: "One" }));
    const many = outcome(() => createPages(env.core, callerFor(env, member.id), space.id, [{ title: "One" }]));
    expect(many).toBe(one);
    expect(
      outcome(() => createPages(env.core, callerFor(env, member.id), "01a00000-0000-7000-8000-000000000000", [{ title: "Nowhere" }])),
    ).toBe("Space not found");
  });

  test("statements per page stay within the gate's budget (tests/budgets.ts)", async () => {
    const owner = await signUp(env, "owner@example.com");
    const caller = callerFor(env, owner.id);
    const space = await newSpace(env, owner, "DOCS");
    const parents = createPages(
      env.core,
      caller,
      space.id,
      Array.from({ length: 10 }, (_, i) => ({ title: `Parent ${i}` })),
    );
    const inputs = Array.from({ length: 100 }, (_, i) => ({
      title: `Child ${i}`,
      contentJson: doc(`child ${i}`),
      parentPageId: parents[i % 10].id,
    }));
    const counter = startCountingStatements({ keepText: true });
    try {
      createPages(env.core, caller, space.id, inputs);
      const perPage = counter.count / inputs.length;
      if (perPage > STATEMENTS_PER_PAGE_CREATED_IN_BATCH.limit)
        throw new Error(
          `${perPage} statements per page, budget ${STATEMENTS_PER_PAGE_CREATED_IN_BATCH.limit}:\n${counter.texts.slice(0, 40).join("\n")}`,
        );
      expect(perPage).toBeLessThanOrEqual(STATEMENTS_PER_PAGE_CREATED_IN_BATCH.limit);
    } finally {
      counter.stop();
    }
  });
});
