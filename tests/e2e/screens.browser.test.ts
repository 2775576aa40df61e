/**
 * Every screen of the web UI, photographed in light and dark at 1280 and 375 px (to
 * .bench/screenshots/, git-ignored) and checked with axe in each look: a page with every
 * block, the editor with the "/" menu open, a new page's chooser, history and a comparison,
 * the trash, search, and the sidebar as a drawer.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { everythingDocument } from "../../src/content/testing";
import { axeViolations, LOOKS, screenshot, visit } from "./harness";
import { api, docJson, newPage, newSpace, ownerWorld, para, type World } from "./fixtures";

let world: World;
let pageId: string;
let historyId: string;

beforeAll(async () => {
  world = await ownerWorld();
  const { page } = world.owner;
  const space = await newSpace(page, "HB", "Handbook");
  await api(page, "PUT", "/api/spaces/HB", { description: "How we work", iconKind: 1, iconValue: "📘" });
  const guides = await newPage(page, space.id, "Guides");
  for (const t of ["Onboarding", "Code review", "Incident response"]) await newPage(page, space.id, t, { parentPageId: guides.id });
  await newPage(page, space.id, "Team rituals");
  const everything = await api(page, "POST", "/api/pages", { spaceId: space.id, parentPageId: guides.id, title: "Release process", contentJson: JSON.stringify(everythingDocument()) });
  pageId = everything.id;
  await api(page, "POST", `/api/pages/${pageId}/labels`, { name: "process" });
  historyId = (await newPage(page, space.id, "Deploy checklist", { text: "Deploy on Friday afternoon after lunch." })).id;
  await api(page, "PUT", `/api/pages/${historyId}`, { contentJson: docJson(para("Deploy on Monday morning after standup."), para("Tell the on-call person.")), changeComment: "Safer day", baseVersion: 1 });
  const trashed = await newPage(page, space.id, "Old roadmap");
  await api(page, "DELETE", `/api/pages/${trashed.id}`);
});
afterAll(async () => world?.close());

describe("every screen in four looks", () => {
  for (const look of LOOKS) {
    test(`${look.theme} at ${look.width} px`, async () => {
      const v = await visit(world.cairn, { ...look, storageState: world.storage });
      const { page } = v;
      const check = async (name: string) => {
        await screenshot(page, name);
        expect([name, await axeViolations(page)]).toEqual([name, []]);
      };
      try {
        await page.goto(`/s/HB/p/${pageId}`);
        await page.getByRole("heading", { level: 1, name: "Release process" }).waitFor();
        await check("10-page-reading");
        await page.evaluate(() => window.scrollTo(0, 900));
        await screenshot(page, "11-page-reading-blocks");
        await page.goto(`/s/HB/p/${pageId}/edit`);
        await page.locator(".ProseMirror").waitFor();
        await page.locator(".ProseMirror").press("Control+End");
        await page.keyboard.press("Enter");
        await page.keyboard.type("/");
        await page.getByRole("listbox", { name: "Insert a block" }).waitFor();
        await check("12-editor-slash-menu");
        await page.keyboard.press("Escape");
        await page.goto("/s/HB/new");
        await page.getByRole("button", { name: /Blank page/ }).waitFor();
        await check("13-new-page");
        await page.goto(`/s/HB/p/${historyId}/history`);
        await page.locator(".comparison").waitFor();
        await check("14-history-compare");
        await page.goto("/s/HB/trash");
        await page.getByText("Old roadmap").waitFor();
        await check("15-trash");
        await page.goto("/s/HB");
        await page.getByRole("heading", { name: "Handbook" }).first().waitFor();
        await page.keyboard.press("Control+k");
        await page.getByRole("dialog").getByRole("combobox").fill("deploy");
        await page.getByRole("dialog").getByRole("option", { name: /Deploy checklist/ }).waitFor();
        await check("16-search-palette");
        await page.keyboard.press("Escape");
        await page.goto("/search?q=deploy");
        await page.locator(".search-results li").first().waitFor();
        await check("17-search-results");
        await page.goto("/");
        await page.getByRole("link", { name: "Handbook" }).waitFor();
        await check("18-home");
        if (look.width === 375) {
          await page.goto(`/s/HB/p/${pageId}`);
          await page.getByRole("button", { name: "Open navigation" }).click();
          await page.getByRole("treeitem", { name: "Release process" }).waitFor();
          await check("19-drawer");
        }
        expect(v.foreign).toEqual([]);
        expect(v.errors).toEqual([]);
      } finally {
        await v.close();
      }
    }, 60_000);
  }
});
