/**
 * The page tree in the sidebar: branches open and close by mouse and keyboard and are
 * remembered, pages open without reloading the app, Back returns to the same scroll position,
 * drag and drop moves a page under another, "Move to…" moves by keyboard (also to another
 * space), the row menu sends a page to the trash, and a space of 1,500 pages draws only the
 * rows on screen.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { axeViolations, type Visit } from "./harness";
import { api, docJson, newPage, newSpace, ownerWorld, para, type World } from "./fixtures";

let world: World;
let v: Visit;
let space: { id: string; key: string };
const ids: Record<string, string> = {};
const titlesOf = (nodes: Array<{ title: string; children: any[] }>): unknown[] =>
  nodes.flatMap((n) => (n.children.length ? [n.title, titlesOf(n.children)] : [n.title]));
const tree = async (spaceId = space.id) => titlesOf(await api(v.page, "GET", `/api/pages/tree?spaceId=${spaceId}`));
const item = (name: string) => v.page.getByRole("treeitem", { name: new RegExp(`^${name}$`) });

beforeAll(async () => {
  world = await ownerWorld();
  v = world.owner;
  space = await newSpace(v.page, "OPS", "Operations");
  // Guides (Install, Upgrade), Runbooks, Notes
  ids.Guides = (await newPage(v.page, space.id, "Guides")).id;
  ids.Install = (await newPage(v.page, space.id, "Install", { parentPageId: ids.Guides })).id;
  ids.Upgrade = (await newPage(v.page, space.id, "Upgrade", { parentPageId: ids.Guides })).id;
  ids.Runbooks = (await newPage(v.page, space.id, "Runbooks")).id;
  const long = Array.from({ length: 120 }, (_, i) => para(`Paragraph ${i} of the notes, long enough to scroll the page.`));
  ids.Notes = (await api(v.page, "POST", "/api/pages", { spaceId: space.id, title: "Notes", contentJson: docJson(...long) })).id;
});
afterAll(async () => world?.close());

describe("the page tree", () => {
  test("branches open and close by mouse and keyboard, and stay as they were after a reload", async () => {
    const { page } = v;
    await page.goto("/s/OPS");
    await item("Guides").waitFor();
    expect(await item("Install").count()).toBe(0);
    await item("Guides").locator(".tree-chevron").click();
    await item("Install").waitFor();
    expect(await item("Guides").getAttribute("aria-expanded")).toBe("true");
    await page.reload();
    await item("Install").waitFor();
    // Keyboard: ← closes, → opens, ↓ moves, Enter opens the page.
    await item("Guides").focus();
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(() => !document.querySelector('[role=treeitem][aria-level="2"]'));
    await page.keyboard.press("ArrowRight");
    await item("Install").waitFor();
    await page.keyboard.press("ArrowDown");
    await page.waitForFunction(() => document.activeElement?.textContent?.includes("Install"));
    expect(await item("Install").getAttribute("aria-level")).toBe("2");
    expect(await item("Install").getAttribute("aria-posinset")).toBe("1");
    expect(await item("Install").getAttribute("aria-setsize")).toBe("2");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Install" }).waitFor();
    expect(await item("Install").getAttribute("aria-current")).toBe("page");
    expect(await axeViolations(page)).toEqual([]);
  }, 30_000);

  test("moving between pages never reloads the app, and Back returns to the same place", async () => {
    const { page } = v;
    await page.goto(`/s/OPS/p/${ids.Notes}`);
    await page.getByText("Paragraph 119").waitFor();
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    await page.evaluate(() => window.scrollTo(0, 1500));
    await page.waitForTimeout(100);
    await item("Runbooks").click();
    await page.getByRole("heading", { level: 1, name: "Runbooks" }).waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.goBack();
    await page.getByRole("heading", { level: 1, name: "Notes" }).waitFor();
    await page.waitForFunction(() => Math.abs(window.scrollY - 1500) < 5);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
  }, 30_000);

  test("dragging a page onto another makes it a child", async () => {
    const { page } = v;
    await page.goto(`/s/OPS/p/${ids.Runbooks}`);
    await item("Notes").waitFor();
    const target = await item("Runbooks").boundingBox();
    const source = await item("Notes").boundingBox();
    await page.mouse.move(source!.x + 20, source!.y + source!.height / 2);
    await page.mouse.down();
    await page.mouse.move(source!.x + 25, source!.y + 5, { steps: 5 });
    await page.mouse.move(target!.x + 40, target!.y + target!.height / 2, { steps: 10 });
    await page.mouse.up();
    await page.waitForFunction(async (spaceId) => {
      const res = await fetch(`/api/pages/tree?spaceId=${spaceId}`);
      const nodes = await res.json();
      return nodes.some(
        (n: { title: string; children: Array<{ title: string }> }) => n.title === "Runbooks" && n.children.some((c) => c.title === "Notes"),
      );
    }, space.id);
    expect(await tree()).toEqual(["Guides", ["Install", "Upgrade"], "Runbooks", ["Notes"]]);
  }, 30_000);

  test("Move to… by keyboard: under another page, then into another space", async () => {
    const { page } = v;
    const other = await newSpace(page, "ARC", "Archive");
    await page.goto(`/s/OPS/p/${ids.Upgrade}`);
    await item("Upgrade").focus();
    await page.keyboard.press("Shift+F10");
    await page.getByRole("menuitem", { name: "Move to…" }).click();
    const dialog = page.getByRole("dialog", { name: "Move “Upgrade”" });
    await dialog.getByLabel("Put it").selectOption({ label: "Under Runbooks" });
    await dialog.getByRole("button", { name: "Move" }).click();
    await page.waitForFunction(() => document.querySelector("[role=status]")?.textContent?.includes("Moved Upgrade under Runbooks"));
    expect(await tree()).toEqual(["Guides", ["Install"], "Runbooks", ["Notes", "Upgrade"]]);
    await item("Upgrade").focus();
    await page.keyboard.press("Shift+F10");
    await page.getByRole("menuitem", { name: "Move to…" }).click();
    await page.getByRole("dialog").getByLabel("Space").selectOption({ label: "Archive" });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("dialog").getByRole("button", { name: "Move" }).click();
    await page.waitForFunction(async (id) => (await fetch(`/api/pages/tree?spaceId=${id}`).then((r) => r.json())).length === 1, other.id);
    expect(await tree(other.id)).toEqual(["Upgrade"]);
  }, 30_000);

  test("the row menu sets a page's emoji", async () => {
    const { page } = v;
    await page.goto("/s/OPS");
    await item("Runbooks").focus();
    await page.keyboard.press("Shift+F10");
    await page.getByRole("menuitem", { name: "Emoji…" }).click();
    await page.getByRole("dialog", { name: "Emoji for “Runbooks”" }).getByRole("button", { name: "🚀" }).click();
    await page.waitForFunction(async (id) => (await fetch(`/api/pages/${id}`).then((r) => r.json())).emoji === "🚀", ids.Runbooks);
    await item("Runbooks").locator(".tree-icon", { hasText: "🚀" }).waitFor();
  }, 30_000);

  test("Alt+Shift+↑ moves a page up among its siblings", async () => {
    const { page } = v;
    await page.goto("/s/OPS");
    await item("Runbooks").focus();
    await page.keyboard.press("Alt+Shift+ArrowUp");
    await page.waitForFunction(
      async (id) => (await fetch(`/api/pages/tree?spaceId=${id}`).then((r) => r.json()))[0].title === "Runbooks",
      space.id,
    );
    expect((await tree())[0]).toBe("Runbooks");
  }, 30_000);

  test("the row menu sends a page and what is below it to the trash, after saying so", async () => {
    const { page } = v;
    await page.goto("/s/OPS");
    await item("Guides").hover();
    await item("Guides").focus();
    await page.keyboard.press("Shift+F10");
    await page.getByRole("menuitem", { name: "Move to trash" }).click();
    const dialog = page.getByRole("dialog", { name: "Move to the trash?" });
    await dialog.getByText("“Guides” and the 1 page below it").waitFor();
    await dialog.getByRole("button", { name: "Move to trash" }).click();
    await item("Guides").waitFor({ state: "detached" });
    const trash = await api(page, "GET", `/api/pages/trash?spaceId=${space.id}`);
    expect(trash.map((t: { title: string; pageCount: number }) => [t.title, t.pageCount])).toEqual([["Guides", 2]]);
  }, 30_000);

  test("a space of 1,500 pages draws only the rows on screen", async () => {
    const { page } = v;
    const big = await newSpace(page, "BIG", "Big space");
    await page.evaluate(async (spaceId) => {
      for (let i = 0; i < 1500; i += 50) {
        await Promise.all(
          Array.from({ length: 50 }, (_, k) =>
            fetch("/api/pages", {
              method: "POST",
              headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
              body: JSON.stringify({ spaceId, title: `Page ${String(i + k).padStart(4, "0")}` }),
            }),
          ),
        );
      }
    }, big.id);
    await page.goto("/s/BIG");
    await item("Page 0000").waitFor();
    const rows = await page.getByRole("treeitem").count();
    expect(rows).toBeLessThan(100);
    await item("Page 0000").focus();
    await page.keyboard.press("End");
    await item("Page 1499").waitFor();
    await page.waitForFunction(() => document.activeElement?.textContent?.includes("Page 1499"));
  }, 120_000);

  test("no request left the server", () => {
    expect(v.foreign).toEqual([]);
    expect(v.errors).toEqual([]);
  });
});
