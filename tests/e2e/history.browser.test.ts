/**
 * History and trash in the browser: versions newest first with their comments, one version
 * read as it was, two compared word by word, a version restored as the newest; a page restored
 * from the trash, and one deleted for good after the person's password.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { axeViolations, PASSWORD, type Visit } from "./harness";
import { api, docJson, newPage, newSpace, ownerWorld, para, storedDoc, type World } from "./fixtures";

let world: World;
let v: Visit;
let space: { id: string; key: string };

beforeAll(async () => {
  world = await ownerWorld();
  v = world.owner;
  space = await newSpace(v.page, "DOC", "Docs");
});
afterAll(async () => world?.close());

describe("history", () => {
  test("lists versions, shows one, compares two word by word and restores an old one", async () => {
    const { page } = v;
    const p = await newPage(page, space.id, "Deploy", { text: "Deploy on Friday afternoon." });
    await api(page, "PUT", `/api/pages/${p.id}`, { contentJson: docJson(para("Deploy on Monday morning."), para("Tell the team.")), changeComment: "Safer day", baseVersion: 1 });
    await api(page, "PUT", `/api/pages/${p.id}`, { contentJson: docJson(para("Deploy on Monday morning.")), changeComment: "Shorter", baseVersion: 2 });
    await page.goto(`/s/DOC/p/${p.id}`);
    await page.getByRole("link", { name: "History" }).click();
    await page.getByRole("heading", { name: "History of “Deploy”" }).waitFor();
    const items = page.getByRole("navigation", { name: "Versions" }).getByRole("link");
    expect(await items.allTextContents()).toEqual([expect.stringMatching(/^Version 3Current.*Shorter$/), expect.stringMatching(/^Version 2.*Safer day$/), expect.stringMatching(/^Version 1/)]);
    // Version 2 against version 1: "Friday afternoon" out, "Monday morning" in, a paragraph added.
    await items.nth(1).click();
    const changes = page.locator(".comparison");
    await changes.waitFor();
    expect(await changes.locator("del").allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining("Friday")]));
    expect(await changes.locator("ins").allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining("Monday"), "Tell the team."]));
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
    expect((await api(page, "GET", `/api/pages/trash?spaceId=${space.id}`)).map((t: { title: string }) => t.title)).toEqual(["Scratch pad"]);

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
