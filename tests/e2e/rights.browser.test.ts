/**
 * Rights shown as they are: a member with View only on a space is offered nothing that would
 * change it (no "New page", no Trash, no tree row actions or dragging, no Edit, no "e", no page
 * menu's trash or width, no template chooser, no "Create the first page"), and the same member
 * with Edit on another space is offered each of them. Nothing the View-only walk does writes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { axeViolations, checkLooks, visit, type Visit } from "./harness";
import { api, invitedPerson, newPage, newSpace, ownerWorld, type World } from "./fixtures";

let world: World;
let bea: Visit;
const ids: Record<string, string> = {};

/** A space where the Everyone group has View only (the grant a new space gives it is Edit). */
async function viewOnlySpace(page: Page, key: string, name: string, everyoneId: string) {
  const space = await newSpace(page, key, name);
  await api(page, "POST", `/api/spaces/${key}/permissions`, { principalType: 1, principalId: everyoneId, operation: 0 });
  return space;
}

beforeAll(async () => {
  world = await ownerWorld();
  const owner = world.owner.page;
  const groups = (await api(owner, "GET", "/api/groups")) as Array<{ id: string; name: string; builtIn: boolean }>;
  const everyone = groups.find((g) => g.builtIn && g.name === "Everyone")!.id;
  for (const [key, name, viewOnly] of [
    ["READ", "Handbook", true],
    ["EDIT", "Workshop", false],
  ] as const) {
    const space = viewOnly ? await viewOnlySpace(owner, key, name, everyone) : await newSpace(owner, key, name);
    ids[key] = (await newPage(owner, space.id, `${name} guide`)).id;
    await newPage(owner, space.id, "Onboarding", { parentPageId: ids[key] });
    await newPage(owner, space.id, "Glossary");
    const gone = await newPage(owner, space.id, "Old notes");
    await api(owner, "DELETE", `/api/pages/${gone.id}`);
  }
  await viewOnlySpace(owner, "QUIET", "Quiet corner", everyone);
  await newSpace(owner, "FRESH", "Fresh start");
  bea = await invitedPerson(world.cairn, owner);
}, 60_000);
afterAll(async () => {
  await bea?.close();
  await world?.close();
});

const pause = (page: Page) => page.waitForTimeout(400);

/** Walks a space's home, tree, a page, the editor's address, the new-page chooser and the trash. */
async function walk(page: Page, key: string, offered: boolean) {
  const count = (n: number) => (offered ? n > 0 : n === 0);
  const pageId = ids[key]!;
  // The space's home and its sidebar.
  await page.goto(`/s/${key}`);
  await page.getByRole("treeitem").first().waitFor();
  await page.getByText("Recently updated").waitFor();
  expect(count(await page.getByRole("button", { name: /new page/i }).count())).toBe(true);
  expect(count(await page.getByRole("link", { name: "Trash" }).count())).toBe(true);
  expect(await page.locator(".space-home-head").getByText("View only").count()).toBe(offered ? 0 : 1);
  // Tree rows: their "+" and "…", dragging, the row menu's key, moving among siblings.
  const row = page.getByRole("treeitem", { name: "Glossary" });
  await row.hover();
  expect(count(await page.locator(".tree-action").count())).toBe(true);
  expect(await row.getAttribute("draggable")).toBe(offered ? "true" : null);
  await row.focus();
  await page.keyboard.press("Shift+F10");
  if (offered) {
    await page.getByRole("menuitem", { name: "Move to trash" }).waitFor();
    await page.keyboard.press("Escape");
  } else {
    await pause(page);
    expect(await page.getByRole("menu").count()).toBe(0);
    await row.focus();
    await page.keyboard.press("Alt+Shift+ArrowUp");
    await pause(page);
    expect(
      await page
        .getByRole("status")
        .filter({ hasText: /moved|could not/i })
        .count(),
    ).toBe(0);
  }

  // A page: Edit, the "e" key, the page menu.
  await page.goto(`/s/${key}/p/${pageId}`);
  await page.getByRole("heading", { level: 1 }).waitFor();
  expect(count(await page.getByRole("button", { name: "Edit" }).count())).toBe(true);
  await page.getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: "Copy link" }).waitFor();
  expect(count(await page.getByRole("menuitem", { name: "Move to trash" }).count())).toBe(true);
  expect(count(await page.getByRole("menuitem", { name: /Full width|Readable width/ }).count())).toBe(true);
  await page.keyboard.press("Escape");
  await page.getByRole("heading", { level: 1 }).click();
  await page.keyboard.press("e");
  if (offered) await page.waitForURL(/\/edit$/);
  else {
    await pause(page);
    expect(page.url()).not.toContain("/edit");
    expect(await page.locator(".ProseMirror").count()).toBe(0);
  }

  // The editor's own address does not open an editor for a reader: it becomes the page's.
  if (!offered) {
    await page.goto(`/s/${key}/p/${pageId}/edit`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.waitForURL((u) => !u.pathname.endsWith("/edit"));
    expect(await page.locator(".ProseMirror").count()).toBe(0);
  }

  // The new-page chooser (blank page and templates) and the trash.
  await page.goto(`/s/${key}/new`);
  await page.getByRole("heading", { level: 1 }).waitFor();
  expect(count(await page.getByRole("button", { name: /Blank page/ }).count())).toBe(true);
  if (!offered) await page.getByText("You can read Handbook, but not add pages to it.").waitFor();
  await page.goto(`/s/${key}/trash`);
  await page.getByText("Old notes").waitFor();
  expect(count(await page.getByRole("button", { name: /^Restore/ }).count())).toBe(true);
  expect(count(await page.getByRole("button", { name: /^Delete for good/ }).count())).toBe(true);
}

