import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, ownerAndMember, PASSWORD, type TestEnv, type Who } from "../../tests/harness";
import { ROLE_ID } from "../identity/rights";
import { EMPTY_DOCUMENT_JSON } from "../content/schema";
import { doc, newSpace } from "../pages/testing";

let env: TestEnv;

/** Each test of the block starts from an instance of its own. */
function freshInstanceEach() {
  beforeEach(() => (env = makeEnv()));
  afterEach(() => env.close());
}

async function setup() {
  const { owner, member } = await ownerAndMember(env);
  const space = await newSpace(env, owner, "DOCS");
  return { owner, member, space };
}

const create = (who: Who, body: unknown) => call(env, "POST", "/api/templates", { as: who, body });
const names = async (who: Who, spaceId?: string) =>
  (await call(env, "GET", `/api/templates${spaceId ? `?spaceId=${spaceId}` : ""}`, { as: who })).body.map((t: { name: string }) => t.name);
const rows = () => (env.core.sqlite.query("SELECT count(*) AS n FROM templates").get() as { n: number }).n;

describe("POST /api/templates and GET /api/templates", () => {
  freshInstanceEach();

  test(
    "a wiki-wide template (no spaceId) and a space template; the list " + "without spaceId shows the wiki-wide ones, with it both",
    async () => {
      const { owner, member, space } = await setup();
      const wide = await create(owner, { name: "  Meeting notes ", description: "Agenda and actions" });
      expect(wide.status).toBe(201);
      expect(wide.body).toEqual({
        id: expect.any(String),
        spaceId: null,
        name: "Meeting notes",
        description: "Agenda and actions",
        contentJson: EMPTY_DOCUMENT_JSON,
        createdById: owner.id,
        createdAt: expect.any(String),
        updatedAt: wide.body.createdAt,
      });
      const own = await create(member, { spaceId: space.id, name: "how-to", contentJson: doc("Steps") });
      expect(own.body).toMatchObject({ spaceId: space.id, contentJson: doc("Steps"), description: "" });
      const other = await newSpace(env, owner, "OTHER");
      await create(owner, { spaceId: other.id, name: "Other's" });
      expect(await names(member)).toEqual(["Meeting notes"]);
      expect(await names(member, space.id)).toEqual(["how-to", "Meeting notes"]);
      expect(await names(member, other.id)).toEqual(["Meeting notes", "Other's"]);
    },
  );

  test("100 characters of name and 1,000 of description are fine", async () => {
    const { owner } = await setup();
    expect((await create(owner, { name: "n".repeat(100), description: "d".repeat(1000) })).status).toBe(201);
  });

  test("a description may hold several lines and tabs (CR LF becomes LF)", async () => {
    const { owner } = await setup();
    expect((await create(owner, { name: "Lines", description: "One\r\n\tTwo" })).body.description).toBe("One\n\tTwo");
  });

  test("an unknown space is 404 for POST and GET; an archived space 403; anonymous 401; a read-only token reads only", async () => {
    const { owner, space } = await setup();
    expect((await create(owner, { spaceId: "0190-missing", name: "T" })).status).toBe(404);
    expect((await call(env, "GET", "/api/templates?spaceId=0190-missing", { as: owner })).status).toBe(404);
    expect((await call(env, "GET", "/api/templates")).status).toBe(401);
    expect((await create({}, { name: "T" })).status).toBe(401);
    const ro = await mintToken(env, owner, { name: "ro", readOnly: true });
    expect((await create({ token: ro }, { name: "T" })).body.code).toBe("read_only_token");
    await create(owner, { name: "Wide" });
    expect(await names({ token: ro }, space.id)).toEqual(["Wide"]);
    await call(env, "POST", "/api/spaces/DOCS/archive", { as: owner });
    expect((await create(owner, { spaceId: space.id, name: "T" })).status).toBe(403);
    expect(rows()).toBe(1);
  });

  test(
    "wiki-wide templates are made by administrators only (spaces.create is " + "not enough); space templates need Edit on the space",
    async () => {
      const { owner, member, space } = await setup();
      // The member's role holds spaces.create by default: still refused.
      const refused = await create(member, { name: "Wide" });
      expect(refused).toMatchObject({ status: 403, body: { code: "forbidden" } });
      expect((await create(member, { spaceId: space.id, name: "Local" })).status).toBe(201);
      expect((await create(owner, { name: "By the owner" })).status).toBe(201);
      env.core.sqlite.query("UPDATE users SET role_id = ? WHERE id = ?").run(ROLE_ID.admin, member.id);
      expect((await create(member, { name: "By an administrator" })).status).toBe(201);
      expect(rows()).toBe(3);
    },
  );
});

