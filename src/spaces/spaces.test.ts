import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, ownerAndMember, signUp, type TestEnv } from "../../tests/harness";
import { eventsOf, newSpace } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

describe("POST /api/spaces", () => {
  test("creates a space with its key upper-cased, defaults filled in", async () => {
    const owner = await signUp(env, "owner@example.com");
    const res = await call(env, "POST", "/api/spaces", {
      as: owner,
      body: { key: "docs", name: "  Team   docs ", description: "Where things live" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      key: "DOCS",
      name: "Team docs",
      description: "Where things live",
      isPublic: false,
      publicComments: false,
      archived: false,
      iconKind: 0,
      treeStyle: 0,
      exports: { markdown: true, html: true, pdf: true, site: true, pack: true },
      homepageId: null,
      createdById: owner.id,
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(eventsOf(env, "space.created").map((e) => e.targetId)).toEqual([res.body.id]);
  });

  test.each([
    ["too short", "A"],
    ["digit first", "1ABC"],
    ["symbols", "DO-CS"],
    ["space inside", "DO CS"],
    ["51 characters", "A".repeat(51)],
    ["empty", ""],
    ["non-ASCII letter", "DÖCS"],
  ])("refuses a key that is %s (400 on key)", async (_why, key) => {
    const owner = await signUp(env, "owner@example.com");
    const res = await call(env, "POST", "/api/spaces", { as: owner, body: { key, name: "X" } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("key");
  });

  test("accepts 2 and 50 characters", async () => {
    const owner = await signUp(env, "owner@example.com");
    for (const key of ["AB", "A".repeat(49) + "9"]) {
      expect((await call(env, "POST", "/api/spaces", { as: owner, body: { key, name: "X" } })).status).toBe(201);
    }
  });

  test("a key already taken, in any case, is 409 key_taken", async () => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
    const res = await call(env, "POST", "/api/spaces", { as: owner, body: { key: "docs", name: "Again" } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("key_taken");
  });

  test("a blank name is 400 on name", async () => {
    const owner = await signUp(env, "owner@example.com");
    const res = await call(env, "POST", "/api/spaces", { as: owner, body: { key: "DOCS", name: "   " } });
    expect(res).toMatchObject({ status: 400, body: { field: "name" } });
  });

  test("needs the right spaces.create; anonymous is 401; read-only token is 403", async () => {
    const { owner, member } = await ownerAndMember(env);
    env.core.sqlite.run("UPDATE roles SET permissions = '[\"tokens.use\"]' WHERE name = 'User'");
    const refused = await call(env, "POST", "/api/spaces", { as: member, body: { key: "MINE", name: "Mine" } });
    expect(refused).toMatchObject({ status: 403, body: { code: "permission_required", permission: "spaces.create" } });
    expect((await call(env, "POST", "/api/spaces", { body: { key: "ANON", name: "X" } })).status).toBe(401);
    const ro = await mintToken(env, owner, { name: "ro", readOnly: true });
    expect((await call(env, "POST", "/api/spaces", { as: { token: ro }, body: { key: "RO", name: "X" } })).body.code).toBe(
      "read_only_token",
    );
    const full = await mintToken(env, owner);
    expect((await call(env, "POST", "/api/spaces", { as: { token: full }, body: { key: "TOK", name: "X" } })).status).toBe(201);
  });
});

describe("GET /api/spaces and /api/spaces/{key}", () => {
  test("lists by name; archived spaces only with includeArchived=true", async () => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "BETA", "Beta");
    await newSpace(env, owner, "ALPHA", "Alpha");
    await newSpace(env, owner, "OLD", "Old");
    expect((await call(env, "POST", "/api/spaces/old/archive", { as: owner })).body.archived).toBe(true);
    const list = await call(env, "GET", "/api/spaces", { as: owner });
    expect(list.body.map((s: any) => s.key)).toEqual(["ALPHA", "BETA"]);
    const all = await call(env, "GET", "/api/spaces?includeArchived=true", { as: owner });
    expect(all.body.map((s: any) => s.key)).toEqual(["ALPHA", "BETA", "OLD"]);
  });

  test("reads one by key in any case; unknown and malformed keys are 404", async () => {
    const owner = await signUp(env, "owner@example.com");
    const space = await newSpace(env, owner, "DOCS");
    expect((await call(env, "GET", "/api/spaces/docs", { as: owner })).body.id).toBe(space.id);
    expect((await call(env, "GET", "/api/spaces/NOPE", { as: owner })).status).toBe(404);
    expect((await call(env, "GET", "/api/spaces/no-pe", { as: owner })).status).toBe(404);
  });

  test("anonymous callers see nothing: an empty list, and 404 identical to a missing space", async () => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
    expect((await call(env, "GET", "/api/spaces")).body).toEqual([]);
    const hidden = await call(env, "GET", "/api/spaces/DOCS");
    const missing = await call(env, "GET", "/api/spaces/NOPE");
    expect(hidden.status).toBe(404);
    expect(hidden.text).toBe(missing.text);
  });
});

describe("PUT /api/spaces/{key}", () => {
  test("changes only the fields sent and records space.updated", async () => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS", "Docs");
    const res = await call(env, "PUT", "/api/spaces/DOCS", {
      as: owner,
      body: { description: "New", iconKind: 1, iconValue: "📚", iconColor: "#AABBCC", treeStyle: 2 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Docs", description: "New", iconKind: 1, iconValue: "📚", iconColor: "#aabbcc", treeStyle: 2 });
    expect(eventsOf(env, "space.updated")).toHaveLength(1);
  });

  test.each([
    ["iconKind", "out of range", { iconKind: 3 }],
    ["treeStyle", "out of range", { treeStyle: -1 }],
    ["iconColor", "not #rrggbb", { iconColor: "red" }],
    ["name", "blank", { name: "" }],
    ["name", "over 100 characters", { name: "x".repeat(101) }],
  ])("refuses %s %s (400 on the field)", async (field, _why, body) => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
    const res = await call(env, "PUT", "/api/spaces/DOCS", { as: owner, body });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  // The name is one line, the description several (platform/text.ts); both as created and as changed.
  test.each([
    ["name", "a tab", "Tab\there"],
    ["name", "a line feed", "Two\nlines"],
    ["name", "NUL", "Nul\u0000"],
    ["name", "ESC", "\u001B[31mRed"],
    ["name", "a right-to-left override", "Docs\u202E"],
    ["name", "a lone surrogate", "Half \uD83D"],
    ["description", "DEL", "a\u007Fb"],
    ["description", "a C1 control", "a\u0085b"],
    ["description", "a first-strong isolate", "a\u2068b"],
    ["description", "a vertical tab", "a\u000Bb"],
  ])("refuses a %s with %s, on create and on change (400 on the field)", async (field, _why, text) => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
    const created = await call(env, "POST", "/api/spaces", { as: owner, body: { key: "MORE", name: "More", [field]: text } });
    expect(created).toMatchObject({ status: 400, body: { field } });
    const changed = await call(env, "PUT", "/api/spaces/DOCS", { as: owner, body: { [field]: text } });
    expect(changed).toMatchObject({ status: 400, body: { field } });
    expect(changed.body.detail).toContain("must not contain control characters");
    expect((await call(env, "GET", "/api/spaces", { as: owner })).body.map((s: { key: string }) => s.key)).toEqual(["DOCS"]);
  });

  test("a description keeps its lines and tabs (CR LF becomes LF)", async () => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
    expect((await call(env, "PUT", "/api/spaces/DOCS", { as: owner, body: { description: "One\r\n\tTwo" } })).body.description).toBe(
      "One\n\tTwo",
    );
  });

  test("only a space admin administers the space: the creator, not the instance owner until recover-access", async () => {
    const { owner, member } = await ownerAndMember(env);
    await newSpace(env, member, "MINE");
    await newSpace(env, owner, "THEIRS");
    expect((await call(env, "PUT", "/api/spaces/THEIRS", { as: member, body: { name: "Taken" } })).status).toBe(403);
    expect((await call(env, "PUT", "/api/spaces/MINE", { as: member, body: { name: "Fine" } })).status).toBe(200);
    expect((await call(env, "PUT", "/api/spaces/MINE", { as: owner, body: { name: "Admin" } })).status).toBe(403);
    expect((await call(env, "POST", "/api/admin/spaces/MINE/recover-access", { as: owner })).status).toBe(200);
    expect((await call(env, "PUT", "/api/spaces/MINE", { as: owner, body: { name: "Admin" } })).status).toBe(200);
  });
});

describe("archive and exports", () => {
  test("an archived space refuses settings changes until unarchived", async () => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
    await call(env, "POST", "/api/spaces/DOCS/archive", { as: owner });
    const refused = await call(env, "PUT", "/api/spaces/DOCS", { as: owner, body: { name: "X" } });
    expect(refused).toMatchObject({ status: 403, body: { code: "forbidden", title: "This space is archived" } });
    expect((await call(env, "PUT", "/api/spaces/DOCS/exports", { as: owner, body: { pdf: false } })).status).toBe(403);
    const back = await call(env, "POST", "/api/spaces/DOCS/unarchive", { as: owner });
    expect(back.body).toMatchObject({ archived: false, archivedAt: null });
    expect((await call(env, "PUT", "/api/spaces/DOCS", { as: owner, body: { name: "X" } })).status).toBe(200);
    expect(
      eventsOf(env)
        .filter((e) => e.targetType === "space")
        .map((e) => e.type),
    ).toEqual(["space.created", "space.archived", "space.unarchived", "space.updated"]);
  });

  test("archiving twice changes nothing the second time", async () => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
    const first = await call(env, "POST", "/api/spaces/DOCS/archive", { as: owner });
    const second = await call(env, "POST", "/api/spaces/DOCS/archive", { as: owner });
    expect(second.body.archivedAt).toBe(first.body.archivedAt);
    expect(eventsOf(env, "space.archived")).toHaveLength(1);
  });

  test("PUT exports sets the switches sent and keeps the others", async () => {
    const owner = await signUp(env, "owner@example.com");
    await newSpace(env, owner, "DOCS");
    const res = await call(env, "PUT", "/api/spaces/DOCS/exports", { as: owner, body: { pdf: false, pack: false } });
    expect(res.status).toBe(200);
    expect(res.body.exports).toEqual({ markdown: true, html: true, pdf: false, site: true, pack: false });
    const bad = await call(env, "PUT", "/api/spaces/DOCS/exports", { as: owner, body: { pdf: "no" } });
    expect(bad).toMatchObject({ status: 400, body: { field: "pdf" } });
  });

  test("a member who did not create the space cannot archive it", async () => {
    const { owner, member } = await ownerAndMember(env);
    await newSpace(env, owner, "DOCS");
    expect((await call(env, "POST", "/api/spaces/DOCS/archive", { as: member })).status).toBe(403);
    expect((await call(env, "POST", "/api/spaces/NOPE/archive", { as: member })).status).toBe(404);
  });
});
