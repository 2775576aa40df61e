import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, type TestEnv } from "../../tests/harness";
import { MAX_MARKDOWN_BYTES } from "../content/markdown";
import { setSetting } from "../settings/service";
import { doc, newPage, ownerMemberAndPage, treeOf } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const RELEASE =
  "# Release 2.4\n\n- [x] Search finds **fragments**\n- [ ] Export to " +
  '[PDF](https://example.com/pdf)\n\n:::panel {kind="warning"}\n\nDeploy after 18:00.\n\n:::\n';
const blocks = (page: { contentJson: string }) => JSON.parse(page.contentJson).content.map((b: { type: string }) => b.type);

describe("contentMarkdown", () => {
  test("POST /api/pages takes the document as Markdown; GET …/markdown gives it back as text/markdown", async () => {
    const { owner, space } = await ownerMemberAndPage(env);
    const made = await call(env, "POST", "/api/pages", {
      as: owner,
      body: { spaceId: space.id, title: "Release", contentMarkdown: RELEASE },
    });
    expect(made.status).toBe(201);
    expect(blocks(made.body)).toEqual(["heading", "taskList", "panel"]);
    const md = await call(env, "GET", `/api/pages/${made.body.id}/markdown`, { as: owner });
    expect(md.status).toBe(200);
    expect(md.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(md.headers.get("cache-control")).toBe("private, no-store");
    expect(md.headers.get("x-content-type-options")).toBe("nosniff");
    expect(md.text).toBe(RELEASE);
    expect((await call(env, "HEAD", `/api/pages/${made.body.id}/markdown`, { as: owner })).status).toBe(200);
    // Search indexes the converted text like any other.
    expect((await call(env, "GET", "/api/search?q=fragments", { as: owner })).body.map((h: any) => h.pageId)).toEqual([made.body.id]);
  });

  test("PUT /api/pages/{id} with contentMarkdown adds a version; the same Markdown again changes nothing", async () => {
    const { owner, page } = await ownerMemberAndPage(env);
    const put = await call(env, "PUT", `/api/pages/${page.id}`, {
      as: owner,
      body: { contentMarkdown: "Hello **world**", baseVersion: 1 },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ title: "Guide", currentVersionNumber: 2 });
    expect(JSON.parse(put.body.contentJson).content[0].content[1]).toMatchObject({ text: "world", marks: [{ type: "bold" }] });
    const again = await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { contentMarkdown: "Hello **world**\n" } });
    expect(again.body.currentVersionNumber).toBe(2);
    // A stale base is the usual 409, Markdown or not.
    expect((await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { contentMarkdown: "x", baseVersion: 1 } })).status).toBe(
      409,
    );
  });

  test("drafts: autosave with PUT and publish with POST …/publish both take contentMarkdown", async () => {
    const { owner, space } = await ownerMemberAndPage(env);
    const draft = (await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } })).body;
    const saved = await call(env, "PUT", `/api/pages/${draft.id}`, { as: owner, body: { contentMarkdown: "- first thought" } });
    expect(blocks(saved.body)).toEqual(["bulletList"]);
    expect((await call(env, "GET", `/api/pages/${draft.id}/markdown`, { as: owner })).text).toBe("- first thought\n");
    const published = await call(env, "POST", `/api/pages/${draft.id}/publish`, {
      as: owner,
      body: { title: "Plan", contentMarkdown: "## Plan\n\n1. one\n2. two" },
    });
    expect(published.status).toBe(200);
    expect(published.body.status).toBe(1);
    expect(blocks(published.body)).toEqual(["heading", "orderedList"]);
  });

  test.each([
    ["POST", "/api/pages", (spaceId: string) => ({ spaceId, title: "Both" })],
    ["PUT", "/api/pages/{id}", () => ({})],
    ["POST", "/api/pages/{draft}/publish", () => ({ title: "Both" })],
  ])("%s %s with both contentJson and contentMarkdown is a 400 on contentMarkdown; nothing changes", async (method, path, body) => {
    const { owner, space, page } = await ownerMemberAndPage(env);
    const draft = (await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } })).body;
    const url = path.replace("{id}", page.id).replace("{draft}", draft.id);
    const res = await call(env, method, url, {
      as: owner,
      body: { ...body(space.id), contentJson: doc("json"), contentMarkdown: "markdown" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation_failed", field: "contentMarkdown" });
    expect(res.body.detail).toContain("either as contentJson or as contentMarkdown, not both");
    expect((await call(env, "GET", `/api/pages/${page.id}`, { as: owner })).body.currentVersionNumber).toBe(1);
    expect((await call(env, "GET", `/api/pages/${draft.id}`, { as: owner })).body.status).toBe(0);
    expect((await treeOf(env, owner, space.id)).map((n) => n.title)).toEqual(["Guide"]);
  });
});