describe("POST /api/templates refuses", () => {
  // A refusal stores nothing (each case checks the templates table after it), so the 14 cases
  // share one instance and space: making them for each was most of their time.
  let world: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    env = makeEnv();
    world = await setup();
  });
  afterAll(() => env.close());

  test.each([
    ["a blank name", { name: "  " }, "name"],
    ["a 101-character name", { name: "n".repeat(101) }, "name"],
    ["a 1,001-character description", { name: "T", description: "d".repeat(1001) }, "description"],
    ["contentJson that is not JSON", { name: "T", contentJson: "{nope" }, "contentJson"],
    [
      "contentJson with an unknown node",
      { name: "T", contentJson: JSON.stringify({ type: "doc", content: [{ type: "marquee" }] }) },
      "contentJson",
    ],
    ["contentJson that is an object, not text", { name: "T", contentJson: { type: "doc" } }, "contentJson"],
    ["no name", { description: "x" }, "name"],
    ["a name with a line feed", { name: "Two\nlines" }, "name"],
    ["a name with ESC", { name: "\u001B[31mRed" }, "name"],
    ["a name with a right-to-left override", { name: "gnp.\u202Eexe" }, "name"],
    ["a name with a lone surrogate", { name: "Half \uD83D" }, "name"],
    ["a description with NUL", { name: "T", description: "a\u0000b" }, "description"],
    ["a description with a C1 control", { name: "T", description: "a\u0085b" }, "description"],
    ["a description with a left-to-right isolate", { name: "T", description: "a\u2066b" }, "description"],
  ])("refuses %s: 400 on the field, nothing stored", async (_why, body, field) => {
    const { owner, space } = world;
    for (const spaceId of [undefined, space.id]) {
      const res = await create(owner, { spaceId, ...body });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe(field);
    }
    expect(rows()).toBe(0);
  });
});

