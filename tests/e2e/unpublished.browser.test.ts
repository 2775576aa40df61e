/**
 * Publishing never silent (docs/decisions.md, "Publishing stays an explicit step"), in two browsers
 * (Ada and Grace, both may edit): what you write is what people read. Ada types and presses Close:
 * she is asked (Publish / Keep as draft / Discard mine) and keeps it as a draft; Grace's reading
 * view says "Unpublished changes by Ada Lovelace · Review"; Grace's Update names Ada before
 * publishing; the version credits both, in the history too. Discard mine takes Ada's own words
 * back. The dialog, the banner and the history in four looks (checkLooks), with axe.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { checkLooks, type Visit } from "./harness";
import { api, caretToEnd, docJson, invitedPerson, newSpace, ownerWorld, para, storedDoc, type World } from "./fixtures";

let world: World;
let ada: Visit;
let grace: Visit;
let pageId: string;
let readPath: string;

const text = (page: Page) =>
  page.evaluate(() => (document.querySelector(".ProseMirror") as unknown as { editor: { getText(): string } }).editor.getText());
const seeConnected = (page: Page) => page.locator(".collab-connection", { hasText: "Connected" }).waitFor({ timeout: 15_000 });

async function typeAtEnd(page: Page, words: string): Promise<void> {
  await page.locator(".ProseMirror").waitFor();
  await seeConnected(page);
  await caretToEnd(page);
  await page.keyboard.type(words, { delay: 10 });
}

beforeAll(async () => {
  world = await ownerWorld();
  const space = await newSpace(world.owner.page, "TEAM", "Team");
  // Long enough that Ada's words, typed at the end, are out of sight from the top.
  const details = Array.from({ length: 30 }, (_, i) => para(`Detail ${i + 1} of the plan.`));
  const page = await api(world.owner.page, "POST", "/api/pages", {
    spaceId: space.id,
    title: "Launch plan",
    contentJson: docJson(para("We launch in spring."), ...details),
  });
  pageId = page.id;
  readPath = `/s/TEAM/p/${pageId}`;
  ada = await invitedPerson(world.cairn, world.owner.page, "ada@example.com", "Ada Lovelace");
  grace = await invitedPerson(world.cairn, world.owner.page, "grace@example.com", "Grace Hopper");
}, 180_000); // the binary is built first
afterAll(async () => {
  await ada?.close();
  await grace?.close();
  await world?.close();
});

describe("publishing is never silent", () => {
  test("Ada types and presses Close: she is asked, and keeps her words as a draft", async () => {
    await ada.page.goto(`${readPath}/edit`);
    await typeAtEnd(ada.page, " Ada's idea: a beta first.");
    await ada.page.getByRole("button", { name: "Close" }).click();
    const ask = ada.page.getByRole("dialog", { name: "Publish your changes?" });
    await ask.waitFor();
    await ask.getByText("readers still see version 1").waitFor();
    for (const name of ["Publish", "Keep as draft", "Discard mine"]) await ask.getByRole("button", { name, exact: true }).waitFor();
    await ask.getByRole("button", { name: "Keep as draft" }).click();
    await ada.page.waitForURL((u) => !u.pathname.endsWith("/edit"));
    // Nothing was published, nothing was lost: the words wait in the shared copy.
    expect((await storedDoc(world.owner.page, pageId)).version).toBe(1);
    await ada.page.locator(".unpublished-banner", { hasText: "Unpublished changes by you" }).waitFor();
  }, 60_000);

  test("Grace's reading view says whose changes are pending; Review opens the editor with them", async () => {
    await grace.page.goto(readPath);
    const banner = grace.page.getByRole("status").filter({ hasText: "Unpublished changes by Ada Lovelace" });
    await banner.waitFor();
    // The page as read is still the published version.
    expect(await grace.page.locator("main").first().textContent()).not.toContain("beta first");
    await banner.getByRole("link", { name: "Review" }).click();
    await grace.page.waitForURL((u) => u.pathname.endsWith("/edit"));
    // The caret lands in the first block that differs from the published version, in view.
    const changed = grace.page.locator(".ProseMirror p", { hasText: "Ada's idea: a beta first." });
    await changed.waitFor();
    await grace.page.waitForFunction(() => {
      const sel = window.getSelection();
      const p =
        sel?.anchorNode && (sel.anchorNode.nodeType === 1 ? (sel.anchorNode as Element) : sel.anchorNode.parentElement)?.closest("p");
      return !!p?.textContent?.includes("Ada's idea");
    });
    await expect(changed.isVisible()).resolves.toBe(true);
    const box = (await changed.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(900);
    expect(box.y).toBeGreaterThanOrEqual(0);
  }, 60_000);

  test("a reader without Edit sees no banner: the published version is the page", async () => {
    const viewer = await invitedPerson(world.cairn, world.owner.page, "vic@example.com", "Vic Viewer");
    try {
      // Ada and Grace keep Edit of their own before the everyone grant goes (Grace is editing).
      const people = (await api(world.owner.page, "GET", "/api/users")) as Array<{ id: string; email: string }>;
      const idOf = (email: string) => people.find((u) => u.email === email)!.id;
      for (const email of ["ada@example.com", "grace@example.com"])
        await api(world.owner.page, "POST", "/api/spaces/TEAM/permissions", { principalType: 0, principalId: idOf(email), operation: 1 });
      await api(world.owner.page, "POST", "/api/spaces/TEAM/permissions", {
        principalType: 0,
        principalId: idOf("vic@example.com"),
        operation: 0,
      });
      const grants = (await api(world.owner.page, "GET", "/api/spaces/TEAM/permissions")) as Array<{ id: string; principalType: number }>;
      for (const g of grants) if (g.principalType === 1) await api(world.owner.page, "DELETE", `/api/spaces/TEAM/permissions/${g.id}`);
      await viewer.page.goto(readPath);
      await viewer.page.getByRole("heading", { name: "Launch plan" }).waitFor();
      await Bun.sleep(500);
      expect(await viewer.page.locator(".unpublished-banner").count()).toBe(0);
      expect(viewer.errors).toEqual([]);
    } finally {
      await viewer.close();
    }
  }, 60_000);

  test("Grace's Update names Ada before publishing, and the version credits both", async () => {
    await grace.page.goto(`${readPath}/edit`);
    await typeAtEnd(grace.page, " Grace agrees.");
    await grace.page.getByRole("button", { name: "Update" }).click();
    const ask = grace.page.getByRole("dialog", { name: "Publish changes by Ada Lovelace and you?" });
    await ask.waitFor();
    await ask.locator(".unpublished-people", { hasText: "Ada Lovelace" }).waitFor();
    await ask.getByRole("button", { name: "Publish all" }).click();
    await grace.page.waitForURL((u) => !u.pathname.endsWith("/edit"));
    const stored = await storedDoc(world.owner.page, pageId);
    expect(stored.version).toBe(2);
    expect(stored.text).toContain("Detail 30 of the plan. Ada's idea: a beta first. Grace agrees.");
    const versions = await api(grace.page, "GET", `/api/pages/${pageId}/versions`);
    expect(versions[0].contributors.map((c: { name: string }) => c.name)).toEqual(["Ada Lovelace", "Grace Hopper"]);
    // Published: no banner any more, and the header credits both.
    await grace.page.locator(".page-meta", { hasText: "Updated by Ada Lovelace and Grace Hopper" }).waitFor();
    expect(await grace.page.locator(".unpublished-banner").count()).toBe(0);
    await grace.page.goto(`${readPath}/history`);
    await grace.page.locator(".version-meta", { hasText: "Ada Lovelace, Grace Hopper" }).first().waitFor();
  }, 60_000);

  test("Discard mine takes back Ada's own words, on every screen", async () => {
    await grace.page.goto(`${readPath}/edit`);
    await seeConnected(grace.page);
    await ada.page.goto(`${readPath}/edit`);
    await typeAtEnd(ada.page, " Scratch that.");
    await grace.page.locator(".ProseMirror", { hasText: "Scratch that." }).waitFor();
    await ada.page.getByRole("button", { name: "Close" }).click();
    const ask = ada.page.getByRole("dialog", { name: "Publish your changes?" });
    await ask.getByRole("button", { name: "Discard mine" }).click();
    await ada.page.waitForURL((u) => !u.pathname.endsWith("/edit"));
    await grace.page.waitForFunction(() => !document.querySelector(".ProseMirror")?.textContent?.includes("Scratch that."));
    expect(await text(grace.page)).toContain("Grace agrees.");
    expect(await ada.page.locator(".unpublished-banner").count()).toBe(0);
    await grace.page.getByRole("button", { name: "Close" }).click();
    await grace.page.waitForURL((u) => !u.pathname.endsWith("/edit"));
    for (const v of [ada, grace]) {
      expect(v.foreign).toEqual([]);
      expect(v.errors).toEqual([]);
    }
  }, 60_000);
});

describe("Close, then Publish", () => {
  test("publishes at once, credited to the one who typed", async () => {
    await ada.page.goto(`${readPath}/edit`);
    await typeAtEnd(ada.page, " Final word.");
    await ada.page.getByRole("button", { name: "Close" }).click();
    await ada.page.getByRole("dialog", { name: "Publish your changes?" }).getByRole("button", { name: "Publish", exact: true }).click();
    await ada.page.waitForURL((u) => !u.pathname.endsWith("/edit"));
    const stored = await storedDoc(world.owner.page, pageId);
    expect(stored.version).toBe(3);
    expect(stored.text).toContain("Final word.");
    const versions = await api(ada.page, "GET", `/api/pages/${pageId}/versions`);
    expect(versions[0].contributors.map((c: { name: string }) => c.name)).toEqual(["Ada Lovelace"]);
    expect(await ada.page.locator(".unpublished-banner").count()).toBe(0);
  }, 60_000);
});

describe("the looks", () => {
  test("the Close dialog, the banner, Update's names and the history, in four looks", async () => {
    const a = ada;
    const g = grace;
    await a.page.goto(`${readPath}/edit`);
    await typeAtEnd(a.page, " More.");
    await a.page.getByRole("button", { name: "Close" }).click();
    const ask = a.page.getByRole("dialog", { name: "Publish your changes?" });
    await ask.waitFor();
    expect(await checkLooks(a.page, "unpublished-close-dialog")).toEqual({});
    await ask.getByRole("button", { name: "Keep as draft" }).click();
    await a.page.waitForURL((u) => !u.pathname.endsWith("/edit"));

    await g.page.goto(readPath);
    await g.page.locator(".unpublished-banner", { hasText: "Ada Lovelace" }).waitFor();
    expect(await checkLooks(g.page, "unpublished-banner")).toEqual({});

    await g.page.goto(`${readPath}/edit`);
    await seeConnected(g.page);
    await g.page.getByRole("button", { name: "Update" }).click();
    const whose = g.page.getByRole("dialog", { name: /^Publish changes by Ada Lovelace/ });
    await whose.waitFor();
    expect(await checkLooks(g.page, "unpublished-update-names")).toEqual({});
    await whose.getByRole("button", { name: "Review first" }).click();

    await g.page.goto(`${readPath}/history`);
    await g.page.locator(".version-meta", { hasText: "Ada Lovelace, Grace Hopper" }).first().waitFor();
    expect(await checkLooks(g.page, "unpublished-history")).toEqual({});
    for (const v of [a, g]) {
      expect(v.foreign).toEqual([]);
      expect(v.errors).toEqual([]);
    }
  }, 60_000);
});
