import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { importZip, zipOf } from "../imports/testing";

let env: TestEnv;
let owner: Who & { id: string };
let member: Who & { id: string };
beforeEach(async () => {
  env = makeEnv();
  ({ owner, member } = await ownerAndMember(env));
});
afterEach(() => env.close());

const treeOf = async (who: Who, key: string) =>
  (await call(env, "GET", `/api/pages/tree?spaceId=${key}`, { as: who })).body as { id: string; title: string }[];

describe("a new space's welcome page", () => {
  test("asked for (as the web UI does): made with the space, as its home page, explaining the basics", async () => {
    const made = await call(env, "POST", "/api/spaces", { as: owner, body: { key: "ENG", name: "Engineering", welcomePage: true } });
    expect(made.status).toBe(201);
    expect(made.body.homepageId).toBeString();
    const tree = await treeOf(owner, "ENG");
    expect(tree.map((p) => p.title)).toEqual(["Welcome to Engineering"]);
    expect(tree[0]!.id).toBe(made.body.homepageId);
    expect((await call(env, "GET", "/api/spaces/ENG", { as: member })).body.homepageId).toBe(made.body.homepageId);

    // It reads well as Markdown: the basics, each under its own heading, in whole sentences.
    const markdown = (await call(env, "GET", `/api/pages/${made.body.homepageId}/markdown`, { as: member })).text;
    for (const heading of ["## Write and edit", "## Link pages", "## Discuss", "## Find things", "## Who can see this space"])
      expect(markdown).toContain(heading);
    for (const words of [
      "Press **E**",
      "Type **/**",
      "Type **\\[\\[**",
      "**Comment**",
      "Type **@**",
      "**Ctrl K**",
      "**Settings → Access**",
    ])
      expect(markdown).toContain(words);
    expect(markdown).toStartWith("This space holds the pages of Engineering.");
    for (const line of markdown.split("\n").filter((l) => l.startsWith("- "))) expect(line, line).toMatch(/[.:]$/);
    // Published by its creator, once: one version, one page.created.
    const versions = await call(env, "GET", `/api/pages/${made.body.homepageId}/versions`, { as: owner });
    expect(versions.body.length ?? versions.body.versions?.length).toBe(1);
  });

  test("scripts get the empty space they asked for; an imported space brings its own pages and no welcome page", async () => {
    const plain = await call(env, "POST", "/api/spaces", { as: owner, body: { key: "API", name: "Scripted" } });
    expect(plain.body.homepageId).toBeNull();
    expect(await treeOf(owner, "API")).toEqual([]);
    const imported = await importZip(env, owner, await zipOf([["Guide.md", "# Guide\n\nHello.\n"]]), { key: "DOCS", name: "Docs" });
    expect(imported.status).toBe(201);
    expect((await treeOf(owner, "DOCS")).map((p) => p.title)).toEqual(["Guide"]);
  });

  test("a space whose creation fails leaves no page behind; the home page trashed gives the space its recent pages back", async () => {
    await call(env, "POST", "/api/spaces", { as: owner, body: { key: "ENG", name: "Engineering", welcomePage: true } });
    const again = await call(env, "POST", "/api/spaces", { as: owner, body: { key: "ENG", name: "Again", welcomePage: true } });
    expect(again.status).toBe(409);
    expect(env.core.sqlite.query("SELECT count(*) AS n FROM pages").get()).toEqual({ n: 1 });
    const space = (await call(env, "GET", "/api/spaces/ENG", { as: owner })).body;
    expect((await call(env, "DELETE", `/api/pages/${space.homepageId}`, { as: owner })).status).toBe(204);
    expect((await call(env, "GET", "/api/spaces/ENG", { as: owner })).body.homepageId).toBeNull();
  });
});
