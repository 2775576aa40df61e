/**
 * Finding pages: the palette (Ctrl-K and "/") with results as one types and highlighted
 * passages, keyboard choice, the space filter and the full results page; and an anonymous
 * visitor reading a public space, while a private one asks to sign in and comes back.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { checkLooks, PASSWORD, visit, type Visit } from "./harness";
import { api, newPage, newSpace, ownerWorld, type World } from "./fixtures";

let world: World;
let v: Visit;
let eng: { id: string; key: string };
let ids: Record<string, string> = {};

beforeAll(async () => {
  world = await ownerWorld();
  v = world.owner;
  eng = await newSpace(v.page, "ENG", "Engineering");
  const ops = await newSpace(v.page, "OPS", "Operations");
  ids.kubernetes = (await newPage(v.page, eng.id, "Cluster setup", { text: "We run everything on kubernetes with three nodes." })).id;
  ids.opsKube = (await newPage(v.page, ops.id, "Pager duty", { text: "When kubernetes pages you at night, check the nodes first." })).id;
  ids.other = (await newPage(v.page, eng.id, "Coffee machine", { text: "Descale it monthly." })).id;
});
afterAll(async () => world?.close());

describe("search", () => {
  test("Ctrl-K opens the palette; results come as one types, with the words highlighted", async () => {
    const { page } = v;
    await page.goto(`/s/ENG/p/${ids.other}`);
    await page.getByRole("heading", { level: 1, name: "Coffee machine" }).waitFor();
    await page.keyboard.press("Control+k");
    const palette = page.getByRole("dialog");
    await palette.getByRole("combobox").fill("kubernetes");
    // Inside a space, it searches that space first.
    await palette.getByRole("option", { name: /Cluster setup/ }).waitFor();
    expect(await palette.getByRole("option", { name: /Pager duty/ }).count()).toBe(0);
    expect(await palette.locator("mark").first().textContent()).toBe("kubernetes");
    expect(await palette.textContent()).not.toContain("**");
    expect(await checkLooks(page, "search-palette-in-space")).toEqual({});
    await palette.getByRole("button", { name: "All spaces" }).click();
    await palette.getByRole("option", { name: /Pager duty/ }).waitFor();
    // Arrows and Enter open a page, without reloading the app.
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));
    await palette.getByRole("combobox").press("ArrowDown");
    await palette.getByRole("combobox").press("Home");
    const first = await palette.getByRole("option").first().textContent();
    await palette.getByRole("combobox").press("Enter");
    await page.getByRole("heading", { level: 1, name: first!.includes("Pager") ? "Pager duty" : "Cluster setup" }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
  }, 30_000);

  test('"/" opens it too; no hit says what to try; "See all results" opens the results page', async () => {
    const { page } = v;
    await page.goto("/");
    await page.getByRole("link", { name: "Engineering" }).first().waitFor();
    await page.keyboard.press("/");
    const palette = page.getByRole("dialog");
    await palette.getByRole("combobox").fill("zeppelin");
    await palette.getByText("No pages match “zeppelin”").waitFor();
    await palette.getByRole("combobox").fill("nodes");
    await palette.getByRole("option", { name: /See all results for “nodes”/ }).click();
    await page.waitForURL(/\/search\?q=nodes/);
    const results = page.locator(".search-results li");
    await results.first().waitFor();
    expect(await results.count()).toBe(2);
    expect(await page.locator(".search-results mark").first().textContent()).toBe("nodes");
    await page.getByLabel("Space", { exact: true }).selectOption({ label: "Operations" });
    await page.waitForFunction(() => document.querySelectorAll(".search-results li").length === 1);
    expect(await results.first().textContent()).toContain("Pager duty");
    expect(await checkLooks(page, "search-results-one-space")).toEqual({});
  }, 30_000);
});

describe("public spaces", () => {
  test("an anonymous visitor reads a public space's pages and tree, with a way to sign in and nothing else", async () => {
    await api(v.page, "PUT", "/api/admin/settings", { allowPublicSpaces: true });
    await api(v.page, "PUT", "/api/admin/spaces/ENG/public", { isPublic: true });
    const visitor = await visit(world.cairn, { width: 375 });
    try {
      const { page } = visitor;
      await page.goto(`/s/ENG/p/${ids.kubernetes}`);
      await page.getByRole("heading", { level: 1, name: "Cluster setup" }).waitFor();
      await page.getByText("We run everything on kubernetes").waitFor();
      expect(await page.getByRole("link", { name: "Sign in" }).count()).toBe(1);
      expect(await page.getByRole("button", { name: /Edit/ }).count()).toBe(0);
      expect(await page.getByRole("button", { name: /Search/ }).count()).toBe(0);
      await page.getByRole("button", { name: "Open navigation" }).click();
      await page.getByRole("treeitem", { name: "Coffee machine" }).click();
      await page.getByRole("heading", { level: 1, name: "Coffee machine" }).waitFor();
      expect(await page.getByRole("link", { name: "Trash" }).count()).toBe(0);
      expect(await checkLooks(page, "public-page-anonymous")).toEqual({});
      // A private space: sign in first, then land where the link pointed.
      await page.goto(`/s/OPS/p/${ids.opsKube}`);
      await page.waitForURL(/\/login\?redirect=/);
      await page.getByLabel("E-mail").fill("owner@example.com");
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { level: 1, name: "Pager duty" }).waitFor();
      expect(visitor.foreign).toEqual([]);
      expect(visitor.errors).toEqual([]);
    } finally {
      await visitor.close();
    }
  }, 30_000);

  test("no request left the server", () => {
    expect(v.foreign).toEqual([]);
    expect(v.errors).toEqual([]);
  });
});
