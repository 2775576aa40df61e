/**
 * Finding and starting pages: Ctrl-K then Enter opens the best hit even when
 * typed faster than results arrive; the empty palette lists the pages this person viewed last;
 * a mistyped word says what it searched for instead; "+" beside the space name and on tree rows
 * makes a page in one step, straight into the editor with the caret in the title, with the
 * built-in templates offered on the empty page; E puts the caret in the editor; tasks tick
 * from the reading view for people who may edit, also while the page is open in a shared room.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { apiCall, checkLooks, visit, type Visit } from "./harness";
import { api, invitedPerson, newPage, newSpace, ownerWorld, para, type World } from "./fixtures";

let world: World;
let v: Visit;
let eng: { id: string; key: string };
const ids: Record<string, string> = {};

const task = (text: string, checked = false) => ({ type: "taskItem", attrs: { checked }, content: [para(text)] });
const taskDoc = () =>
  JSON.stringify({
    type: "doc",
    content: [
      para("Before the release:"),
      { type: "taskList", content: [task("Write the notes"), task("Tag the build"), task("Tell the team")] },
    ],
  });

beforeAll(async () => {
  world = await ownerWorld();
  v = world.owner;
  eng = await newSpace(v.page, "ENG", "Engineering");
  ids.kube = (await newPage(v.page, eng.id, "Kubernetes cluster", { text: "We run everything on kubernetes with three nodes." })).id;
  ids.coffee = (await newPage(v.page, eng.id, "Coffee machine", { text: "Descale it monthly." })).id;
  ids.release = (await api(v.page, "POST", "/api/pages", { spaceId: eng.id, title: "Release checklist", contentJson: taskDoc() })).id;
  for (let i = 0; i < 6; i++) await newPage(v.page, eng.id, `Kubernetes note ${i}`, { text: `Note ${i} about pods.` });
}, 180_000);
afterAll(async () => world?.close());

const palette = (page: Page) => page.getByRole("dialog");
const editorFocused = (page: Page) => page.evaluate(() => !!document.activeElement?.closest(".ProseMirror"));

describe("the palette", () => {
  test("Ctrl-K, typing fast and Enter at once opens the best hit, never “See all results”", async () => {
    const { page } = v;
    for (let i = 0; i < 4; i++) {
      await page.goto(`/s/ENG/p/${ids.coffee}`);
      await page.getByRole("heading", { level: 1, name: "Coffee machine" }).waitFor();
      await page.keyboard.press("Control+k");
      await palette(page).getByRole("combobox").waitFor();
      // No delay between the keys and Enter: the results cannot have arrived yet.
      await page.keyboard.type("kubernetes cluster");
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { level: 1, name: "Kubernetes cluster" }).waitFor();
      expect(page.url()).not.toContain("/search");
    }
  }, 60_000);

  test("with nothing typed it lists the pages viewed last, newest first, kept per account", async () => {
    const { page } = v;
    await page.goto(`/s/ENG/p/${ids.coffee}`);
    await page.getByRole("heading", { level: 1, name: "Coffee machine" }).waitFor();
    await page.goto(`/s/ENG/p/${ids.kube}`);
    await page.getByRole("heading", { level: 1, name: "Kubernetes cluster" }).waitFor();
    // Another browser of the same account sees the same list (the server keeps it).
    const other = await visit(world.cairn, { storageState: world.storage });
    try {
      await other.page.goto("/");
      await other.page
        .getByRole("button", { name: /Search/ })
        .first()
        .click();
      const list = palette(other.page);
      await list.getByText("Recently viewed").waitFor();
      const options = await list.getByRole("option").allTextContents();
      expect(options[0]).toContain("Kubernetes cluster");
      expect(options[1]).toContain("Coffee machine");
      await other.page.keyboard.press("Enter");
      await other.page.getByRole("heading", { level: 1, name: "Kubernetes cluster" }).waitFor();
    } finally {
      await other.close();
    }
  }, 30_000);

  test("a mistyped word says what was searched instead and highlights the word found", async () => {
    const { page } = v;
    await page.goto("/");
    await page
      .getByRole("button", { name: /Search/ })
      .first()
      .waitFor();
    await page.keyboard.press("Control+k");
    await palette(page).getByRole("combobox").fill("kubernetis");
    await palette(page)
      .getByText(/Showing results for “kubernetes”/)
      .waitFor();
    expect(await palette(page).locator(".palette-snippet mark").first().textContent()).toBe("kubernetes");
    // Titles matched through the near spelling are marked too.
    expect(await palette(page).locator(".palette-title mark").first().textContent()).toBe("Kubernetes");
    expect(await palette(page).locator(".palette-title mark").count()).toBeGreaterThan(1);
    await page.keyboard.press("Escape");
  }, 30_000);
});

describe("starting a page", () => {
  test("“+” beside the space name makes a page in one step: the editor, the caret in the title, templates offered", async () => {
    const { page } = v;
    await page.goto(`/s/ENG/p/${ids.coffee}`);
    await page.getByRole("button", { name: "New page in Engineering" }).click();
    await page.waitForURL(/\/edit$/);
    await page.getByRole("textbox", { name: "Title" }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Title");
    await page.keyboard.type("Weekly sync");
    expect(await page.getByRole("textbox", { name: "Title" }).inputValue()).toBe("Weekly sync");
    const offer = page.getByRole("region", { name: "Start from a template" });
    await offer.waitFor();
    for (const name of ["Meeting notes", "How-to", "Decision record", "Runbook"])
      await offer.getByRole("button", { name: new RegExp(name) }).waitFor();
    await offer.getByRole("button", { name: /Meeting notes/ }).click();
    await page.locator(".ProseMirror h2", { hasText: "Attendees" }).waitFor();
    // Once the page has words, the offer goes.
    expect(await offer.count()).toBe(0);
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByRole("heading", { level: 1, name: "Weekly sync" }).waitFor();
  }, 30_000);

  test("“+” on a tree row makes a page inside that one; a space with templates gets the chooser", async () => {
    const { page } = v;
    await page.goto(`/s/ENG/p/${ids.coffee}`);
    const row = page.getByRole("treeitem", { name: "Coffee machine" });
    await row.hover();
    // The row's "+" is for the pointer (the keyboard has the row's menu, Shift+F10).
    await page.locator('button[title="New page inside Coffee machine"]').click();
    await page.waitForURL(/\/edit$/);
    await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "Title");
    const id = /\/p\/([^/]+)\//.exec(new URL(page.url()).pathname)?.[1] ?? /\/p\/([^/]+)/.exec(page.url())![1];
    const made = await api(page, "GET", `/api/pages/${id}`);
    expect(made.parentPageId).toBe(ids.coffee);
    await api(page, "DELETE", `/api/pages/${id}/draft`);
    // The space's own template: now "+" asks which start.
    await api(page, "POST", "/api/templates", {
      spaceId: eng.id,
      name: "Incident review",
      contentJson: JSON.stringify({ type: "doc", content: [para("What happened")] }),
    });
    await page.goto(`/s/ENG/p/${ids.coffee}`);
    await page.getByRole("button", { name: "New page in Engineering" }).click();
    await page.getByRole("heading", { level: 1, name: "New page" }).waitFor();
    await page.getByRole("button", { name: /Incident review/ }).waitFor();
    await page.getByRole("button", { name: /Runbook/ }).waitFor();
  }, 30_000);

  test("a View-only member sees no “+” anywhere, and tasks stay unticked for them", async () => {
    const bea = await invitedPerson(world.cairn, v.page);
    try {
      const me = await api(bea.page, "GET", "/api/auth/me");
      const groups = (await api(v.page, "GET", "/api/groups")) as Array<{ id: string; name: string; builtIn: boolean }>;
      const everyone = groups.find((g) => g.builtIn && g.name === "Everyone")!;
      const grants = (await api(v.page, "GET", "/api/spaces/ENG/permissions")) as Array<{
        id: string;
        principalType: number;
        principalId: string;
      }>;
      const grant = grants.find((g) => g.principalType === 1 && g.principalId === everyone.id);
      if (grant) await api(v.page, "DELETE", `/api/spaces/ENG/permissions/${grant.id}`);
      await api(v.page, "POST", "/api/spaces/ENG/permissions", { principalType: 0, principalId: (me.user ?? me).id, operation: 0 });
      const { page } = bea;
      await page.goto(`/s/ENG/p/${ids.release}`);
      await page.getByRole("heading", { level: 1, name: "Release checklist" }).waitFor();
      await page.getByRole("treeitem", { name: "Coffee machine" }).hover();
      expect(await page.getByRole("button", { name: "New page in Engineering" }).count()).toBe(0);
      expect(await page.locator('button[title^="New page inside"]').count()).toBe(0);
      expect(await page.getByRole("checkbox", { name: /Write the notes/ }).isDisabled()).toBe(true);
      expect((await apiCall(page, "PUT", `/api/pages/${ids.release}/tasks`, { index: 0, checked: true })).status).toBe(403);
    } finally {
      await bea.close();
    }
  }, 30_000);

  test("E in the reading view puts the caret in the editor", async () => {
    const { page } = v;
    await page.goto(`/s/ENG/p/${ids.coffee}`);
    await page.getByRole("heading", { level: 1, name: "Coffee machine" }).waitFor();
    await page.keyboard.press("e");
    await page.locator(".ProseMirror").waitFor();
    await page.waitForFunction(() => !!document.activeElement?.closest(".ProseMirror"));
    expect(await editorFocused(page)).toBe(true);
    await page.keyboard.type("Typed at once. ");
    await page.locator(".ProseMirror", { hasText: "Typed at once." }).waitFor();
  }, 30_000);
});

describe("tasks in the reading view", () => {
  test("someone who may edit ticks a task: one small version, seen by everyone", async () => {
    const { page } = v;
    await page.goto(`/s/ENG/p/${ids.release}`);
    const box = page.getByRole("checkbox", { name: /Write the notes/ });
    expect(await box.isDisabled()).toBe(false);
    await box.click();
    await page.waitForFunction(() => (document.querySelector("li[data-type=taskItem] input") as HTMLInputElement | null)?.checked === true);
    const stored = await api(page, "GET", `/api/pages/${ids.release}`);
    expect(stored.currentVersionNumber).toBe(2);
    expect(JSON.parse(stored.contentJson).content[1].content[0].attrs.checked).toBe(true);
    const versions = await api(page, "GET", `/api/pages/${ids.release}/versions`);
    expect(versions[0].changeComment).toContain("Write the notes");
    await page.reload();
    expect(await page.getByRole("checkbox", { name: /Write the notes/ }).isChecked()).toBe(true);
  }, 30_000);

  test("a tick while the page is open in a shared room reaches the editors at once, and their unpublished words stay theirs", async () => {
    const writer = await visit(world.cairn, { storageState: world.storage });
    try {
      await writer.page.goto(`/s/ENG/p/${ids.release}/edit`);
      await writer.page.locator(".collab-session .ProseMirror").waitFor();
      await writer.page.locator(".ProseMirror p", { hasText: "Before the release:" }).click();
      await writer.page.keyboard.press("End");
      await writer.page.keyboard.type(" Unpublished words.");
      await writer.page.waitForTimeout(400);
      const { page } = v;
      await page.goto(`/s/ENG/p/${ids.release}`);
      await page.getByRole("checkbox", { name: /Tag the build/ }).click();
      await page.waitForFunction(
        () => (document.querySelectorAll("li[data-type=taskItem] input")[1] as HTMLInputElement | undefined)?.checked === true,
      );
      // The editor gets the tick, untracked; the words typed there are still there, unmarked.
      await writer.page.waitForFunction(() => document.querySelectorAll(".ProseMirror li[data-checked=true]").length === 2);
      expect(await writer.page.locator(".ProseMirror", { hasText: "Unpublished words." }).count()).toBe(1);
      expect(await writer.page.locator(".tracked-bar").count()).toBe(0);
      const stored = await api(page, "GET", `/api/pages/${ids.release}`);
      expect(stored.contentJson).not.toContain("Unpublished words");
      expect(JSON.parse(stored.contentJson).content[1].content[1].attrs.checked).toBe(true);
      // Update from the room keeps both the tick and the words.
      await writer.page.getByRole("button", { name: "Update" }).click();
      await writer.page.getByRole("heading", { level: 1, name: "Release checklist" }).waitFor();
      const after = await api(page, "GET", `/api/pages/${ids.release}`);
      expect(after.contentJson).toContain("Unpublished words");
      expect(JSON.parse(after.contentJson).content[1].content[1].attrs.checked).toBe(true);
    } finally {
      await writer.close();
    }
  }, 45_000);

  test("no request left the server", () => {
    expect(v.foreign).toEqual([]);
    expect(v.errors).toEqual([]);
  });
});

describe("screens", () => {
  test("the palette (recent, typo), the tree with “+”, a new page in the editor " +
    "with the template offer, a ticked task: four looks", async () => {
    // One context, each screen loaded once and its looks gone through in place (checkLooks).
    const s = await visit(world.cairn, { storageState: world.storage });
    try {
      const { page } = s;
      const tag = `finding`;
      const looksClean = async (name: string, ready?: () => Promise<void>) =>
        expect({ name, violations: await checkLooks(page, name, ready) }).toEqual({ name, violations: {} });
      await page.goto(`/s/ENG/p/${ids.release}`);
      await page.getByRole("heading", { level: 1, name: "Release checklist" }).waitFor();
      await looksClean(`${tag}-task-ticked`);
      // The "+" on a tree row: shown on hover in the sidebar at 1280 px, in the navigation drawer at 375.
      const drawer = page.getByRole("dialog");
      const treePlus = async () => {
        if (page.viewportSize()?.width === 1280) {
          if (await drawer.isVisible()) {
            await page.keyboard.press("Escape");
            await drawer.waitFor({ state: "hidden" });
          }
          await page.getByRole("treeitem", { name: "Coffee machine" }).hover();
        } else if (!(await drawer.isVisible())) {
          await page.getByRole("button", { name: "Open navigation" }).click();
          await drawer.getByRole("treeitem", { name: "Coffee machine" }).waitFor();
        }
      };
      await looksClean(`${tag}-tree-plus`, treePlus);
      if (await drawer.isVisible()) {
        await page.keyboard.press("Escape");
        await drawer.waitFor({ state: "hidden" });
      }
      await page.keyboard.press("Control+k");
      await palette(page).getByText("Recently viewed").waitFor();
      await looksClean(`${tag}-palette-recent`);
      await palette(page).getByRole("combobox").fill("kubernetis");
      await palette(page)
        .getByText(/Showing results for/)
        .waitFor();
      await looksClean(`${tag}-palette-typo`);
      await page.keyboard.press("Escape");
      const draft = await api(page, "POST", "/api/pages/draft", { spaceId: eng.id });
      await page.goto(`/s/ENG/p/${draft.id}/edit`);
      await page.getByRole("region", { name: "Start from a template" }).waitFor();
      await looksClean(`${tag}-new-page`);
      await api(page, "DELETE", `/api/pages/${draft.id}/draft`);
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
    }
  }, 90_000);
});