describe("what a member is offered follows their rights", () => {
  test("with View only: no New page, Trash, row actions, dragging, Edit, e, page menu edits, templates", async () => {
    const { page } = bea;
    const writes: string[] = [];
    const onRequest = (r: { method(): string; url(): string }) => {
      if (r.method() !== "GET" && new URL(r.url()).pathname.startsWith("/api/pages")) writes.push(`${r.method()} ${r.url()}`);
    };
    page.on("request", onRequest);
    await walk(page, "READ", false);
    // An empty space says so, and offers no first page.
    await page.goto("/s/QUIET");
    await page.getByRole("heading", { name: "This space has no pages yet" }).waitFor();
    expect(await page.getByRole("link", { name: /Create the first page|New page/ }).count()).toBe(0);
    await page.getByText("Nobody has written here yet").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    page.off("request", onRequest);
    expect(writes).toEqual([]);
  }, 60_000);

  test("with Edit: each of them is there", async () => {
    const { page } = bea;
    await walk(page, "EDIT", true);
    await page.goto("/s/FRESH");
    await page.getByRole("button", { name: "Create the first page" }).waitFor();
  }, 60_000);

  test("a page whose Edit restriction leaves them out: its tree row offers no +, … or menu key, a sibling's does", async () => {
    const owner = world.owner.page;
    const me = (await api(owner, "GET", "/api/auth/me")) as { id: string };
    const tree = (await api(owner, "GET", "/api/pages/tree?spaceId=EDIT")) as Array<{ id: string; title: string }>;
    const glossary = tree.find((n) => n.title === "Glossary")!;
    await api(owner, "POST", `/api/pages/${glossary.id}/restrictions`, { principalType: 0, principalId: me.id, operation: 1 });
    const { page } = bea;
    await page.goto("/s/EDIT");
    const locked = page.getByRole("treeitem", { name: "Glossary" });
    await locked.waitFor();
    await locked.hover();
    expect(await locked.locator("xpath=..").locator(".tree-action").count()).toBe(0);
    expect(await locked.getAttribute("draggable")).toBe(null);
    await locked.focus();
    await page.keyboard.press("Shift+F10");
    await pause(page);
    expect(await page.getByRole("menu").count()).toBe(0);
    const open = page.getByRole("treeitem", { name: "Workshop guide" });
    await open.hover();
    expect(await open.locator("xpath=..").locator(".tree-action").count()).toBe(2);
  }, 60_000);

  test("the View-only space's home and page in the four looks", async () => {
    const v = await visit(world.cairn, { storageState: await bea.context.storageState() });
    try {
      await v.page.goto("/s/READ");
      await v.page.getByText("Recently updated").waitFor();
      expect(await checkLooks(v.page, "rights-view-home")).toEqual({});
      await v.page.goto(`/s/READ/p/${ids.READ}`);
      await v.page.getByRole("heading", { level: 1, name: "Handbook guide" }).waitFor();
      expect(await checkLooks(v.page, "rights-view-page")).toEqual({});
      expect(v.errors).toEqual([]);
    } finally {
      await v.close();
    }
  }, 60_000);
});
