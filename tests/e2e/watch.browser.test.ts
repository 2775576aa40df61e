/**
 * Watching in the browser: the space sidebar's quiet "Watch space" toggle (there on every screen
 * of the space, so a space whose home is a page can be watched too), and the page panel's
 * details saying how many watch the page, with your own state and its toggle kept in step with
 * the header's. Both in the four looks, with axe.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { checkLooks, visit } from "./harness";
import { api, newPage, newSpace, ownerWorld, type World } from "./fixtures";

let world: World;
let guide: { id: string };

beforeAll(async () => {
  world = await ownerWorld();
  const wiki = await newSpace(world.owner.page, "WIKI", "Team wiki");
  guide = await newPage(world.owner.page, wiki.id, "Guide", { text: "How we work." });
}, 60_000);
afterAll(async () => {
  await world?.close();
});

describe("watching", () => {
  test("the sidebar's Watch space toggle watches and unwatches the space from a page", async () => {
    const { page } = world.owner;
    await page.goto(`/s/WIKI/p/${guide.id}`);
    const toggle = page.locator(".sidebar-foot").getByRole("button", { name: "Watch space" });
    await toggle.click();
    await page.locator(".sidebar-foot").getByRole("button", { name: "Watching space", pressed: true }).waitFor();
    expect((await api(page, "GET", "/api/spaces/WIKI/watch")).watching).toBe(true);
    await page.locator(".sidebar-foot").getByRole("button", { name: "Watching space" }).click();
    await page.locator(".sidebar-foot").getByRole("button", { name: "Watch space", pressed: false }).waitFor();
    expect((await api(page, "GET", "/api/spaces/WIKI/watch")).watching).toBe(false);
  }, 30_000);

  test("the details say how many watch the page; its toggle and the header's stay in step", async () => {
    const { page } = world.owner;
    await page.goto(`/s/WIKI/p/${guide.id}?panel=details`);
    const details = page.locator("#page-panel");
    await details.getByText("Watched by 1 person").waitFor();
    await details.getByText("You watch this page").waitFor();
    await details.getByRole("button", { name: "Stop watching" }).click();
    await details.getByText("Nobody watches this page yet").waitFor();
    await details.getByText("You do not watch this page").waitFor();
    const header = page.locator(".watch-button");
    await header.and(page.getByRole("button", { name: "Watch", pressed: false })).waitFor(); // the header's toggle follows
    expect(await api(page, "GET", `/api/pages/${guide.id}/watch`)).toEqual({ watching: false, watcherCount: 0 });
    // The header's toggle: the details follow.
    await header.click();
    await details.getByText("Watched by 1 person").waitFor();
    await details.getByText("You watch this page").waitFor();
  }, 30_000);

  test("in the four looks", async () => {
    await api(world.owner.page, "POST", "/api/spaces/WIKI/watch");
    const s = await visit(world.cairn, { storageState: await world.owner.context.storageState() });
    try {
      await s.page.goto(`/s/WIKI/p/${guide.id}?panel=details`);
      await s.page.locator("#page-panel").getByText("Watched by 1 person").waitFor();
      expect(await checkLooks(s.page, "watch-details")).toEqual({});
      await s.page.goto(`/s/WIKI/p/${guide.id}`);
      await s.page.getByRole("heading", { name: "Guide", level: 1 }).waitFor();
      await s.page.getByRole("button", { name: "Watching space", pressed: true }).waitFor();
      // When narrow the sidebar is a drawer: opened, so its toggle is seen.
      const drawer = s.page.getByRole("dialog", { name: "Space navigation" });
      const drawerWhenNarrow = async () => {
        if (s.page.viewportSize()!.width > 900 || (await drawer.isVisible())) return;
        await s.page.getByRole("button", { name: "Open navigation" }).click();
        await drawer.getByRole("button", { name: "Watching space", pressed: true }).waitFor();
      };
      expect(await checkLooks(s.page, "watch-sidebar", drawerWhenNarrow)).toEqual({});
      expect(s.errors).toEqual([]);
      expect(s.foreign).toEqual([]);
    } finally {
      await s.close();
    }
  }, 60_000);
});
