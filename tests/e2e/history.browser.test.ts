/**
 * History and trash in the browser: versions newest first with their comments, one version
 * read as it was, two compared block by block (a changed paragraph before and after, a table
 * cell in its table, a list item in its list, code line by line), a version restored as the newest; a page restored
 * from the trash, and one deleted for good after the person's password.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Locator } from "playwright-core";
import { axeViolations, checkLooks, PASSWORD, visit, type Visit } from "./harness";
import { api, docJson, newPage, newSpace, ownerWorld, para, storedDoc, type World } from "./fixtures";

let world: World;
let v: Visit;
let space: { id: string; key: string };

beforeAll(async () => {
  world = await ownerWorld();
  v = world.owner;
  space = await newSpace(v.page, "DOC", "Docs");
}, 60_000);
afterAll(async () => world?.close());

describe("history", () => {
  test("lists versions, shows one, compares two word by word and restores an old one", async () => {
    const { page } = v;
    const p = await newPage(page, space.id, "Deploy", { text: "Deploy on Friday afternoon." });
    await api(page, "PUT", `/api/pages/${p.id}`, {
      contentJson: docJson(para("Deploy on Monday morning."), para("Tell the team.")),
      changeComment: "Safer day",
      baseVersion: 1,
    });
    await api(page, "PUT", `/api/pages/${p.id}`, {
      contentJson: docJson(para("Deploy on Monday morning.")),
      changeComment: "Shorter",
      baseVersion: 2,
    });
    await page.goto(`/s/DOC/p/${p.id}`);
    await page.getByRole("link", { name: "History" }).click();
    await page.getByRole("heading", { name: "History of “Deploy”" }).waitFor();
    const items = page.getByRole("navigation", { name: "Versions" }).getByRole("link");
    expect(await items.allTextContents()).toEqual([
      expect.stringMatching(/^Version 3Current.*Shorter$/),
      expect.stringMatching(/^Version 2.*Safer day$/),
      expect.stringMatching(/^Version 1/),
    ]);
    // Version 2 against version 1: "Friday afternoon" out, "Monday morning" in, a paragraph added.
    await items.nth(1).click();
    const changes = page.locator(".comparison");
    await changes.waitFor();
    expect(await changes.locator("del").allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining("Friday")]));
    expect(await changes.locator("ins").allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining("Monday"), "Tell the team."]),
    );
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Whole version" }).click();
    await page.locator(".version-view").getByText("Tell the team.").waitFor();
    // Version 1 restored becomes version 4.
    await items.nth(2).click();
    await page.getByRole("button", { name: "Restore this version" }).click();
    await page.getByRole("dialog", { name: "Restore version 1?" }).getByRole("button", { name: "Restore" }).click();
    await page.getByRole("heading", { level: 1, name: "Deploy" }).waitFor();
    await page.getByText("Deploy on Friday afternoon.").waitFor();
    const now = await storedDoc(page, p.id);
    expect(now.version).toBe(4);
    expect(now.text).toContain("Friday afternoon");
  }, 30_000);
});

const cellOf = (type: string, text: string) => ({ type, content: [para(text)] });
const tableOf = (...rows: string[][]) => ({
  type: "table",
  content: rows.map((r, i) => ({ type: "tableRow", content: r.map((x) => cellOf(i ? "tableCell" : "tableHeader", x)) })),
});
const listOf = (...items: string[]) => ({ type: "bulletList", content: items.map((x) => ({ type: "listItem", content: [para(x)] })) });
const codeOf = (text: string) => ({ type: "codeBlock", attrs: { language: "bash" }, content: [{ type: "text", text }] });

describe("comparing versions block by block", () => {
  let pageId: string;
  beforeAll(async () => {
    const { page } = v;
    const p = await newPage(page, space.id, "Release");
    await api(page, "PUT", `/api/pages/${p.id}`, {
      contentJson: docJson(
        para("Deploy on Friday afternoon."),
        tableOf(["Service", "Owner"], ["Search", "Ada"], ["Backups", "Grace"]),
        listOf("check the changelog", "tag the build", "tell the team"),
        codeOf("set -e\nbun run build\nexit 0"),
        para("Closing words."),
      ),
      baseVersion: 1,
    });
    await api(page, "PUT", `/api/pages/${p.id}`, {
      contentJson: docJson(
        para("Deploy on Monday morning."),
        tableOf(["Service", "Owner"], ["Search", "Ada"], ["Backups", "Linus"]),
        listOf("check the changelog", "tag the release build", "tell the team"),
        codeOf("set -e\nbun run build --minify\nexit 0"),
        para("Closing words."),
      ),
      changeComment: "Monday, Linus, minified",
      baseVersion: 2,
    });
    pageId = p.id;
  }, 30_000);

  // The comparison is loaded once; each kind of block is a test of its own on it, so a failure
  // names the block, and the last takes the screen through the four looks.
  let w: Visit;
  let cmp: Locator;
  beforeAll(async () => {
    w = await visit(world.cairn, { storageState: world.storage });
    await w.page.goto(`/s/DOC/p/${pageId}/history/3`);
    cmp = w.page.locator(".comparison");
    await cmp.waitFor();
  }, 30_000);
  afterAll(async () => w?.close());

  test("a changed paragraph: before, then after, never in one line; an unchanged one reads as it is", async () => {
    // The paragraph: before (its words out struck through), then after (its words in marked).
    expect(await cmp.locator("> p.cmp-before").textContent()).toBe("Deploy on Friday afternoon.");
    expect(await cmp.locator("> p.cmp-before del").allTextContents()).toEqual(["Friday afternoon"]);
    expect(await cmp.locator("> p.cmp-after").textContent()).toBe("Deploy on Monday morning.");
    expect(await cmp.locator("> p.cmp-after ins").allTextContents()).toEqual(["Monday morning"]);
    // What did not change reads as it is.
    expect(await cmp.locator("> p", { hasText: "Closing words." }).getAttribute("class")).toBeNull();
  }, 30_000);

  test("a changed table cell, in its table", async () => {
    // One table of three rows and two columns; the changed cell holds both names.
    expect(await cmp.locator("table").count()).toBe(1);
    expect(await cmp.locator("table tr").count()).toBe(3);
    expect(await cmp.locator("table tr").evaluateAll((rows) => rows.map((r) => r.children.length))).toEqual([2, 2, 2]);
    const owner = cmp.locator("table tr").nth(2).locator("td").nth(1);
    expect(await owner.locator("del").allTextContents()).toEqual(["Grace"]);
    expect(await owner.locator("ins").allTextContents()).toEqual(["Linus"]);
  }, 30_000);

  test("a changed list item, in its list", async () => {
    // One list of three items, the middle one before and after.
    expect(await cmp.locator("ul > li").count()).toBe(3);
    expect(await cmp.locator("ul > li").nth(1).locator("ins").allTextContents()).toEqual(["release "]);
    expect(await cmp.locator("ul > li").nth(0).locator("ins, del").count()).toBe(0);
  }, 30_000);

  test("changed code, line by line", async () => {
    // One code block, line by line.
    expect(await cmp.locator("pre").count()).toBe(1);
    expect(await cmp.locator("pre .cmp-line-removed").allTextContents()).toEqual(["−bun run build"]);
    expect(await cmp.locator("pre .cmp-line-added").allTextContents()).toEqual(["+bun run build --minify"]);
    expect(await cmp.locator("pre .code-line").count()).toBe(4);
  }, 30_000);

  test("the comparison in the four looks (history-diff)", async () => {
    expect(await checkLooks(w.page, "history-diff")).toEqual({});
    expect(w.errors).toEqual([]);
  }, 30_000);
});

describe("the trash", () => {
  test("restores a page with what was deleted with it, and deletes for good after the password", async () => {
    const { page } = v;
    const parent = await newPage(page, space.id, "Old plans");
    await newPage(page, space.id, "Old plan A", { parentPageId: parent.id });
    const other = await newPage(page, space.id, "Scratch pad");
    await api(page, "DELETE", `/api/pages/${parent.id}`);
    await api(page, "DELETE", `/api/pages/${other.id}`);
    await page.goto("/s/DOC");
    await page.getByRole("link", { name: "Trash" }).click();
    await page.getByRole("heading", { name: "Trash" }).waitFor();
    await page.getByText("with 1 page below it").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Restore: Old plans" }).click();
    await page.getByRole("treeitem", { name: "Old plans" }).waitFor();
    expect((await api(page, "GET", `/api/pages/trash?spaceId=${space.id}`)).map((t: { title: string }) => t.title)).toEqual([
      "Scratch pad",
    ]);

    await page.getByRole("button", { name: "Delete for good: Scratch pad" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete for good?" });
    await dialog.getByText("will be deleted for good, with their history and attachments").waitFor();
    await dialog.getByLabel("Your password").fill("not my password");
    await dialog.getByRole("button", { name: "Delete for good" }).click();
    await dialog.getByText("That password is not right").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByLabel("Your password").fill(PASSWORD);
    await dialog.getByRole("button", { name: "Delete for good" }).click();
    await page.getByRole("heading", { name: "The trash is empty" }).waitFor();
    expect((await api(page, "GET", `/api/pages/${other.id}`).catch((e: Error) => e.message)) as string).toContain("404");
  }, 30_000);

  test("no request left the server", () => {
    expect(v.foreign).toEqual([]);
    expect(v.errors).toEqual([]);
  });
});
