/**
 * Editing one page together in two browsers (two accounts): each sees the other in the page,
 * both type in the same paragraph at once and end with the same text; one goes offline, keeps
 * typing, comes back and both converge; Update publishes and the other sees the new version;
 * a change through the API arrives as tracked changes that Accept all takes in.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { axeViolations, checkLooks, visit, type Visit } from "./harness";
import { api, invitedPerson, docJson, newPage, newSpace, ownerWorld, para, storedDoc, type World } from "./fixtures";

let world: World;
let olive: Visit;
let bea: Visit;
let pageId: string;
let editPath: string;

/** The editor's text, as the editor itself has it. */
const text = (page: Page) =>
  page.evaluate(() => (document.querySelector(".ProseMirror") as unknown as { editor: { getText(): string } }).editor.getText());

/** Puts the caret at the start or the end of the first paragraph, through the editor. */
async function caretInFirstParagraph(page: Page, where: "start" | "end"): Promise<void> {
  await page.evaluate((where) => {
    const editor = (document.querySelector(".ProseMirror") as unknown as { editor: any }).editor;
    const first = editor.state.doc.firstChild;
    editor
      .chain()
      .focus()
      .setTextSelection(where === "start" ? 1 : first.nodeSize - 1)
      .run();
  }, where);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Waits until both editors hold the same text, and answers it. */
async function converged(a: Page, b: Page, timeoutMs = 10_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [ta, tb] = await Promise.all([text(a), text(b)]);
    if (ta === tb) return ta;
    if (Date.now() > until) throw new Error(`editors differ:\n${ta}\n---\n${tb}`);
    await Bun.sleep(100);
  }
}

const seeStatus = (page: Page, words: string, timeout = 10_000) =>
  page.locator(".collab-connection", { hasText: words }).waitFor({ timeout });

async function openEditor(v: Visit): Promise<void> {
  await v.page.goto(editPath);
  await v.page.locator(".ProseMirror").waitFor();
}

beforeAll(async () => {
  world = await ownerWorld();
  olive = world.owner;
  const space = await newSpace(olive.page, "ENG", "Engineering");
  const page = await newPage(olive.page, space.id, "Team notes", { text: "We meet on Tuesdays." });
  pageId = page.id;
  editPath = `/s/ENG/p/${pageId}/edit`;
  bea = await invitedPerson(world.cairn, olive.page);
});
afterAll(async () => {
  await bea?.close();
  await world?.close();
});

