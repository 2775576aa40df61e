/**
 * Writing pages in the browser: a new page with every block of the editor schema
 * (docs/decisions.md, "One editor schema") (through the "/" menu, Markdown shortcuts, the toolbars,
 * an uploaded image and a mention), publishing, editing again with E and Ctrl-Enter, a conflict
 * between two people resolved without losing either text, a page from a template, and unsaved edits
 * surviving a reload.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appStarted, axeViolations, visit, type Visit } from "./harness";
import { api, caretToEnd, docJson, newPage, newSpace, nodeTypes, ownerWorld, para, slash, storedDoc, type World } from "./fixtures";

// A 1×1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkaPhfDwAEhgGAnqWqaAAAAABJRU5ErkJggg==", "base64");

let world: World;
let space: { id: string; key: string };
let v: Visit;

beforeAll(async () => {
  world = await ownerWorld();
  v = world.owner;
  // These tests write alone, over HTTP (save, conflict, local copy): the live room is kept out
  // of reach, as behind a proxy without WebSockets. Editing together: collab.browser.test.ts.
  await editAlone(v);
  space = await newSpace(v.page, "ENG", "Engineering");
});

const editAlone = (visit: Visit) => visit.context.routeWebSocket(/\/api\/collab\//, (ws) => ws.close());
afterAll(async () => world?.close());

describe("writing a page", () => {
  test("a new page with every kind of block, published and read back", async () => {
    const { page } = v;
    await page.goto("/s/ENG");
    // One step: no template of the space's own, so no chooser.
    await page.getByRole("button", { name: "Create the first page" }).click();
    await page.waitForURL(/\/edit$/);
    await page.getByLabel("Title").fill("Release process");
    await page.keyboard.press("Enter");
    const kb = page.keyboard;
    // Markdown shortcuts.
    await kb.type("## Before the release");
    await kb.press("Enter");
    await kb.type("- check the changelog");
    await kb.press("Enter");
    await kb.press("Enter");
    await kb.type("[] tag the build");
    await kb.press("Enter");
    await kb.press("Enter");
    await kb.type("> Ship small, ship often.");
    await kb.press("Enter");
    await kb.press("Enter");
    // The "/" menu.
    await slash(page, "num", "Numbered list");
    await kb.type("first step");
    await kb.press("Enter");
    await kb.press("Enter");
    await slash(page, "code", "Code block");
    await kb.type("bun run build");
    await page.getByLabel("Code language").selectOption("bash");
    await page.locator(".ProseMirror pre").click();
    await kb.press("End");
    await kb.press("Enter");
    await kb.press("Enter");
    await kb.press("Enter");
    await slash(page, "warn", "Warning panel");
    await kb.type("Never deploy on Friday.");
    await caretToEnd(page);
    await slash(page, "expand", "Expand");
    await kb.type("Rollback steps");
    await caretToEnd(page);
    await slash(page, "divider", "Divider");
    await slash(page, "table", "Table");
    await kb.type("Owner");
    await page.getByRole("button", { name: "Row below" }).click();
    await page.getByRole("button", { name: "Column right" }).click();
    await caretToEnd(page);
    // An image through the "/" menu's file picker, uploaded with progress.
    const chooser = page.waitForEvent("filechooser");
    await slash(page, "image", "Image");
    await (await chooser).setFiles({ name: "diagram.png", mimeType: "image/png", buffer: PNG });
    await page.locator(".ProseMirror img[src^='/api/attachments/']").waitFor();
    await caretToEnd(page);
    // A link from the selection toolbar, and a mention.
    await kb.type("Read the wiki");
    await kb.press("Shift+Home");
    await page.getByRole("toolbar", { name: "Text formatting" }).getByRole("button", { name: "Link", exact: true }).click();
    await page.getByLabel("Link address").fill("https://example.com/wiki");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.locator(".ProseMirror a[href='https://example.com/wiki']").waitFor();
    await caretToEnd(page);
    await kb.press("Enter");
    await kb.type("Ask @Oli");
    await page.getByRole("option", { name: /Olive Owner/ }).click();
    await page.getByRole("button", { name: "Publish" }).click();
    await page.waitForURL(/\/p\/[^/]+$/);
    await page.getByRole("heading", { level: 1, name: "Release process" }).waitFor();
    expect(await page.title()).toBe("Release process · Engineering · Cairn");

    const id = /\/p\/([0-9a-f-]{36})/.exec(page.url())![1];
    const stored = await storedDoc(page, id);
    const types = nodeTypes(stored.doc);
    for (const t of [
      "heading",
      "bulletList",
      "taskList",
      "taskItem",
      "blockquote",
      "orderedList",
      "codeBlock",
      "panel",
      "details",
      "detailsSummary",
      "horizontalRule",
      "table",
      "tableHeader",
      "tableCell",
      "image",
      "mention",
      "mark:link",
    ])
      expect([t, types.has(t)]).toEqual([t, true]);
    expect(stored.text).toContain('"language":"bash"');
    // The table grew by a row and a column: 4 rows of 4 cells.
    const table = stored.doc.content.find((b: { type: string }) => b.type === "table");
    expect(table.content.length).toBe(4);
    expect(table.content[0].content.length).toBe(4);
    // The reading view draws them.
    const main = page.locator("main");
    for (const sel of [
      "h2",
      "ul[data-type=taskList]",
      "blockquote",
      "ol",
      "pre code.language-bash",
      "div[data-kind=warning]",
      "details",
      "hr",
      "table",
      "img[alt='diagram.png']",
      "a[href='https://example.com/wiki']",
      ".mention",
    ])
      expect([sel, await main.locator(sel).count()]).not.toEqual([sel, 0]);
    expect(v.errors).toEqual([]);
  }, 60_000);

  test("E edits in place; Ctrl-Enter saves a new version with its change comment; Cancel asks only after a change", async () => {
    const { page } = v;
    const p = await newPage(page, space.id, "Onboarding", { text: "Welcome aboard." });
    await page.goto(`/s/ENG/p/${p.id}`);
    await page.getByText("Welcome aboard.").waitFor();
    await appStarted(page);
    await page.locator("body").press("e");
    await page.waitForURL(/\/edit$/);
    // Cancel with nothing changed leaves at once.
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.waitForURL((u) => !u.pathname.endsWith("/edit"));
    await page.locator("body").press("e");
    await page.locator(".ProseMirror").click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" Ask in #help.");
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("dialog", { name: "Discard your changes?" }).waitFor();
    await page.keyboard.press("Escape");
    await page.getByLabel("What changed (optional)").fill("Where to ask");
    await page.locator(".ProseMirror").press("Control+Enter");
    await page.waitForURL((u) => !u.pathname.endsWith("/edit"));
    await page.getByText("Welcome aboard. Ask in #help.").waitFor();
    const versions = await api(page, "GET", `/api/pages/${p.id}/versions`);
    expect(versions[0]).toMatchObject({ versionNumber: 2, changeComment: "Where to ask" });
    // The save key saved; it did not also type a line break.
    expect((await storedDoc(page, p.id)).text).not.toContain("hardBreak");
    await page
      .locator(".page-meta")
      .getByText(/version 2/)
      .waitFor();
  }, 30_000);

  test("two people save the same version: the second sees both, keeps theirs on top, and nothing is lost", async () => {
    const p = await newPage(v.page, space.id, "Shared notes", { text: "Start." });
    const other = await visit(world.cairn, { storageState: world.storage });
    await editAlone(other);
    try {
      for (const page of [v.page, other.page]) {
        await page.goto(`/s/ENG/p/${p.id}/edit`);
        await page.locator(".ProseMirror").click();
        await page.keyboard.press("Control+End");
      }
      await v.page.keyboard.type(" Alice's line.");
      await v.page.getByRole("button", { name: "Update" }).click();
      await v.page.waitForURL((u) => !u.pathname.endsWith("/edit"));
      await other.page.keyboard.type(" Bob's line.");
      await other.page.getByRole("button", { name: "Update" }).click();
      const dialog = other.page.getByRole("dialog", { name: /Someone else saved this page/ });
      await dialog.waitFor();
      await dialog.getByText("Alice's line.").waitFor();
      await dialog.getByText("Bob's line.").waitFor();
      expect(await axeViolations(other.page)).toEqual([]);
      await dialog.getByRole("button", { name: /Keep mine/ }).click();
      await other.page.waitForURL((u) => !u.pathname.endsWith("/edit"));
      const now = await storedDoc(v.page, p.id);
      expect(now.text).toContain("Bob's line.");
      expect(now.version).toBe(3);
      const v2 = await api(v.page, "GET", `/api/pages/${p.id}/versions/2`);
      expect(v2.contentJson).toContain("Alice's line.");
    } finally {
      await other.close();
    }
  }, 30_000);

  test("copying a block of theirs into mine keeps both texts in the saved page", async () => {
    const p = await newPage(v.page, space.id, "Merge me", { text: "Line one." });
    const other = await visit(world.cairn, { storageState: world.storage });
    await editAlone(other);
    try {
      await other.page.goto(`/s/ENG/p/${p.id}/edit`);
      await other.page.locator(".ProseMirror").click();
      await api(v.page, "PUT", `/api/pages/${p.id}`, {
        contentJson: docJson(para("Line one."), para("Their new paragraph.")),
        baseVersion: 1,
      });
      await other.page.keyboard.press("Control+End");
      await other.page.keyboard.press("Enter");
      await other.page.keyboard.type("My new paragraph.");
      await other.page.keyboard.press("Control+Enter");
      const dialog = other.page.getByRole("dialog", { name: /Someone else saved/ });
      await dialog.getByRole("button", { name: "Copy into mine" }).click();
      await dialog.getByRole("button", { name: /Keep mine/ }).click();
      await other.page.waitForURL((u) => !u.pathname.endsWith("/edit"));
      const now = await storedDoc(v.page, p.id);
      expect(now.text).toContain("Their new paragraph.");
      expect(now.text).toContain("My new paragraph.");
    } finally {
      await other.close();
    }
  }, 30_000);

  test("a template makes a new page, a draft until published", async () => {
    const { page } = v;
    await api(page, "POST", "/api/templates", {
      spaceId: space.id,
      name: "Meeting notes",
      description: "Agenda, notes, actions",
      contentJson: docJson({ type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "Agenda" }] }, { type: "paragraph" }),
    });
    await page.goto("/s/ENG/new");
    await page.getByRole("button", { name: /Meeting notes/ }).click();
    await page.waitForURL(/\/edit$/);
    await page.locator(".ProseMirror h2", { hasText: "Agenda" }).waitFor();
    await page.getByText("Draft · only you can see it").waitFor();
    await page.getByLabel("Title").fill("Weekly sync");
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByRole("heading", { level: 1, name: "Weekly sync" }).waitFor();
    await page.locator("main h2", { hasText: "Agenda" }).waitFor();
  }, 30_000);

  test("unsaved edits survive a reload, and can be thrown away", async () => {
    const { page } = v;
    const p = await newPage(page, space.id, "Scratch", { text: "Saved text." });
    await page.goto(`/s/ENG/p/${p.id}/edit`);
    // Typed only once the editor holds the saved text and takes input (the room has synced):
    // keys pressed before that can land nowhere on a slow machine.
    await page.locator('.ProseMirror[contenteditable="true"]', { hasText: "Saved text." }).click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type(" Unsaved words.");
    // The copy kept in the browser holds every word typed (it is written after a pause in typing).
    await page.waitForFunction((id) => (localStorage.getItem(`cairn.unsaved.${id}`) ?? "").includes("Unsaved words."), p.id, {
      timeout: 45_000,
    });
    await page.reload();
    await page
      .getByRole("status")
      .getByText(/Restored your unsaved changes/)
      .waitFor();
    await page.locator(".ProseMirror", { hasText: "Unsaved words." }).waitFor();
    await page.getByRole("button", { name: "Discard them" }).click();
    expect(await page.locator(".ProseMirror").textContent()).toBe("Saved text.");
  }, 75_000);

  test("pasting from another editor keeps its structure", async () => {
    const { page } = v;
    const p = await newPage(page, space.id, "Pasted", { text: "Intro." });
    await page.goto(`/s/ENG/p/${p.id}/edit`);
    await page.locator(".ProseMirror").click();
    await caretToEnd(page);
    await page.keyboard.press("Enter");
    // The real clipboard, as another editor's copy fills it, then Ctrl+V.
    await v.context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.evaluate(async () => {
      const html =
        "<h2>From the other " +
        "wiki</h2><ul><li>one</li><li>two</li></ul><table><tr><th>Name</th><th>Role</th></tr><tr><td>Ana</td><td>Lead</td></tr></ta" +
        'ble><p>See <a href="https://example.com/x">the source</a> and <strong>bold</strong> text.</p>';
      await navigator.clipboard.write([
        new ClipboardItem({
          "text/html": new Blob([html], { type: "text/html" }),
          "text/plain": new Blob(["From the other wiki"], { type: "text/plain" }),
        }),
      ]);
    });
    await page.keyboard.press("Control+v");
    await page.locator(".ProseMirror h2", { hasText: "From the other wiki" }).waitFor();
    await page.keyboard.press("Control+Enter");
    await page.waitForURL((u) => !u.pathname.endsWith("/edit"));
    const stored = await storedDoc(page, p.id);
    const types = nodeTypes(stored.doc);
    for (const t of ["heading", "bulletList", "table", "tableHeader", "mark:link", "mark:bold"])
      expect([t, types.has(t)]).toEqual([t, true]);
  }, 30_000);

  test("labels, emoji and full width from the page's header; an image pasted from the clipboard uploads", async () => {
    const { page } = v;
    const p = await newPage(page, space.id, "Dressed up", { text: "Body." });
    await api(page, "POST", `/api/pages/${p.id}/labels`, { name: "existing" });
    await page.goto(`/s/ENG/p/${p.id}/edit`);
    await page.getByLabel("Add a label").fill("runbook");
    await page.getByLabel("Add a label").press("Enter");
    await page.getByRole("button", { name: "Remove label runbook" }).waitFor();
    await page.getByLabel("Add a label").fill("two words");
    await page.getByLabel("Add a label").press("Enter");
    await page.getByRole("alert").filter({ hasText: /space/i }).waitFor();
    await page.getByRole("button", { name: "Remove label existing" }).click();
    await page.getByRole("button", { name: "Remove label existing" }).waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Add an emoji" }).click();
    await page.getByRole("button", { name: "🧭" }).click();
    await page.getByRole("button", { name: /Page emoji 🧭/ }).waitFor();
    // An image on the clipboard (a screenshot, say) pasted into the page is uploaded.
    await v.context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.locator(".ProseMirror").click();
    await caretToEnd(page);
    await page.evaluate(async () => {
      const canvas = document.createElement("canvas");
      canvas.width = 40;
      canvas.height = 30;
      canvas.getContext("2d")!.fillRect(0, 0, 20, 15);
      const png = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), "image/png"));
      await navigator.clipboard.write([new ClipboardItem({ "image/png": png })]);
    });
    await page.keyboard.press("Control+v");
    await page.locator(".ProseMirror img[src^='/api/attachments/']").waitFor();
    await page.keyboard.press("Control+Enter");
    await page.waitForURL((u) => !u.pathname.endsWith("/edit"));
    expect((await api(page, "GET", `/api/pages/${p.id}/labels`)).map((l: { name: string }) => l.name)).toEqual(["runbook"]);
    expect((await storedDoc(page, p.id)).text).toContain("/api/attachments/");
    await page.locator("main h1 .page-emoji", { hasText: "🧭" }).waitFor();
    // Full width from the page's menu.
    await page.getByRole("button", { name: "More actions" }).click();
    await page.getByRole("menuitem", { name: "Full width" }).click();
    await page.locator("main.full-width").waitFor();
    expect((await api(page, "GET", `/api/pages/${p.id}`)).fullWidth).toBe(true);
  }, 30_000);

  test("a new page saved as a draft stays a draft, seen only by its author, until published", async () => {
    const { page } = v;
    await page.goto("/s/ENG/new");
    await page.getByRole("button", { name: /Blank page/ }).click();
    await page.waitForURL(/\/edit$/);
    await page.getByLabel("Title").fill("Half-baked idea");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Not ready yet.");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByText("Draft saved").waitFor();
    const id = /\/p\/([0-9a-f-]{36})/.exec(page.url())![1];
    expect((await api(page, "GET", `/api/pages/${id}`)).status).toBe(0);
    // Reopened later, it resumes in the editor where it was left.
    await page.goto(`/s/ENG/p/${id}`);
    await page.locator(".ProseMirror", { hasText: "Not ready yet." }).waitFor();
    await page.getByText("Draft · only you can see it").waitFor();
  }, 30_000);

  test("no request left the server", () => {
    expect(v.foreign).toEqual([]);
    expect(v.errors).toEqual([]);
  });
});
