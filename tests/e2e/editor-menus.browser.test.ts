/**
 * The editor's floating menus, measured in the browser at 375 and 1280 px: the "/" menu and the
 * "@" list opened on the last line of a long page flip above the caret and stay in the window;
 * the table toolbar covers neither the table's header row nor the sidebar; the code-language
 * picker covers no line of code; the selection toolbar and the emoji picker stay in the page's
 * part of the window. Screenshots of each, light and dark, with axe: each menu is opened once and
 * goes through the four looks in place (checkLooks), its placement measured again in each.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { checkLooks, visit } from "./harness";
import { api, caretToEnd, docJson, newSpace, ownerWorld, para, type World } from "./fixtures";

let world: World;
let pageId: string;

const cell = (type: "tableHeader" | "tableCell", text: string) => ({ type, content: [para(text)] });
const row = (type: "tableHeader" | "tableCell", ...texts: string[]) => ({ type: "tableRow", content: texts.map((t) => cell(type, t)) });
const filler = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => para(`Paragraph ${from + i}: a line of ordinary text, long enough to wrap on a phone.`));
const CODE = "#!/bin/sh\necho first line\nbun run build\nexit 0";

beforeAll(async () => {
  world = await ownerWorld();
  const space = await newSpace(world.owner.page, "MENU", "Menus");
  const doc = docJson(
    ...filler(1, 25),
    {
      type: "table",
      content: [
        row("tableHeader", "Service", "Owner", "State"),
        row("tableCell", "Search", "Ada", "Up"),
        row("tableCell", "Backups", "Grace", "Up"),
      ],
    },
    ...filler(26, 6),
    { type: "codeBlock", attrs: { language: "bash" }, content: [{ type: "text", text: CODE }] },
    ...filler(32, 30),
    para("The last line of the page."),
  );
  pageId = (await api(world.owner.page, "POST", "/api/pages", { spaceId: space.id, title: "Floating menus", contentJson: doc })).id;
}, 60_000);
afterAll(async () => world?.close());

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const overlap = (a: Box, b: Box) =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
const box = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => el.getBoundingClientRect().toJSON() as Box);

/** The window's part that shows the page: below the top bar, right of the sidebar when shown, inside the window. */
async function expectInPageArea(page: Page, b: Box) {
  const area = await page.evaluate(() => {
    const top = document.querySelector(".topbar")!.getBoundingClientRect().bottom;
    const side = document.querySelector(".sidebar");
    const left = side && getComputedStyle(side).display !== "none" ? side.getBoundingClientRect().right : 0;
    return { top, left, right: document.documentElement.clientWidth, bottom: innerHeight };
  });
  expect(b.y).toBeGreaterThanOrEqual(area.top);
  expect(b.x).toBeGreaterThanOrEqual(area.left);
  expect(b.x + b.width).toBeLessThanOrEqual(area.right);
  expect(b.y + b.height).toBeLessThanOrEqual(area.bottom);
}

/** Waits until `selector` is drawn and has kept its place for a few frames. */
async function settled(page: Page, selector: string) {
  await page.waitForFunction(
    (sel) =>
      new Promise<boolean>((resolve) => {
        const at = () => JSON.stringify(document.querySelector(sel)?.getBoundingClientRect());
        const first = at();
        setTimeout(() => resolve(!!document.querySelector(sel)?.getBoundingClientRect().height && at() === first), 150);
      }),
    selector,
  );
}

