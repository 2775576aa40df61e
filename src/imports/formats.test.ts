/**
 * The other archives through the route: a zip of Markdown files and a Confluence HTML export
 * are detected, converted (from-markdown/, from-confluence/) and written as packs are.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { PNG } from "../attachments/testing";
import { confluenceExport } from "./from-confluence/testing";
import type { ImportedSpace } from "./model";
import { planImport } from "./plan";
import { importZip, zipOf } from "./testing";

let env: TestEnv;
let owner: Who & { id: string };
beforeAll(async () => {
  env = makeEnv();
  ({ owner } = await ownerAndMember(env));
});
afterAll(() => env.close());

async function pageTitled(key: string, title: string) {
  const row = env.core.sqlite
    .query(
      "SELECT p.id, p.parent_id AS parentId, p.content_json AS content FROM pages p JOIN " +
        "spaces s ON s.id = p.space_id WHERE s.key = ? AND p.title = ?",
    )
    .get(key, title) as { id: string; parentId: string | null; content: string };
  expect(row).toBeTruthy();
  return row;
}

test("a zip of Markdown files: folders give the tree, relative links and images point at the new rows", async () => {
  const zip = await zipOf([
    ["Guides/Setup.md", "---\ntitle: Setting up\n---\nSee [the overview](../Overview.md) and ![diagram](img/diagram.png).\n"],
    ["Guides/img/diagram.png", PNG],
    ["Overview.md", "# Overview\n\nRead [[Setup]] first.\n\n> [!NOTE]\n> Panels come along.\n"],
  ]);
  const res = await importZip(env, owner, zip, { key: "NOTES", name: "Notes" });
  expect(res.status).toBe(201);
  expect(res.body.format).toBe("markdown");
  expect(res.body.space).toMatchObject({ key: "NOTES", name: "Notes", canAdmin: true });
  expect(res.body.counts).toMatchObject({ pages: 3, attachments: 1 });
  const setup = await pageTitled("NOTES", "Setting up");
  const guides = await pageTitled("NOTES", "Guides");
  const overview = await pageTitled("NOTES", "Overview");
  expect(setup.parentId).toBe(guides.id);
  expect(setup.content).toContain(`"href":"/p/${overview.id}"`);
  const attachment = (await call(env, "GET", `/api/pages/${setup.id}/attachments`, { as: owner })).body[0];
  expect(attachment).toMatchObject({ filename: "diagram.png", contentType: "image/png" });
  expect(setup.content).toContain(`"src":"/api/attachments/${attachment.id}/view"`);
  expect(overview.content).toContain(`"href":"/p/${setup.id}"`);
  // Links between imported pages are by id, and so are their backlinks.
  expect((await call(env, "GET", `/api/pages/${overview.id}/backlinks`, { as: owner })).body.map((p: { id: string }) => p.id)).toEqual([
    setup.id,
  ]);
  expect(overview.content).toContain('"type":"panel"');
  // The pages name who brought them in and from where, never "someone".
  const versions = (await call(env, "GET", `/api/pages/${setup.id}/versions`, { as: owner })).body;
  expect(versions.map((v: any) => [v.changeComment, v.authorId, v.authorName])).toEqual([["Imported from Setup.md", owner.id, "owner"]]);
  const page = (await call(env, "GET", `/api/pages/${setup.id}`, { as: owner })).body;
  expect([page.createdById, page.updatedById]).toEqual([owner.id, owner.id]);
});

test("a Confluence HTML export: its tree from the breadcrumbs, its panels, its attachments", async () => {
  const files = confluenceExport(
    "Engineering",
    "ENG",
    [
      { file: "Home_1.html", title: "Home", ancestors: [], body: '<p>Welcome. See <a href="Setup_2.html">Setup</a>.</p>' },
      {
        file: "Setup_2.html",
        title: "Setup",
        ancestors: ["Home_1.html"],
        body:
          '<div class="confluence-information-macro confluence-information-macro-warning"><div ' +
          'class="confluence-information-macro-body"><p>Careful.</p></div></div><p><img class="confluence-embedded-image" ' +
          'src="attachments/2/10.png"></p>',
        attachments: [{ path: "attachments/2/10.png", name: "screen.png", type: "image/png" }],
      },
    ],
    { "attachments/2/10.png": PNG },
  );
  const res = await importZip(env, owner, await zipOf(Object.entries(files)), { key: "ENG" });
  expect(res.status).toBe(201);
  expect(res.body.format).toBe("confluence");
  const home = await pageTitled("ENG", "Home");
  const setup = await pageTitled("ENG", "Setup");
  expect(setup.parentId).toBe(home.id);
  expect(home.content).toContain(`"href":"/p/${setup.id}"`);
  // Confluence's "warning" macro is its red one: an error panel here.
  expect(setup.content).toContain('"kind":"error"');
  const attachment = (await call(env, "GET", `/api/pages/${setup.id}/attachments`, { as: owner })).body[0];
  expect(attachment.filename).toBe("screen.png");
  expect(setup.content).toContain(`/api/attachments/${attachment.id}/view`);
  const versions = (await call(env, "GET", `/api/pages/${setup.id}/versions`, { as: owner })).body;
  expect(versions[0]).toMatchObject({ authorId: owner.id, changeComment: expect.stringMatching(/^Imported from Confluence/) });
});

test(
  "a construct that cannot be stored never refuses a Markdown or Confluence " + "import nor empties its page: it is kept as text and named",
  async () => {
    const page = (format: "markdown" | "cairn-pack"): ImportedSpace => ({
      format,
      space: { name: "Odd", key: "ODD" },
      authors: [],
      pages: [
        {
          ref: "p1",
          parent: null,
          position: 0,
          title: "Odd",
          emoji: null,
          fullWidth: false,
          createdBy: null,
          updatedBy: null,
          labels: [],
          comments: [],
          attachments: [],
          sourcePath: "Odd.md",
          versions: [
            {
              title: "Odd",
              changeComment: null,
              author: null,
              content: {
                type: "doc",
                content: [
                  {
                    type: "paragraph",
                    content: [
                      { type: "text", text: "Kept. " },
                      { type: "mention", attrs: { label: "Nobody" } },
                    ],
                  },
                  { type: "blink", content: [{ type: "text", text: "Blinking" }] },
                  { type: "paragraph", content: [{ type: "text", text: "The rest." }] },
                ],
              },
            },
          ],
        },
      ],
      templates: [],
      blobs: new Map(),
      homepage: null,
      mapped: [],
      skipped: [],
    });
    const plan = await planImport(env.core, page("markdown"), {
      key: "ODD",
      name: "Odd",
      ownerId: owner.id,
      creditAccounts: true,
      now: Date.now(),
    });
    const doc = JSON.parse(plan.pages[0].contentJson!);
    expect(JSON.stringify(doc)).toContain('"text":"Kept. @Nobody"');
    expect(doc.content.map((n: any) => n.type)).toEqual(["paragraph", "paragraph", "paragraph"]);
    expect(plan.skipped.map((s) => s.reason)).toEqual([
      expect.stringMatching(/^a construct that cannot be stored is kept as text: "@Nobody" \(id: is required/),
      expect.stringMatching(/^a construct that cannot be stored is kept as text: "Blinking" \(unknown node type "blink"/),
    ]);
    // A pack is Cairn's own: one that does not fit is damaged, and refused.
    await expect(
      planImport(env.core, page("cairn-pack"), { key: "ODD", name: "Odd", ownerId: owner.id, creditAccounts: true, now: Date.now() }),
    ).rejects.toThrow(/blink|id/);
  },
);

test(
  "titles and names from an archive lose the characters a title may not hold " +
    "(invisible ones, bidi overrides); a name sent with them is a 400",
  async () => {
    const zip = await zipOf([["Notes.md", '---\ntitle: "Re\u200Bport \u202Egnp.exe"\n---\nBody.\n']]);
    const refused = await importZip(env, owner, zip, { key: "TIDY", name: "Tea\u200Bm" });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors)).toEqual(["name"]);
    const res = await importZip(env, owner, zip, { key: "TIDY", name: "Team" });
    expect(res.status).toBe(201);
    const titles = env.core.sqlite
      .query("SELECT p.title FROM pages p JOIN spaces s ON s.id = p.space_id WHERE s.key = 'TIDY'")
      .all() as Array<{ title: string }>;
    expect(titles.map((t) => t.title)).toEqual(["Report gnp.exe"]);
  },
);
