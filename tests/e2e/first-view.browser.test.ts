/**
 * A page opened cold (a new browser, nothing cached): the page's Link header has the browser
 * fetch the first view's answers with the page, and the app takes exactly those, asking the
 * server for each once (none fetched twice, no preload left unused); what a caller may not
 * read still shows as not found, and a visitor without a session is still sent to sign in.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { visit, type Visit } from "./harness";
import { newPage, newSpace, ownerWorld, type World } from "./fixtures";

let world: World;
let space: { id: string; key: string };
let pageId: string;

beforeAll(async () => {
  world = await ownerWorld();
  space = await newSpace(world.owner.page, "COLD", "Cold views");
  pageId = (await newPage(world.owner.page, space.id, "Opened cold", { text: "The body of the page opened cold." })).id;
});
afterAll(async () => world?.close());

/** A new context (no cache) with the owner's session; records every request and console warning. */
async function coldVisit(signedIn = true): Promise<Visit & { requests: string[]; warnings: string[] }> {
  const v = await visit(world.cairn);
  if (signedIn) await v.context.addCookies(world.storage.cookies);
  const requests: string[] = [];
  const warnings: string[] = [];
  v.page.on("request", (r) => requests.push(new URL(r.url()).pathname));
  v.page.on("console", (m) => (m.type() === "warning" || m.type() === "error") && warnings.push(m.text()));
  return Object.assign(v, { requests, warnings });
}

describe("a page opened cold", () => {
  test("its answers are fetched with the page, each once, and the page is drawn from them", async () => {
    const v = await coldVisit();
    try {
      await v.page.goto(`/s/COLD/p/${pageId}-opened-cold`);
      await v.page.locator("main .prose p", { hasText: "The body of the page opened cold." }).waitFor();
      await v.page.locator("aside").getByText("Opened cold", { exact: true }).waitFor();
      await v.page.waitForLoadState("networkidle");
      // A preload the app did not take would be fetched again, or warned about 3 s after the load.
      await v.page.waitForTimeout(3_500);
      const count = (path: string) => v.requests.filter((p) => p === path).length;
      for (const path of ["/api/auth/me", "/api/instance", "/api/spaces/COLD", `/api/pages/${pageId}`])
        expect(`${path} ×${count(path)}`).toBe(`${path} ×1`);
      // The tree's code, fetched with the page (the Link header), is the one the sidebar imports.
      const tree = v.requests.filter((p) => /^\/assets\/PageTree-[\w-]+\.js$/.test(p));
      expect(tree.length).toBe(1);
      expect(v.warnings.filter((w) => /preload/i.test(w))).toEqual([]);
      // The address keeps its slug; the page's own title is the heading.
      expect(await v.page.locator("main h1").first().textContent()).toBe("Opened cold");
      expect(v.foreign).toEqual([]);
      expect(v.errors).toEqual([]);
    } finally {
      await v.close();
    }
  });

  test("the page's title and text are painted by the page itself, before any script, where the app then draws them", async () => {
    const boxes = (v: Visit) =>
      v.page.evaluate(() =>
        Array.from(document.querySelectorAll("main h1, main .prose > *")).map(
          (el) => `${el.tagName} ${el.textContent} ${JSON.stringify(el.getBoundingClientRect())}`,
        ),
      );
    const theme = { name: "cairn_theme", value: "light", url: world.cairn.url };
    const bare = await coldVisit();
    const app = await coldVisit();
    try {
      // No script at all: what the browser paints from the page alone.
      await bare.context.route(/\/assets\/.*\.js$/, (route) => route.abort());
      await bare.context.addCookies([theme]);
      await bare.page.goto(`/s/COLD/p/${pageId}-opened-cold`);
      await bare.page.locator("main .prose p", { hasText: "The body of the page opened cold." }).waitFor();
      expect(await bare.page.locator("main h1").textContent()).toBe("Opened cold");
      await app.context.addCookies([theme]);
      await app.page.goto(`/s/COLD/p/${pageId}-opened-cold`);
      await app.page.locator("aside").getByText("Opened cold", { exact: true }).waitFor();
      await app.page.waitForLoadState("networkidle");
      expect(await boxes(app)).toEqual(await boxes(bare));
      expect(app.errors).toEqual([]);
    } finally {
      await bare.close();
      await app.close();
    }
  });

  test("a page that does not exist is not found, in the space's frame, as before", async () => {
    const v = await coldVisit();
    try {
      await v.page.goto("/s/COLD/p/0190b7c2-0000-7000-8000-000000000000-gone");
      await v.page.getByText("This page does not exist").waitFor();
      await v.page.locator("aside").getByText("Opened cold", { exact: true }).waitFor();
      expect(v.errors).toEqual([]);
    } finally {
      await v.close();
    }
  });

  test("without a session, the page's address sends to sign in and back", async () => {
    const v = await coldVisit(false);
    try {
      await v.page.goto(`/s/COLD/p/${pageId}`);
      await v.page.waitForURL(/\/login\?redirect=/);
      expect(decodeURIComponent(new URL(v.page.url()).searchParams.get("redirect") ?? "")).toBe(`/s/COLD/p/${pageId}`);
      expect(v.errors).toEqual([]);
    } finally {
      await v.close();
    }
  });
});
