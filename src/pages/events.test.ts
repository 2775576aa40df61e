/** Page changes and the outbox: every change records its rows with it, a failed one nothing. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, signUp, type TestEnv, callerFor } from "../../tests/harness";
import { onEvents, type EventRow } from "../events/outbox";
import { invalid } from "../platform/errors";
import { createPage } from "./service";
import { eventsOf, newPage, newSpace } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

describe("page events", () => {
  test("each change records one row naming the page, its space and the actor", async () => {
    const owner = await signUp(env, "owner@example.com");
    const space = await newSpace(env, owner, "DOCS");
    const page = await newPage(env, owner, space.id, "P");
    await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { title: "Q" } });
    await call(env, "PUT", `/api/pages/${page.id}/move`, { as: owner, body: { index: 0 } });
    await call(env, "DELETE", `/api/pages/${page.id}`, { as: owner });
    await call(env, "POST", `/api/pages/${page.id}/restore`, { as: owner });
    const rows = eventsOf(env).filter((e) => e.targetType === "page");
    expect(rows.map((e) => e.type)).toEqual(["page.created", "page.updated", "page.moved", "page.trashed", "page.restored"]);
    for (const e of rows) expect(e).toMatchObject({ targetId: page.id, spaceId: space.id, actorId: owner.id });
    expect(rows[1].data).toMatchObject({ versionNumber: 2, renamed: true, contentChanged: false });
  });

  test("a change that fails inside its transaction records nothing, and consumers hear nothing", async () => {
    const owner = await signUp(env, "owner@example.com");
    const space = await newSpace(env, owner, "DOCS");
    const heard: EventRow[] = [];
    onEvents(env.core, "test", (_core, batch) => heard.push(...batch));
    const before = eventsOf(env).length;
    // The real service runs and records page.created, then a later check in the same
    // transaction fails: the page and its event roll back together.
    expect(() =>
      env.core.tx(() => {
        createPage(env.core, callerFor(env, owner.id), { spaceId: space.id, title: "Doomed" });
        throw invalid("title", "was refused after the page was written");
      }),
    ).toThrow();
    await new Promise((r) => setTimeout(r, 0));
    expect(eventsOf(env)).toHaveLength(before);
    expect(env.core.sqlite.query("SELECT count(*) AS n FROM pages").get()).toEqual({ n: 0 });
    expect(heard).toEqual([]);
  });

  test("refused requests record nothing: a conflict, a bad move, a bad document", async () => {
    const owner = await signUp(env, "owner@example.com");
    const space = await newSpace(env, owner, "DOCS");
    const page = await newPage(env, owner, space.id, "P");
    const before = eventsOf(env).length;
    await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { title: "Q" } });
    const after = eventsOf(env).length;
    expect((await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { title: "R", baseVersion: 1 } })).status).toBe(409);
    expect((await call(env, "PUT", `/api/pages/${page.id}/move`, { as: owner, body: { parentPageId: page.id } })).status).toBe(400);
    expect((await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { contentJson: "[]" } })).status).toBe(400);
    expect(after - before).toBe(1);
    expect(eventsOf(env)).toHaveLength(after);
  });

  test("a registered consumer receives committed page events after the request", async () => {
    const owner = await signUp(env, "owner@example.com");
    const space = await newSpace(env, owner, "DOCS");
    const heard: string[] = [];
    onEvents(env.core, "test", (_core, batch) => heard.push(...batch.map((e) => e.type)));
    await newPage(env, owner, space.id, "P");
    await new Promise((r) => setTimeout(r, 0));
    expect(heard).toEqual(["page.created"]);
  });
});