describe("editing a page together", () => {
  test("both see each other, type in the same paragraph at once and end with the same text", async () => {
    await openEditor(olive);
    await openEditor(bea);
    // Each sees the other among the avatars at the top.
    await olive.page.getByRole("img", { name: "Bea Builder", exact: true }).waitFor();
    await bea.page.getByRole("img", { name: "Olive Owner", exact: true }).waitFor();
    await seeStatus(olive.page, "Connected · 2 people");
    await seeStatus(bea.page, "version 1");
    await caretInFirstParagraph(olive.page, "start");
    await caretInFirstParagraph(bea.page, "end");
    await Promise.all([
      olive.page.keyboard.type("Olive writes first. ", { delay: 15 }),
      bea.page.keyboard.type(" Bea adds more.", { delay: 15 }),
    ]);
    const both = await converged(olive.page, bea.page);
    expect(both).toContain("Olive writes first. We meet on Tuesdays. Bea adds more.");
    // Each sees the other's caret with their name.
    await olive.page.locator(".collaboration-carets__label", { hasText: "Bea Builder" }).waitFor();
    expect(await axeViolations(olive.page)).toEqual([]);
    expect(await checkLooks(bea.page, "collab-two-people")).toEqual({});
    // Undo is per person: Olive's undo takes back her words, never Bea's.
    let undos = 0;
    while ((await text(olive.page)).includes("Olive") && undos < 40) {
      await olive.page.keyboard.press("Control+z");
      undos++;
      expect(await text(olive.page)).toContain("We meet on Tuesdays. Bea adds more.");
    }
    const undone = await converged(olive.page, bea.page);
    expect(undone).not.toContain("Olive");
    expect(undone).toContain("We meet on Tuesdays. Bea adds more.");
    for (let i = 0; i < undos; i++) await olive.page.keyboard.press("Control+Shift+z");
    expect(await converged(olive.page, bea.page)).toContain("Olive writes first. We meet on Tuesdays. Bea adds more.");
  }, 60_000);

  test("one goes offline, keeps typing, comes back, and both converge", async () => {
    await bea.context.setOffline(true);
    await seeStatus(bea.page, "Offline");
    await bea.page.getByText("your changes are kept on this device").waitFor();
    await caretInFirstParagraph(bea.page, "end");
    await bea.page.keyboard.type(" Typed on the train.");
    await caretInFirstParagraph(olive.page, "start");
    await olive.page.keyboard.type("Meanwhile online. ");
    await Bun.sleep(500);
    expect(await text(olive.page)).not.toContain("train");
    expect(await checkLooks(bea.page, "collab-offline")).toEqual({});
    // Update publishes the room's state, which does not have these words yet: it says so.
    await bea.page.getByRole("button", { name: "Update" }).click();
    await bea.page.getByRole("alert").filter({ hasText: "Update needs the connection" }).waitFor();
    // Leaving now asks first: the server has not got these edits.
    await bea.page.getByRole("button", { name: "Close" }).click();
    await bea.page.getByRole("dialog", { name: /Leave before your changes reach the server/ }).waitFor();
    await bea.page.getByRole("button", { name: "Cancel" }).click();
    await bea.context.setOffline(false);
    await seeStatus(bea.page, "Connected · 2 people", 15_000);
    const both = await converged(olive.page, bea.page);
    expect(both).toContain("Meanwhile online.");
    expect(both).toContain("Typed on the train.");
  }, 60_000);

  test("edits made offline survive a closed tab and merge when the page is opened again", async () => {
    await bea.context.setOffline(true);
    await seeStatus(bea.page, "Offline");
    await caretInFirstParagraph(bea.page, "end");
    await bea.page.keyboard.type(" Kept on the device.");
    await Bun.sleep(300); // y-indexeddb writes each update at once; let the write finish
    await bea.page.close();
    await bea.context.setOffline(false);
    const page = await bea.context.newPage();
    page.on("pageerror", (e) => bea.errors.push(e.message));
    bea = { ...bea, page };
    await openEditor(bea);
    await seeStatus(bea.page, "Connected · 2 people");
    expect(await converged(olive.page, bea.page)).toContain("Typed on the train. Kept on the device.");
  }, 60_000);

  test("Update publishes the room's text and the other sees the new version", async () => {
    const before = await text(bea.page);
    await olive.page.getByLabel("What changed (optional)").fill("Notes from both");
    await olive.page.getByRole("button", { name: "Update" }).click();
    // Bea's words go out too: Update names her first.
    await olive.page
      .getByRole("dialog", { name: "Publish changes by Bea Builder and you?" })
      .getByRole("button", { name: "Publish all" })
      .click();
    await olive.page.waitForURL((u) => !u.pathname.endsWith("/edit"));
    await seeStatus(bea.page, "version 2");
    const stored = await storedDoc(olive.page, pageId);
    expect(stored.version).toBe(2);
    expect(stored.text).toContain("Typed on the train.");
    expect(before).toContain("Olive writes first.");
  }, 60_000);

  test("a change through the API arrives as tracked changes, and Accept all takes it in", async () => {
    const current = await storedDoc(olive.page, pageId);
    await api(olive.page, "PUT", `/api/pages/${pageId}`, {
      contentJson: docJson(para("We meet on Thursdays."), para("A line from a script.")),
      baseVersion: current.version,
    });
    const bar = bea.page.getByRole("region", { name: "Changes from outside" });
    await bar.waitFor();
    await bar.getByText("from outside").waitFor();
    await bea.page.locator(".ProseMirror ins[data-change-id]").first().waitFor();
    expect(await checkLooks(bea.page, "collab-tracked-changes")).toEqual({});
    await bar.getByRole("button", { name: "Accept all" }).click();
    await bar.waitFor({ state: "detached" });
    const after = await text(bea.page);
    expect(after).toContain("We meet on Thursdays.");
    expect(after).toContain("A line from a script.");
    expect(after).not.toContain("Tuesdays");
    for (const v of [olive, bea]) {
      expect(v.foreign).toEqual([]);
      expect(v.errors).toEqual([]);
    }
  }, 60_000);
});