describe("hostile contentMarkdown over HTTP", () => {
  test("<script> is stored as text only, and comes back escaped", async () => {
    const { owner, space } = await ownerMemberAndPage(env);
    const made = await call(env, "POST", "/api/pages", {
      as: owner,
      body: { spaceId: space.id, title: "Raw", contentMarkdown: "<script>alert(1)</script>" },
    });
    expect(made.status).toBe(201);
    expect(JSON.parse(made.body.contentJson).content).toEqual([
      { type: "paragraph", content: [{ type: "text", text: "<script>alert(1)</script>" }] },
    ]);
    expect((await call(env, "GET", `/api/pages/${made.body.id}/markdown`, { as: owner })).text).toBe(
      "&lt;script&gt;alert(1)&lt;/script&gt;\n",
    );
  });

  test.each([
    ["a javascript: link", "[click](javascript:alert(1))", /scheme "javascript:" is not allowed/],
    ["a javascript: link hidden in a character reference", "[click](java&#x73;cript:alert(1))", /scheme "javascript:" is not allowed/],
    ["10,000 nested quotes", ">".repeat(10_000), /nested too deeply/],
    ["a 5 MB body", "a".repeat(5_000_000), /^The Markdown must be text of at most/],
    ["over 1 MiB", "```\n" + "x".repeat(MAX_MARKDOWN_BYTES) + "\n```", /^The Markdown must be text of at most/],
  ])("%s: a 400 on contentMarkdown; nothing is stored", async (_, contentMarkdown, detail) => {
    const { owner, space, page } = await ownerMemberAndPage(env);
    const made = await call(env, "POST", "/api/pages", { as: owner, body: { spaceId: space.id, title: "Hostile", contentMarkdown } });
    expect(made.status).toBe(400);
    expect(made.body.field).toBe("contentMarkdown");
    expect(made.body.detail).toMatch(detail);
    const put = await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { contentMarkdown } });
    expect(put.status).toBe(400);
    expect((await treeOf(env, owner, space.id)).map((n) => n.title)).toEqual(["Guide"]);
    expect((await call(env, "GET", `/api/pages/${page.id}`, { as: owner })).body.currentVersionNumber).toBe(1);
  });
});

describe("GET /api/pages/{id}/markdown", () => {
  test("who may not read the page gets the 404 of a page that does not exist", async () => {
    const { owner, member, space, page } = await ownerMemberAndPage(env);
    const draft = (await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } })).body;
    const restricted = await newPage(env, owner, space.id, "Secret", { contentJson: doc("secret") });
    await call(env, "POST", `/api/pages/${restricted.id}/restrictions`, {
      as: owner,
      body: { principalType: 0, principalId: owner.id, operation: 0 },
    });
    const missing = await call(env, "GET", "/api/pages/0190-missing/markdown", { as: member });
    expect(missing.status).toBe(404);
    for (const id of [draft.id, restricted.id]) {
      const hidden = await call(env, "GET", `/api/pages/${id}/markdown`, { as: member });
      expect(hidden.status).toBe(404);
      expect(hidden.text).toBe(missing.text);
    }
    expect((await call(env, "GET", `/api/pages/${page.id}/markdown`, {})).status).toBe(404);
    expect((await call(env, "GET", `/api/pages/${page.id}/markdown`, { as: member })).status).toBe(200);
  });

  test("anonymous reads of a public page carry the page's ETag and answer 304 while it is unchanged", async () => {
    const { owner, page } = await ownerMemberAndPage(env);
    await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { contentMarkdown: "Public *words*" } });
    expect((await call(env, "PUT", "/api/admin/spaces/DOCS/public", { as: owner, body: { isPublic: true } })).status).toBe(200);
    setSetting(env.core, "allowPublicSpaces", true);
    const first = await call(env, "GET", `/api/pages/${page.id}/markdown`);
    expect(first.text).toBe("Public *words*\n");
    expect(first.headers.get("cache-control")).toBe("public, no-cache");
    const etag = first.headers.get("etag")!;
    expect(etag).toBe((await call(env, "GET", `/api/pages/${page.id}`)).headers.get("etag")!);
    const again = await call(env, "GET", `/api/pages/${page.id}/markdown`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { contentMarkdown: "Changed" } });
    const changed = await call(env, "GET", `/api/pages/${page.id}/markdown`, { headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.text).toBe("Changed\n");
  });

  test("is described in the OpenAPI document: text/markdown with an example; the bodies' contentMarkdown too", async () => {
    const api = (await call(env, "GET", "/api/openapi.json")).body;
    const op = api.paths["/api/pages/{id}/markdown"].get;
    expect(op.responses["200"].content["text/markdown"].example).toStartWith("# Release");
    expect(op.responses["404"].content["application/problem+json"].schema).toEqual({ $ref: "#/components/schemas/Problem" });
    for (const [path, method] of [
      ["/api/pages", "post"],
      ["/api/pages/{id}", "put"],
      ["/api/pages/{id}/publish", "post"],
    ]) {
      const field = api.paths[path][method].requestBody.content["application/json"].schema.properties.contentMarkdown;
      expect(field).toMatchObject({ type: "string", maxLength: MAX_MARKDOWN_BYTES });
      expect(field.examples[0]).toContain(":::panel");
    }
  });
});
