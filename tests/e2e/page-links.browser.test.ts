/**
 * Linking pages in the browser: `[[` opens a page search and links the page picked; the reading
 * view shows the page's current title (renamed since), and the link still leads to it; a pasted
 * address of a page (on another host name) becomes a link to it; Page details lists the pages
 * linking here. Screenshots of the `[[` menu, a page link read, and the backlinks, in four looks.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appStarted, checkLooks, visit, type Visit } from "./harness";
import { api, newPage, newSpace, ownerWorld, slash, storedDoc, type World } from "./fixtures";

let world: World;
let v: Visit;
let space: { id: string; key: string };
let target: { id: string };
let runbook: { id: string };

beforeAll(async () => {
  world = await ownerWorld();
  v = world.owner;
  // Saved over HTTP, as in pages.browser.test.ts: the live room is kept out of reach.
  await v.context.routeWebSocket(/\/api\/collab\//, (ws) => ws.close());
  space = await newSpace(v.page, "ENG", "Engineering");
  target = await newPage(v.page, space.id, "Install guide", { text: "How to install." });
  runbook = await newPage(v.page, space.id, "Runbook", { text: "When things break." });
});
afterAll(async () => world?.close());

const pageLinks = (doc: any, out: string[] = []): string[] => {
  if (doc.type === "pageLink") out.push(doc.attrs.pageId);
  for (const c of doc.content ?? []) pageLinks(c, out);
  return out;
};

describe("links between pages", () => {
  test("[[ links a page; the reading view shows its current title after a " +
    "rename, and the link leads there; the backlink is listed", async () => {
    const { page } = v;
    await page.goto(`/s/ENG/p/${runbook.id}`);
    await page.getByText("When things break.").waitFor();
    await appStarted(page);
    await page.locator("body").press("e");
    await page.waitForURL(/\/edit$/);
    await page.locator(".ProseMirror").click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" First read [[Install");
    const menu = page.getByRole("listbox", { name: "Link to a page" });
    await menu.getByRole("option", { name: /Install guide/ }).waitFor();
    await page.keyboard.press("Enter");
    await menu.waitFor({ state: "detached" });
    await page.locator(".ProseMirror a.page-link", { hasText: "Install guide" }).waitFor();
    // A pasted address of a page, copied on another host name, becomes a link to that page too.
    await page.keyboard.type("and ");
    await page.locator(".ProseMirror").evaluate((el, url) => {
      const data = new DataTransfer();
      data.setData("text/plain", url);
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    }, `http://wiki.tail1234.ts.net/s/ENG/p/${target.id}-install-guide`);
    await page.locator(".ProseMirror a.page-link").nth(1).waitFor();
    await page.locator(".ProseMirror").press("Control+Enter");
    await page.waitForURL((u) => !u.pathname.endsWith("/edit"));
    const stored = await storedDoc(page, runbook.id);
    expect(pageLinks(stored.doc)).toEqual([target.id, target.id]);
    expect(stored.text).not.toContain("tail1234");
    expect(stored.text).not.toContain("Install guide");

    // Renamed: every link shows the new title, and still leads to the page.
    await api(page, "PUT", `/api/pages/${target.id}`, { title: "Installing Cairn" });
    await page.goto(`/s/ENG/p/${runbook.id}`);
    const link = page.locator(".prose a.page-link", { hasText: "Installing Cairn" }).first();
    await link.waitFor();
    await link.click();
    await page.waitForURL(new RegExp(`/s/ENG/p/${target.id}`));
    await page.getByRole("heading", { name: "Installing Cairn" }).waitFor();

    // Its Page details list the page linking to it.
    await page.goto(`/s/ENG/p/${target.id}?panel=details`);
    await page.locator(".backlinks").getByRole("link", { name: "Runbook" }).waitFor();
    // And /p/<id>, how linked words are stored, opens the page.
    await page.goto(`/p/${target.id}`);
    await page.waitForURL(new RegExp(`/s/ENG/p/${target.id}-installing-cairn`));
    expect(v.errors).toEqual([]);
  }, 60_000);

  test("'/ Link to page' and the @ menu (pages beside people) insert page links too", async () => {
    const { page } = v;
    const notes = await newPage(page, space.id, "Notes", { text: "Start." });
    await page.goto(`/s/ENG/p/${notes.id}/edit`);
    await page.locator(".ProseMirror").click();
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    await slash(page, "link", "Link to page");
    await page.keyboard.type("Installing");
    await page
      .getByRole("listbox", { name: "Link to a page" })
      .getByRole("option", { name: /Installing Cairn/ })
      .click();
    await page.keyboard.type("and @Instal");
    const menu = page.getByRole("listbox", { name: "Mention someone or link a page" });
    await menu.getByRole("option", { name: /Installing Cairn/ }).click();
    await page.locator(".ProseMirror a.page-link").nth(1).waitFor();
    await page.locator(".ProseMirror").press("Control+Enter");
    await page.waitForURL((u) => !u.pathname.endsWith("/edit"));
    expect(pageLinks((await storedDoc(page, notes.id)).doc)).toEqual([target.id, target.id]);
  }, 60_000);

  test("the [[ menu, a page link read, and the backlinks, in the four looks", async () => {
    // One context, each screen loaded once and its looks gone through in place (checkLooks).
    const s = await visit(world.cairn, { storageState: await v.context.storageState() });
    try {
      await s.context.routeWebSocket(/\/api\/collab\//, (ws) => ws.close());
      await s.page.goto(`/s/ENG/p/${runbook.id}`);
      await s.page.locator(".prose a.page-link", { hasText: "Installing Cairn" }).first().waitFor();
      expect({ where: "read", violations: await checkLooks(s.page, "page-link-read") }).toEqual({ where: "read", violations: {} });
      await s.page.goto(`/s/ENG/p/${target.id}?panel=details`);
      await s.page.locator(".backlinks").getByRole("link", { name: "Runbook" }).waitFor();
      expect({ where: "backlinks", violations: await checkLooks(s.page, "page-link-backlinks") }).toEqual({
        where: "backlinks",
        violations: {},
      });
      await s.page.goto(`/s/ENG/p/${runbook.id}/edit`);
      await s.page.locator(".ProseMirror").click();
      await s.page.keyboard.press("Control+End");
      await s.page.keyboard.type(" [[Inst");
      await s.page
        .getByRole("listbox", { name: "Link to a page" })
        .getByRole("option", { name: /Installing Cairn/ })
        .waitFor();
      expect({ where: "menu", violations: await checkLooks(s.page, "page-link-menu") }).toEqual({ where: "menu", violations: {} });
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
    }
  }, 60_000);
});