/** Scrolls the window so that `selector`'s box ends `fromBottom` pixels above the window's bottom. */
async function scrollToBottomEdge(page: Page, selector: string, fromBottom: number) {
  await page
    .locator(selector)
    .last()
    .evaluate((el, gap) => window.scrollBy(0, el.getBoundingClientRect().bottom - (innerHeight - gap)), fromBottom);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Puts the caret in the text `text` of the editor (through the editor, then waits for the menus). */
async function caretIn(page: Page, selector: string, text: string) {
  await page.locator(selector, { hasText: text }).first().click();
}

describe("floating menus, each in the four looks", () => {
  test("the / menu and the @ list on the last line flip above the caret and stay in the window", async () => {
    const v = await visit(world.cairn, { storageState: world.storage });
    try {
      const { page } = v;
      await page.goto(`/s/MENU/p/${pageId}/edit`);
      await page.locator(".ProseMirror p", { hasText: "The last line of the page." }).waitFor();
      await caretToEnd(page);
      await page.keyboard.type(" /");
      await page.getByRole("listbox", { name: "Insert a block" }).waitFor();
      /** In each look: the last line 24 px above the window's bottom, the list above it and in the page's part of the window. */
      const aboveTheLastLine = async (minHeight: number) => {
        await scrollToBottomEdge(page, ".ProseMirror p", 24);
        await settled(page, ".suggestion-popup");
        const caretLine = await box(page, ".ProseMirror > p:last-child");
        const popup = await box(page, ".suggestion-popup");
        expect(popup.height).toBeGreaterThan(minHeight);
        expect(popup.y + popup.height).toBeLessThanOrEqual(caretLine.y + 2);
        await expectInPageArea(page, popup);
      };
      expect(await checkLooks(page, "menu-slash", () => aboveTheLastLine(100))).toEqual({});
      await page.keyboard.press("Escape");
      await page.keyboard.press("Backspace");
      await page.keyboard.type("@");
      await page.getByRole("listbox", { name: "Mention someone" }).getByRole("option").first().waitFor();
      expect(await checkLooks(page, "menu-mention", () => aboveTheLastLine(0))).toEqual({});
      await page.keyboard.press("Escape");
      expect(v.errors).toEqual([]);
    } finally {
      await v.close();
    }
  }, 60_000);

  test("the table toolbar covers neither the header row nor the sidebar; the language picker covers no code", async () => {
    const v = await visit(world.cairn, { storageState: world.storage });
    try {
      const { page } = v;
      await page.goto(`/s/MENU/p/${pageId}/edit`);
      await page.locator(".ProseMirror table").waitFor();
      /** Scrolls `selector`'s top right under the top bar ("top", no room above it) or to the middle of the window. */
      const scrollTo = (selector: string, where: "top" | "middle") =>
        page.locator(selector).evaluate((el, where) => {
          const top = document.querySelector(".topbar")!.getBoundingClientRect().bottom;
          window.scrollBy(0, el.getBoundingClientRect().top - (where === "top" ? top + 4 : innerHeight / 2 - 60));
        }, where);
      const toolbar = page.getByRole("toolbar", { name: "Table" });
      // In each look, the table right under the top bar, then in the middle of the window (photographed there).
      const tableToolbarPlaced = async () => {
        for (const where of ["top", "middle"] as const) {
          await scrollTo(".ProseMirror table", where);
          await caretIn(page, ".ProseMirror td p", "Ada");
          await toolbar.waitFor();
          await page.waitForTimeout(100);
          const bar = await toolbar.evaluate((el) => el.getBoundingClientRect().toJSON() as Box);
          expect(overlap(bar, await box(page, ".ProseMirror table tr:first-child"))).toBe(0);
          expect(overlap(bar, await box(page, ".ProseMirror td:has(p)"))).toBe(0);
          if (page.viewportSize()?.width === 1280) expect(overlap(bar, await box(page, ".sidebar"))).toBe(0);
          await expectInPageArea(page, bar);
        }
      };
      expect(await checkLooks(page, "menu-table", tableToolbarPlaced)).toEqual({});

      const picker = page.getByRole("toolbar", { name: "Code block" });
      const pickerPlaced = async () => {
        for (const where of ["top", "middle"] as const) {
          await scrollTo(".ProseMirror pre", where);
          await page.locator(".ProseMirror pre").click({ position: { x: 30, y: 14 } });
          await picker.waitFor();
          await page.waitForTimeout(100);
          const pickerBox = await picker.evaluate((el) => el.getBoundingClientRect().toJSON() as Box);
          // Each line of code, as drawn.
          const lines = await page.locator(".ProseMirror pre code").evaluate((code) => {
            const range = document.createRange();
            range.selectNodeContents(code);
            return Array.from(range.getClientRects()).map((r) => r.toJSON() as Box);
          });
          expect(lines.length).toBeGreaterThan(0);
          for (const line of lines) expect(overlap(pickerBox, line)).toBe(0);
          await expectInPageArea(page, pickerBox);
        }
      };
      expect(await checkLooks(page, "menu-code", pickerPlaced)).toEqual({});
      expect(v.errors).toEqual([]);
    } finally {
      await v.close();
    }
  }, 60_000);

  test("the selection toolbar and the emoji picker stay in the page's part of the window", async () => {
    const v = await visit(world.cairn, { storageState: world.storage });
    try {
      const { page } = v;
      await page.goto(`/s/MENU/p/${pageId}/edit`);
      const first = page.locator(".ProseMirror p").first();
      await first.waitFor();
      const bubble = page.getByRole("toolbar", { name: "Text formatting" });
      const bubblePlaced = async () => {
        // The first paragraph right under the top bar: no room above the selection.
        await first.evaluate((el) =>
          window.scrollBy(0, el.getBoundingClientRect().top - document.querySelector(".topbar")!.getBoundingClientRect().bottom - 2),
        );
        await first.dblclick({ position: { x: 30, y: 8 } });
        await bubble.waitFor();
        await page.waitForTimeout(100);
        const bubbleBox = await bubble.evaluate((el) => el.getBoundingClientRect().toJSON() as Box);
        await expectInPageArea(page, bubbleBox);
        // Over neither the selected word nor the text of its line.
        const selected = await page.evaluate(() => getSelection()!.getRangeAt(0).getBoundingClientRect().toJSON() as Box);
        expect(selected.width).toBeGreaterThan(0);
        expect(overlap(bubbleBox, { ...selected, x: 0, width: 2000 })).toBe(0);
      };
      expect(await checkLooks(page, "menu-bubble", bubblePlaced)).toEqual({});

      const emoji = page.getByRole("dialog", { name: "Choose an emoji" });
      // Opened anew in each look, so that it is placed for that window.
      const emojiPlaced = async () => {
        if (await emoji.isVisible()) {
          await page.keyboard.press("Escape");
          await emoji.waitFor({ state: "hidden" });
        }
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.getByRole("button", { name: "Add an emoji" }).click();
        await emoji.waitFor();
        await page.waitForTimeout(100);
        await expectInPageArea(page, await emoji.evaluate((el) => el.getBoundingClientRect().toJSON() as Box));
      };
      expect(await checkLooks(page, "menu-emoji", emojiPlaced)).toEqual({});
      await page.keyboard.press("Escape");
      expect(v.errors).toEqual([]);
    } finally {
      await v.close();
    }
  }, 60_000);
});