describe("without the live connection", () => {
  test("a socket that cannot connect leaves the editor working alone over HTTP", async () => {
    const v = await visit(world.cairn, { storageState: world.storage });
    try {
      const other = await newPage(olive.page, (await api(olive.page, "GET", "/api/spaces/ENG")).id, "Solo notes", { text: "Alone here." });
      await v.context.routeWebSocket(/\/api\/collab\//, (ws) => ws.close());
      await v.page.goto(`/s/ENG/p/${other.id}/edit`);
      await v.page.getByText("Live editing could not connect").waitFor({ timeout: 15_000 });
      await v.page.locator(".ProseMirror").click();
      await v.page.keyboard.press("Control+End");
      await v.page.keyboard.type(" Saved anyway.");
      await v.page.getByRole("button", { name: "Update" }).click();
      await v.page.waitForURL((u) => !u.pathname.endsWith("/edit"));
      expect((await storedDoc(olive.page, other.id)).text).toContain("Alone here. Saved anyway.");
      expect(v.errors).toEqual([]);
    } finally {
      await v.close();
    }
  }, 60_000);
});

describe("the looks", () => {
  test("two people editing with changes from outside pending, in four looks", async () => {
    const current = await storedDoc(olive.page, pageId);
    await api(olive.page, "PUT", `/api/pages/${pageId}`, {
      contentJson: docJson(para("We meet on Thursdays at ten."), para("Bring your own questions.")),
      baseVersion: current.version,
    });
    await bea.page.getByRole("region", { name: "Changes from outside" }).waitFor();
    const v = await visit(world.cairn, { storageState: world.storage });
    try {
      await v.page.goto(editPath);
      await v.page.locator(".ProseMirror").waitFor();
      await seeStatus(v.page, "Connected · 2 people");
      await v.page.getByRole("region", { name: "Changes from outside" }).waitFor();
      expect(await checkLooks(v.page, "collab-editing")).toEqual({});
      // The list of changes, to settle one at a time from the keyboard.
      await v.page.getByRole("button", { name: "Review" }).click();
      await v.page
        .getByRole("button", { name: /^Accept: / })
        .first()
        .waitFor();
      expect(await checkLooks(v.page, "collab-review")).toEqual({});
    } finally {
      await v.close();
    }
    // One change accepted from the list: only its text moves.
    const list = bea.page.getByRole("region", { name: "Changes from outside" });
    await list.getByRole("button", { name: "Review" }).click();
    await list.getByRole("button", { name: /^Accept: Added “at ten”/ }).click();
    await bea.page.waitForFunction(() => !document.querySelector(".ProseMirror ins[data-change-id]")?.textContent?.includes("at ten"));
    expect(await text(bea.page)).toContain("Thursdays at ten.");
    expect(await bea.page.locator(".ProseMirror ins[data-change-id], .ProseMirror del[data-change-id]").count()).toBeGreaterThan(0);
    // Publishing with changes pending asks first; "Accept all and publish" takes them all in.
    const before = await storedDoc(olive.page, pageId);
    await caretInFirstParagraph(bea.page, "end");
    await bea.page.keyboard.type(" See you there.");
    await bea.page.getByRole("button", { name: "Update" }).click();
    const ask = bea.page.getByRole("dialog", { name: "Changes from outside are waiting" });
    await ask.getByRole("button", { name: "Accept all and publish" }).click();
    await bea.page.waitForURL((u) => !u.pathname.endsWith("/edit"));
    const after = await storedDoc(olive.page, pageId);
    expect(after.version).toBe(before.version + 1);
    expect(after.text).toContain("Bring your own questions.");
    expect(after.text).toContain("See you there.");
    expect(after.text).not.toContain("A line from a script");
  }, 60_000);
});