describe("PUT and DELETE /api/templates/{id}", () => {
  freshInstanceEach();

  test("a wiki-wide template is changed and deleted by administrators only, not by members", async () => {
    const { owner, member } = await setup();
    const wide = (await create(owner, { name: "Wide" })).body;
    env.clock.advance(1000);
    const put = (who: Who, body: object) => call(env, "PUT", `/api/templates/${wide.id}`, { as: who, body });
    expect(await put(member, { name: "Mine now" })).toMatchObject({ status: 403, body: { code: "forbidden" } });
    expect((await call(env, "DELETE", `/api/templates/${wide.id}`, { as: member })).status).toBe(403);
    const byAdmin = await put(owner, { description: "Better", contentJson: doc("Body") });
    expect(byAdmin.body).toMatchObject({ name: "Wide", description: "Better", contentJson: doc("Body") });
    expect(byAdmin.body.updatedAt > byAdmin.body.createdAt).toBe(true);
    expect((await call(env, "DELETE", `/api/templates/${wide.id}`, { as: owner })).status).toBe(204);
    expect(rows()).toBe(0);
  });

  test(
    "its author gains nothing by it: a member's wiki-wide template (made before the rule, or " +
      "by an administrator since demoted) is the administrators' to change",
    async () => {
      const { owner, member } = await setup();
      env.core.sqlite.query("UPDATE users SET role_id = ? WHERE id = ?").run(ROLE_ID.admin, member.id);
      const wide = (await create(member, { name: "Wide" })).body;
      env.core.sqlite.query("UPDATE users SET role_id = ? WHERE id = ?").run(ROLE_ID.user, member.id);
      expect((await call(env, "PUT", `/api/templates/${wide.id}`, { as: member, body: { name: "Still mine?" } })).status).toBe(403);
      expect((await call(env, "DELETE", `/api/templates/${wide.id}`, { as: member })).status).toBe(403);
      expect((await call(env, "PUT", `/api/templates/${wide.id}`, { as: owner, body: { name: "Kept" } })).body.name).toBe("Kept");
    },
  );

  test("an administrator-tier role may change others' wiki-wide templates", async () => {
    const { owner, member } = await setup();
    const wide = (await create(owner, { name: "Wide" })).body;
    expect((await call(env, "PUT", `/api/templates/${wide.id}`, { as: member, body: { name: "X" } })).status).toBe(403);
    env.core.sqlite.query("UPDATE users SET role_id = ? WHERE id = ?").run(ROLE_ID.admin, member.id);
    expect((await call(env, "PUT", `/api/templates/${wide.id}`, { as: member, body: { name: "X" } })).status).toBe(200);
  });

  test("a space template is changed by anyone who may edit the space", async () => {
    const { owner, member, space } = await setup();
    const local = (await create(owner, { spaceId: space.id, name: "Local" })).body;
    expect((await call(env, "PUT", `/api/templates/${local.id}`, { as: member, body: { name: "Edited" } })).body.name).toBe("Edited");
    const ro = await mintToken(env, member, { name: "ro", readOnly: true });
    expect((await call(env, "DELETE", `/api/templates/${local.id}`, { as: { token: ro } })).status).toBe(403);
    await call(env, "POST", "/api/spaces/DOCS/archive", { as: owner });
    expect((await call(env, "PUT", `/api/templates/${local.id}`, { as: member, body: { name: "Again" } })).status).toBe(403);
    await call(env, "POST", "/api/spaces/DOCS/unarchive", { as: owner });
    expect((await call(env, "DELETE", `/api/templates/${local.id}`, { as: member })).status).toBe(204);
  });

  test.each([
    ["nothing to change", {}, "name"],
    ["a blank name", { name: " " }, "name"],
    ["a long description", { description: "d".repeat(1001) }, "description"],
    ["bad contentJson", { contentJson: "[]" }, "contentJson"],
    ["a name with a tab", { name: "a\tb" }, "name"],
    ["a description with DEL", { description: "a\u007Fb" }, "description"],
  ])("refuses %s: 400 on the field, nothing changed", async (_why, body, field) => {
    const { owner } = await setup();
    const wide = (await create(owner, { name: "Wide" })).body;
    expect(await call(env, "PUT", `/api/templates/${wide.id}`, { as: owner, body })).toMatchObject({ status: 400, body: { field } });
    expect((await call(env, "GET", "/api/templates", { as: owner })).body).toEqual([wide]);
  });

  test("an unknown template is 404", async () => {
    const { owner } = await setup();
    expect((await call(env, "PUT", "/api/templates/0190-missing", { as: owner, body: { name: "X" } })).status).toBe(404);
    expect((await call(env, "DELETE", "/api/templates/0190-missing", { as: owner })).status).toBe(404);
  });

  test("deleting a space removes its templates and keeps the wiki-wide ones", async () => {
    const { owner, space } = await setup();
    await create(owner, { spaceId: space.id, name: "Local" });
    await create(owner, { name: "Wide" });
    expect((await call(env, "DELETE", "/api/spaces/DOCS", { as: owner, body: { confirmKey: "DOCS", password: PASSWORD } })).status).toBe(
      204,
    );
    expect(env.core.sqlite.query("SELECT name FROM templates").all()).toEqual([{ name: "Wide" }]);
  });
});
