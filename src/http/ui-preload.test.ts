/**
 * The app page's Link header: its own stylesheet and script first, then the API answers its
 * first view reads, named only from the address (the answers keep their own checks).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, makeEnv, type TestEnv } from "../../tests/harness";
import { assetPreloads, firstViewLinkHeader, firstViewRequests, staticImports, treePreloads } from "./ui-preload";

const ID = "0190b7c2-0000-7000-8000-000000000000";

describe("the first view's preloads", () => {
  test("every address preloads who is signed in and the instance; a space's its space; a page's its page", () => {
    expect(firstViewRequests("/")).toEqual(["/api/auth/me", "/api/instance"]);
    expect(firstViewRequests("/login")).toEqual(["/api/auth/me", "/api/instance"]);
    expect(firstViewRequests("/s/ENG")).toEqual(["/api/auth/me", "/api/instance", "/api/spaces/ENG"]);
    expect(firstViewRequests("/s/ENG/trash")).toEqual(["/api/auth/me", "/api/instance", "/api/spaces/ENG"]);
    for (const path of [`/s/ENG/p/${ID}`, `/s/ENG/p/${ID}-a-title`, `/s/ENG/p/${ID}-a-title/edit`]) {
      expect(firstViewRequests(path)).toEqual(["/api/auth/me", "/api/instance", "/api/spaces/ENG", `/api/pages/${ID}`]);
    }
  });

  test("nothing that is not a key or a page id goes into the header", () => {
    expect(firstViewRequests("/s/EN%3E;rel/p/x")).toEqual(["/api/auth/me", "/api/instance"]);
    expect(firstViewRequests("/s/ENG/p/not-an-id")).toEqual(["/api/auth/me", "/api/instance", "/api/spaces/ENG"]);
    expect(firstViewLinkHeader("/s/a>b,c", [])).not.toMatch(/a>b/);
  });

  test("the page's stylesheet and script are read from its HTML, in that order, with the page's crossorigin", () => {
    const html =
      `<link rel="stylesheet" crossorigin href="/assets/index-a1.css"><script ` +
      `type="module" crossorigin src="/assets/index-b2.js"></script>`;
    expect(assetPreloads(html)).toEqual([
      "</assets/index-a1.css>; rel=preload; as=style; crossorigin=anonymous",
      "</assets/index-b2.js>; rel=modulepreload",
    ]);
  });

  test(
    "a view in a space also fetches the tree's chunk and the chunks it imports, " + "after the answers; no address outside a space does",
    () => {
      const names = ["index-e1.js", "PageTree-t1.js", "index-s1.js", "EditSession-x1.js"];
      const script = `import{a}from"/assets/index-e1.js";import{b}from"/assets/index-s1.js";var c=1;`;
      expect(staticImports(script)).toEqual(["index-e1.js", "index-s1.js"]);
      const tree = treePreloads(names, staticImports.bind(null, script));
      expect(tree).toEqual([
        "</assets/PageTree-t1.js>; rel=modulepreload",
        "</assets/index-e1.js>; rel=modulepreload",
        "</assets/index-s1.js>; rel=modulepreload",
      ]);
      const page = ["</assets/index-e1.js>; rel=modulepreload"];
      // The entry, named by the page already, is named once.
      expect(firstViewLinkHeader(`/s/ENG/p/${ID}`, page, tree).split(", ")).toEqual([
        page[0],
        ...firstViewRequests(`/s/ENG/p/${ID}`).map((p) => `<${p}>; rel=preload; as=fetch; crossorigin=anonymous`),
        tree[0],
        tree[2],
      ]);
      expect(firstViewLinkHeader("/login", page, tree)).not.toMatch(/PageTree/);
      expect(treePreloads(["index-e1.js"], () => [])).toEqual([]);
    },
  );
});

describe("the app's page", () => {
  let env: TestEnv;
  beforeAll(() => {
    env = makeEnv();
  });
  afterAll(() => env.close());

  test("answers a Link header: its assets, then the first view's answers, the same whoever asks", async () => {
    const res = await call(env, "GET", `/s/ENG/p/${ID}-a-title`);
    expect(res.status).toBe(200);
    const css = /\/assets\/[\w.-]+\.css/.exec(res.text)![0];
    const js = /\/assets\/[\w.-]+\.js/.exec(res.text)![0];
    const link = res.headers.get("link")!;
    expect(
      link.startsWith(
        [
          `<${css}>; rel=preload; as=style; crossorigin=anonymous`,
          `<${js}>; rel=modulepreload`,
          ...["/api/auth/me", "/api/instance", "/api/spaces/ENG", `/api/pages/${ID}`].map(
            (p) => `<${p}>; rel=preload; as=fetch; crossorigin=anonymous`,
          ),
        ].join(", ") + ", ",
      ),
    ).toBe(true);
    // Then the tree's code, which the sidebar imports after the first paint.
    expect(link).toMatch(/<\/assets\/PageTree-[\w-]+\.js>; rel=modulepreload/);
    expect((await call(env, "GET", "/login")).headers.get("link")).not.toMatch(/PageTree/);
    // Assets are no documents: no preloads of their own.
    expect((await call(env, "GET", js)).headers.get("link")).toBeNull();
  });
});
