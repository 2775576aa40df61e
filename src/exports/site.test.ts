import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, type TestEnv } from "../../tests/harness";
import { setSetting } from "../settings/service";
import { readProgress } from "../platform/progress";
import { PNG } from "../attachments/testing";
import { DEEP_WORD, SECRET_WORD, siteExport, siteFixture } from "./site-testing";
import { fileName, folderName, planSite } from "./site-paths";
import { SearchIndexBuilder, WORDS_PER_PAGE } from "./site-search";

let env: TestEnv;
beforeEach(() => {
  env = makeEnv();
});
afterEach(() => env.close());

const sha256 = (bytes: Uint8Array | string) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

async function makePublic(owner: { cookie: string }) {
  setSetting(env.core, "allowPublicSpaces", true);
  const res = await call(env, "PUT", "/api/admin/spaces/DOCS/public", { as: owner, body: { isPublic: true } });
  expect(res.status).toBe(200);
}

/** Everything in a zip of text files, joined: what must not appear anywhere is looked for here. */
const allText = (files: Map<string, Uint8Array>) => [...files.values()].map((f) => new TextDecoder().decode(f)).join("\n");

describe("the static site export", () => {
  test("a folder per page mirroring the tree, the front page at the root, the site's files, each attachment once", async () => {
    const f = await siteFixture(env);
    const site = await siteExport(env, f.owner, "DOCS");
    expect(site.res.status).toBe(200);
    expect(site.res.headers.get("content-type")).toBe("application/zip");
    expect(site.res.headers.get("content-disposition")).toContain('filename="DOCS-site.zip"');
    const paths = [...site.files.keys()];
    expect(paths).toEqual([
      "_site/style.css",
      "_site/site.js",
      "_site/tree.js",
      "getting-started/index.html",
      "getting-started/install/index.html",
      "getting-started/install/linux-setup/index.html",
      "getting-started/install/linux-setup/resume-管理/index.html",
      "getting-started/notes/index.html",
      "getting-started/notes-2/index.html",
      "secret-plans/index.html",
      "secret-plans/secret-child/index.html",
      "index.html",
      `_files/${sha256(PNG)}/pixel.png`,
      `_files/${sha256("a,b\n1,2\n")}/data_ sheet.csv`,
      `_files/${sha256("top secret bytes")}/secret.txt`,
      "_site/search-index.js",
    ]);
    // The reading styles (light and dark) and nothing from another host.
    const css = site.textOf("_site/style.css");
    expect(css).toContain(".prose");
    expect(css).toContain("prefers-color-scheme: dark");
    expect(allText(site.files)).not.toMatch(/(src|href)="(https?:)?\/\/(?!example\.com)/);
  });

  test("links between pages, files and the front page are relative; others keep their text", async () => {
    const f = await siteFixture(env);
    const site = await siteExport(env, f.member, "DOCS");
    const install = site.textOf("getting-started/install/index.html");
    // In the content: the deep page (fragment kept), the image and the file beside it, the front page.
    expect(install).toContain('<a href="../../getting-started/install/linux-setup/index.html#steps">the Linux steps</a>');
    expect(install).toMatch(/<img src="\.\.\/\.\.\/_files\/[0-9a-f]{64}\/pixel\.png" alt="pixel"/);
    expect(install).toContain(`href="../../_files/${sha256("a,b\n1,2\n")}/data_%20sheet.csv"`);
    expect(install).toContain('<a href="../../index.html">home</a>');
    expect(install).toContain('href="https://example.com/x"');
    // The member cannot see the secret page: no base URL configured, so the link keeps its text only.
    expect(install).toContain("<p>the plans and ");
    expect(install).not.toContain(f.secret.id);
    // The frame: style, scripts, breadcrumbs, the plain tree (ancestors, the page, its children), labels.
    expect(install).toContain('<link rel="stylesheet" href="../../_site/style.css">');
    expect(install).toContain('<script src="../../_site/tree.js"></script>');
    expect(install).toContain('data-page="1" data-root="../../"');
    expect(install).toMatch(
      new RegExp(
        String.raw`<nav class="breadcrumbs"[^>]*><a href="\.\.\/\.\.\/index.html">Team Docs<\/a>.*` +
          String.raw`<a href="\.\.\/\.\.\/getting-started\/index.html">Getting started<\/a>.*<span aria-current="page">Install<\/span>`,
      ),
    );
    expect(install).toContain(
      '<a href="../../getting-started/install/index.html" aria-current="page">Install</a><ul><li><a ' +
        'href="../../getting-started/install/linux-setup/index.html">Linux setup</a>',
    );
    expect(install).toContain('<li class="label-chip">how-to</li>');
    // The front page lists the top level.
    const front = site.textOf("index.html");
    expect(front).toContain('<a href="getting-started/index.html">Getting started</a>');
    expect(front).toContain('data-page="-1" data-root=""');
  });

  test("page links by id show the current title and become relative; one the reader may not see shows no title", async () => {
    const f = await siteFixture(env);
    expect((await call(env, "PUT", `/api/pages/${f.install.id}`, { as: f.owner, body: { title: "Installing" } })).status).toBe(200);
    for (const [who, secret] of [
      [f.member, "a page you cannot see"],
      [f.owner, "Secret plans"],
    ] as const) {
      const site = await siteExport(env, who, "DOCS");
      const path = [...site.files.keys()].find((p) => p.endsWith("index.html") && site.textOf(p).includes('data-type="pageLink"'))!;
      const depth = path.split("/").length - 1;
      const up = "../".repeat(depth);
      const html = site.textOf(path);
      expect(html).toContain(
        `<a class="page-link" data-type="pageLink" data-page-id="${f.install.id}" ` +
          `href="${up}getting-started/installing/index.html">Installing</a> then `,
      );
      expect(html).toContain(`<a href="${up}getting-started/index.html#top">the start</a>`);
      if (who === f.member) {
        expect(html).toContain('<span class="page-link page-link-unseen" data-type="pageLink">a page you cannot see</span>');
        expect(html).not.toContain(f.secret.id);
      } else expect(html).toContain(`>${secret}</a>`);
    }
  });

  test("links to pages left out point at the instance when its base URL is known", async () => {
    env.close();
    env = makeEnv({ env: { CAIRN_BASE_URL: "https://wiki.example.org" } });
    const f = await siteFixture(env);
    const install = (await siteExport(env, f.member, "DOCS")).textOf("getting-started/install/index.html");
    expect(install).toContain(`<a href="https://wiki.example.org/s/DOCS/p/${f.secret.id}-secret-plans" target="_blank"`);
  });

  test("a View-restricted branch is absent for those it shuts out: pages, tree, search index and files", async () => {
    const f = await siteFixture(env);
    const mine = await siteExport(env, f.owner, "DOCS");
    expect(mine.textOf("_site/tree.js")).toContain("Secret plans");
    expect(mine.textOf("_site/search-index.js")).toContain(SECRET_WORD);

    const theirs = await siteExport(env, f.member, "DOCS");
    expect(theirs.res.status).toBe(200);
    expect([...theirs.files.keys()].filter((p) => p.includes("secret"))).toEqual([]);
    const everything = allText(theirs.files);
    for (const leak of ["Secret plans", "Secret child", SECRET_WORD, "top secret bytes", f.secret.id, f.hidden.id])
      expect(everything).not.toContain(leak);
    expect(theirs.textOf("_site/search-index.js")).toContain(DEEP_WORD);
  });

  test("audience=anonymous: only what an anonymous reader of the public space sees, even for its admin", async () => {
    const f = await siteFixture(env);
    const refused = await siteExport(env, f.owner, "DOCS", "?audience=anonymous");
    expect(refused.res.status).toBe(400);
    expect(refused.json()).toMatchObject({ field: "audience" });
    expect(refused.json().detail ?? refused.json().title).toBeDefined();
    expect(refused.bytes.length).toBeGreaterThan(0);

    await makePublic(f.owner);
    const anon = await siteExport(env, f.owner, "DOCS", "?audience=anonymous");
    expect(anon.res.status).toBe(200);
    const everything = allText(anon.files);
    for (const leak of ["Secret plans", "Secret child", SECRET_WORD, "top secret bytes"]) expect(everything).not.toContain(leak);
    expect(anon.files.has("getting-started/install/linux-setup/index.html")).toBe(true);
    // An anonymous caller may export the public space too (the default audience is then theirs).
    const fromAnonymous = await siteExport(env, undefined, "DOCS");
    expect(fromAnonymous.res.status).toBe(200);
    expect(fromAnonymous.bytes).toEqual(anon.bytes);
  });

  test("published pages only: drafts (even one's own) and the trash stay out; an empty space still opens", async () => {
    const f = await siteFixture(env);
    const draft = await call(env, "POST", "/api/pages/draft", { as: f.owner, body: { spaceId: f.space.id } });
    expect(draft.status).toBe(201);
    expect((await call(env, "DELETE", `/api/pages/${f.notesB.id}`, { as: f.owner })).status).toBe(204);
    const site = await siteExport(env, f.owner, "DOCS");
    expect(site.files.has("getting-started/notes-2/index.html")).toBe(false);
    expect(site.files.has("getting-started/notes/index.html")).toBe(true);
    expect(allText(site.files)).not.toContain(draft.body.id);
    expect(site.textOf("_site/tree.js").match(/"Notes"/g)).toHaveLength(1);

    expect((await call(env, "POST", "/api/spaces", { as: f.owner, body: { key: "EMPTY", name: "Nothing yet" } })).status).toBe(201);
    const empty = await siteExport(env, f.owner, "EMPTY");
    expect([...empty.files.keys()]).toEqual(["_site/style.css", "_site/site.js", "_site/tree.js", "index.html", "_site/search-index.js"]);
    expect(empty.textOf("index.html")).toContain("This space has no pages.");
  });

  test("the same content gives the same bytes", async () => {
    const f = await siteFixture(env);
    const a = await siteExport(env, f.owner, "DOCS");
    const b = await siteExport(env, f.owner, "DOCS");
    expect(a.bytes).toEqual(b.bytes);
  });

  test("404 for a space the caller cannot read, 403 export_disabled, 400 naming audience or progress, progress done", async () => {
    const f = await siteFixture(env);
    expect((await siteExport(env, undefined, "DOCS")).res.status).toBe(404);
    expect((await siteExport(env, f.owner, "NOPE")).res.status).toBe(404);
    expect((await siteExport(env, f.owner, "DOCS", "?audience=everyone")).json()).toMatchObject({ field: "audience" });
    expect((await siteExport(env, f.owner, "DOCS", "?progress=bad")).json()).toMatchObject({ field: "progress" });

    const done = await siteExport(env, f.owner, "DOCS", "?progress=site-export-1");
    expect(done.res.status).toBe(200);
    expect(readProgress("site-export-1", f.owner.id)).toMatchObject({ done: true, percent: 100, error: null });
    expect(readProgress("site-export-1", f.member.id)).toBeNull();

    expect((await call(env, "PUT", "/api/spaces/DOCS/exports", { as: f.owner, body: { site: false } })).status).toBe(200);
    const off = await siteExport(env, f.member, "DOCS");
    expect(off.res.status).toBe(403);
    expect(off.json().code).toBe("export_disabled");
  });
});

describe("site paths", () => {
  test("folder names: letters of any script, no accents, never empty, reserved or starting with _", () => {
    expect(folderName("Café & Crème: été 2024!")).toBe("cafe-creme-ete-2024");
    expect(folderName("管理 設定")).toBe("管理-設定");
    expect(folderName("🚀")).toBe("page");
    expect(folderName("_site")).toBe("site");
    expect(folderName("CON")).toBe("con-page");
    expect(folderName("x".repeat(80))).toHaveLength(48);
    expect(fileName('a<b>:"c".txt')).toBe("a_b___c_.txt");
    expect(fileName("nul.txt")).toBe("_nul.txt");
  });

  test("siblings with the same name are told apart; depth and folders follow the tree", () => {
    const leaf = (id: string, title: string, children: any[] = []) => ({ id, title, emoji: null, children });
    const plan = planSite([leaf("a", "Notes", [leaf("b", "Notes"), leaf("c", "notes")]), leaf("d", "NOTES")]);
    expect(plan.map((p) => [p.dir, p.depth, p.parent])).toEqual([
      ["notes/", 1, -1],
      ["notes/notes/", 2, 0],
      ["notes/notes-2/", 2, 0],
      ["notes-2/", 1, -1],
    ]);
    expect(plan[0]!.children).toEqual([1, 2]);
  });

  test("deep down, names get shorter (8 letters at least) so paths stay near 200 characters", () => {
    let node = { id: "0", title: "A rather long title for a page in a deep tree", emoji: null, children: [] as any[] };
    const root = node;
    for (let i = 1; i < 12; i++) node.children.push((node = { id: String(i), title: node.title, emoji: null, children: [] }));
    const plan = planSite([root]);
    expect(plan[0]!.dir).toBe("a-rather-long-title-for-a-page-in-a-deep-tree/");
    expect(plan.map((p) => p.dir.split("/").at(-2)!.length)).toEqual([45, 45, 45, 45, 12, 8, 8, 8, 8, 8, 8, 8]);
    expect(plan[4]!.dir.length).toBeLessThanOrEqual(200);
  });
});

describe("the search index", () => {
  /** What site-client.js gets: the words and, per word, its pages decoded from base-36 deltas. */
  function load(builder: SearchIndexBuilder): Map<string, number[]> {
    const window: { CAIRN_SEARCH?: { v: number; words: string[]; postings: string[] } } = {};
    new Function("window", new TextDecoder().decode(builder.script()))(window);
    const index = window.CAIRN_SEARCH!;
    expect(index.v).toBe(1);
    expect([...index.words].sort()).toEqual(index.words);
    return new Map(
      index.words.map((w, i) => [
        w,
        index.postings[i]!.split(",").reduce<number[]>((out, d) => [...out, (out.at(-1) ?? 0) + parseInt(d, 36)], []),
      ]),
    );
  }

  test("each word once, sorted, with its pages; titles' words; accents and case folded; a bounded number per page", () => {
    const b = new SearchIndexBuilder();
    b.add(0, "Café plans", "The deploy runs nightly.");
    b.add(1, "Other", "deploy DEPLOY déploy 管理 設定");
    const many = Array.from({ length: WORDS_PER_PAGE + 50 }, (_, i) => `w${i}`).join(" ");
    b.add(40, "Long", many);
    const index = load(b);
    expect(index.get("cafe")).toEqual([0]);
    expect(index.get("deploy")).toEqual([0, 1]);
    expect(index.get("管理")).toEqual([1]);
    expect(index.get("long")).toEqual([40]);
    expect(index.get(`w${WORDS_PER_PAGE - 1}`)).toEqual([40]);
    expect(index.has(`w${WORDS_PER_PAGE}`)).toBe(false);
  });
});
