/**
 * A space's settings in the browser: the name and icon changed; the space made private in one
 * action (a second account no longer sees it), then one person added back by name; a webhook
 * to a local receiver with its delivery in the log; a template made from scratch, written in the
 * editor and used for a new page, another made from a page. Every section in the four looks, with axe,
 * each loaded once and its looks gone through in place (checkLooks).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { axeViolations, checkLooks, createOwner, PASSWORD, screenshot, startCairn, visit, type RunningCairn, type Visit } from "./harness";
import { api, invitedPerson, newPage, newSpace, slash, storedDoc } from "./fixtures";

let cairn: RunningCairn;
let v: Visit;
let bea: Visit;
let space: { id: string; key: string };
const received: Array<{ signature: string | null; body: any }> = [];
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    received.push({ signature: req.headers.get("webhook-signature"), body: await req.json().catch(() => null) });
    return new Response("thanks", { status: 200 });
  },
});

beforeAll(async () => {
  // The webhook's receiver listens on loopback, which outbound requests reach only when the
  // administrator allows it.
  cairn = await startCairn([], { CAIRN_OUTBOUND_ALLOW: "127.0.0.1" });
  v = await visit(cairn);
  await createOwner(v.page);
  await api(v.page, "PUT", "/api/admin/settings", { loginRateLimitPerMinute: 1000 });
  space = await newSpace(v.page, "ENG", "Engineering");
  await newPage(v.page, space.id, "Welcome");
  // A second account, which sees the space through the Everyone group.
  bea = await invitedPerson(cairn, v.page);
}, 60_000);
afterAll(async () => {
  await bea?.close();
  await v?.close();
  await cairn?.stop();
  receiver.stop(true);
});

const keysSeenBy = async (who: Visit) => ((await api(who.page, "GET", "/api/spaces")) as Array<{ key: string }>).map((s) => s.key);

describe("space settings", () => {
  test("the name and the icon change from General", async () => {
    const { page } = v;
    await page.goto("/s/ENG");
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("heading", { name: "Settings of Engineering" }).waitFor();
    await page.getByLabel("Name", { exact: true }).fill("Engineering team");
    await page.getByRole("button", { name: "🚀" }).click();
    expect(await page.getByRole("button", { name: "🚀" }).getAttribute("aria-pressed")).toBe("true");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Saved", { exact: true }).waitFor();
    const stored = await api(page, "GET", "/api/spaces/ENG");
    expect([stored.name, stored.iconKind, stored.iconValue]).toEqual(["Engineering team", 1, "🚀"]);
    // The sidebar's switcher follows at once.
    await page.getByRole("button", { name: /^Engineering team.*switch space/ }).waitFor();
    // An export switch is saved at once.
    await page.getByRole("switch", { name: /^PDF/ }).click();
    await page.getByText("PDF export off").waitFor();
    expect((await api(page, "GET", "/api/spaces/ENG")).exports.pdf).toBe(false);
    // Public reading: on, then off again (comments follow only while it is on).
    const publicSwitch = page.getByRole("switch", { name: /^Anyone can read this space/ });
    await publicSwitch.focus();
    await page.keyboard.press("Space");
    await page.getByText("The space is public").waitFor();
    expect((await api(page, "GET", "/api/spaces/ENG")).isPublic).toBe(true);
    expect(await page.getByRole("switch", { name: /^Visitors see the comments/ }).isEnabled()).toBe(true);
    await publicSwitch.click();
    await page.getByText("The space is no longer public").waitFor();
    expect((await api(page, "GET", "/api/spaces/ENG")).isPublic).toBe(false);
  }, 30_000);

  test("Make private takes the space from everyone else in one action; a person added by name sees it again", async () => {
    expect(await keysSeenBy(bea)).toContain("ENG");
    // Bea edits but does not administer: no Settings link for her.
    await bea.page.goto("/s/ENG");
    await bea.page.getByRole("treeitem", { name: "Welcome" }).waitFor();
    expect(await bea.page.getByRole("link", { name: "Settings" }).count()).toBe(0);

    const { page } = v;
    await page.goto("/s/ENG/settings/access");
    await page.getByText("Every account of this wiki can edit Engineering team.").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Make private" }).click();
    await page.getByText("Engineering team is private now").waitFor();
    await page.getByText("Engineering team is private: only the people and groups below can see it.").waitFor();
    expect(await keysSeenBy(bea)).not.toContain("ENG");
    await bea.page.goto("/s/ENG");
    await bea.page.getByRole("heading", { name: "This space does not exist" }).waitFor();

    // Bea, found by name, gets View.
    await page.getByRole("searchbox", { name: "Find a person or group" }).fill("bea");
    await page.getByRole("button", { name: "Add with View" }).click();
    await page.getByText("Bea Builder can view the space").waitFor();
    await page.getByRole("combobox", { name: "What Bea Builder may do" }).waitFor();
    expect(await keysSeenBy(bea)).toContain("ENG");
  }, 30_000);

  test("a webhook to a local receiver shows its delivery in the log", async () => {
    const { page } = v;
    await page.goto("/s/ENG/settings/webhooks");
    await page.getByRole("heading", { name: "No webhooks yet" }).waitFor();
    await page.getByRole("button", { name: "New webhook" }).click();
    const dialog = page.getByRole("dialog", { name: "New webhook" });
    await dialog.getByLabel("Address (URL)").fill(`http://127.0.0.1:${receiver.port}/hook`);
    await dialog.getByLabel("Every event, including kinds added later").uncheck();
    expect(await checkLooks(page, "space-settings-webhook-new")).toEqual({});
    await dialog.getByLabel("Every event, including kinds added later").check();
    await dialog.getByRole("button", { name: "Add the webhook" }).click();
    const secretDialog = page.getByRole("dialog", { name: "Keep the signing secret" });
    expect(await secretDialog.getByLabel("Signing secret").inputValue()).toMatch(/^whsec_/);
    expect(await checkLooks(page, "space-settings-webhook-secret")).toEqual({});
    await secretDialog.getByRole("button", { name: "Done" }).click();
    // Something happens in the space: the description changes (space.updated).
    await api(page, "PUT", "/api/spaces/ENG", { description: "Where the engineers write things down." });
    await page.getByRole("button", { name: /127\.0\.0\.1.*delivery log/ }).click();
    await page.getByRole("region", { name: "Deliveries" }).getByText("Delivered").waitFor({ timeout: 15_000 });
    const row = page.getByRole("region", { name: "Deliveries" }).getByRole("row").nth(1);
    expect(await row.textContent()).toMatch(/space\.updated.*Delivered.*200.*\d+ ms/);
    expect(received.map((r) => r.body?.type)).toContain("space.updated");
    expect(received[0]!.signature).toMatch(/^v1,/);

    // Redeliver, by keyboard: a second delivery of the same event, in the log and at the receiver.
    const log = page.getByRole("region", { name: "Deliveries" });
    const redeliver = log.getByRole("button", { name: /^Redeliver the space\.updated event/ });
    await redeliver.focus();
    await page.keyboard.press("Enter");
    await page.getByText("The space.updated event is being sent again").waitFor();
    await log.getByText("Delivered").nth(1).waitFor({ timeout: 15_000 });
    expect(await log.getByRole("row").count()).toBe(3);
    const sent = () => received.filter((r) => r.body?.type === "space.updated");
    for (let i = 0; i < 50 && sent().length < 2; i++) await Bun.sleep(100);
    expect(sent().length).toBe(2);
    expect(sent()[1]!.body).toEqual(sent()[0]!.body);
    expect(await checkLooks(page, "space-settings-webhook-redelivered")).toEqual({});

    // Switched off by keyboard: marked off, with what that means; nothing can be sent again.
    const onOff = page.getByRole("switch", { name: `Send events to http://127.0.0.1:${receiver.port}/hook` });
    await onOff.focus();
    await page.keyboard.press("Space");
    await page.getByText("The webhook is off: nothing is sent until it is switched on").waitFor();
    await page.getByText("Switched off: nothing is sent, and events in the meantime are not kept.").waitFor();
    expect(await onOff.isChecked()).toBe(false);
    expect(await redeliver.first().isDisabled()).toBe(true);
    const [hook] = (await api(page, "GET", "/api/spaces/ENG/webhooks")) as Array<{ enabled: boolean }>;
    expect(hook!.enabled).toBe(false);
    expect(await checkLooks(page, "space-settings-webhook-off")).toEqual({});
    // And on again.
    await onOff.focus();
    await page.keyboard.press("Space");
    await page.getByText("The webhook is on: new events are sent again").waitFor();
    expect(await onOff.isChecked()).toBe(true);
  }, 60_000);

  test("a template made from scratch is written in the editor and starts a new page; another comes from a page", async () => {
    const { page } = v;
    const kb = page.keyboard;
    await newPage(page, space.id, "Agenda", { text: "Decisions, then actions, then questions." });
    await page.goto("/s/ENG/settings/templates");
    await page.getByRole("heading", { name: "No templates in this space yet" }).waitFor();
    await page.getByRole("button", { name: "New template" }).click();
    let dialog = page.getByRole("dialog", { name: "New template" });
    await dialog.getByLabel("Name").fill("Meeting notes");
    await dialog.getByLabel("Description").fill("For the weekly meeting");
    expect(await dialog.getByLabel("Start from").inputValue()).toBe("");
    // From scratch: the editor opens next.
    await dialog.getByRole("button", { name: "Create and write its content" }).click();
    await page.waitForURL(/\/s\/ENG\/settings\/templates\/[0-9a-f-]{36}$/);
    const templateId = /templates\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
    await page.getByRole("heading", { level: 1, name: "Meeting notes" }).waitFor();
    // A blank template: the caret is already in the editor.
    await page.locator(".ProseMirror:focus").waitFor();
    // A file pasted has nowhere to go: it is refused in plain words.
    await page.evaluate(() => {
      const files = new DataTransfer();
      files.items.add(new File(["png"], "diagram.png", { type: "image/png" }));
      document
        .querySelector(".ProseMirror")!
        .dispatchEvent(new ClipboardEvent("paste", { clipboardData: files, bubbles: true, cancelable: true }));
    });
    await page.getByText("Files cannot be added to a template: it has no page to attach them to.", { exact: false }).waitFor();
    // A heading by its Markdown shortcut, a task list from the "/" menu.
    await kb.type("## Decisions");
    await kb.press("Enter");
    await slash(page, "task", "Task list");
    await kb.type("Write the minutes");
    await kb.press("Enter");
    await kb.type("Send them round");
    // Nowhere to upload to: the "/" menu offers no Image.
    await kb.type(" /imag");
    await page.getByText("No block matches").waitFor();
    await kb.press("Escape");
    for (let i = 0; i < 6; i++) await kb.press("Backspace");
    await page.locator(".ProseMirror h2", { hasText: "Decisions" }).waitFor();
    await page.locator(".ProseMirror ul[data-type='taskList'] li").nth(1).waitFor();
    expect(await checkLooks(page, "space-settings-template-editor-typed")).toEqual({});
    // Ctrl-Enter saves and goes back to the list.
    await kb.press("Control+Enter");
    await page.getByText("The template “Meeting notes” was saved").waitFor();
    await page.waitForURL((u) => u.pathname === "/s/ENG/settings/templates");
    await page.getByText("For the weekly meeting · changed").waitFor();
    const stored = ((await api(page, "GET", `/api/templates?spaceId=${space.id}`)) as Array<{ id: string; contentJson: string }>).find(
      (t) => t.id === templateId,
    )!;
    const doc = JSON.parse(stored.contentJson);
    expect(doc.content[0]).toMatchObject({ type: "heading", attrs: { level: 2 }, content: [{ text: "Decisions" }] });
    expect(JSON.stringify(doc.content[1])).toMatch(/"taskList".*"Write the minutes".*"Send them round"/);
    expect(stored.contentJson).not.toContain("/imag");

    // Cancel asks only once something changed; discarding keeps the saved content.
    await page.getByRole("link", { name: "Edit content of Meeting notes" }).click();
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.waitForURL((u) => u.pathname === "/s/ENG/settings/templates");
    await page.getByRole("link", { name: "Edit content of Meeting notes" }).click();
    await page.locator(".ProseMirror h2", { hasText: "Decisions" }).click();
    await kb.type(" and owners");
    await page.getByRole("button", { name: "Cancel" }).click();
    const discard = page.getByRole("dialog", { name: "Discard your changes?" });
    await discard.getByText("The changes you made to the content of “Meeting notes” will be lost.").waitFor();
    await discard.getByRole("button", { name: "Discard changes" }).click();
    await page.waitForURL((u) => u.pathname === "/s/ENG/settings/templates");

    // A new page from it holds what was written.
    await page.goto("/s/ENG/new");
    await page.getByRole("button", { name: /Meeting notes/ }).click();
    await page.waitForURL(/\/edit$/);
    const id = /\/p\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const made = await storedDoc(page, id);
    expect(made.doc.content[0]).toMatchObject({ type: "heading", content: [{ text: "Decisions" }] });
    expect(made.text).toContain("taskItem");
    expect(made.text).toContain("Send them round");
    expect(made.text).not.toContain("and owners");

    // Another template, from a page: its content is the page's.
    await page.goto("/s/ENG/settings/templates");
    await page.getByRole("button", { name: "New template" }).click();
    dialog = page.getByRole("dialog", { name: "New template" });
    await dialog.getByLabel("Name").fill("Agenda copy");
    await dialog.getByLabel("Start from").selectOption({ label: "The page: Agenda" });
    expect(await checkLooks(page, "space-settings-template-from-page")).toEqual({});
    await dialog.getByRole("button", { name: "Create the template" }).click();
    await page.getByText("The template “Agenda copy” was created").waitFor();
    const copy = ((await api(page, "GET", `/api/templates?spaceId=${space.id}`)) as Array<{ name: string; contentJson: string }>).find(
      (t) => t.name === "Agenda copy",
    )!;
    expect(copy.contentJson).toContain("Decisions, then actions, then questions.");

    // The list and the template editor in the four looks, with the "/" menu open, axe clean (a
    // context of their own: the "/" typed is left unsaved).
    const s = await visit(cairn, { storageState: await v.context.storageState() });
    try {
      await s.page.goto("/s/ENG/settings/templates");
      await s.page.getByRole("link", { name: "Edit content of Agenda copy" }).waitFor();
      expect(await checkLooks(s.page, "space-settings-template-list")).toEqual({});
      await s.page.goto(`/s/ENG/settings/templates/${templateId}`);
      await s.page.locator(".ProseMirror h2", { hasText: "Decisions" }).waitFor();
      expect(await checkLooks(s.page, "space-settings-template-editor")).toEqual({});
      await s.page.locator(".ProseMirror li", { hasText: "Send them round" }).click();
      await s.page.keyboard.press("End");
      await s.page.keyboard.press("Enter");
      await s.page.keyboard.press("Enter");
      await s.page.keyboard.type("/");
      const heading1 = s.page.getByRole("option", { name: /^Heading 1/ });
      await heading1.waitFor();
      expect(await checkLooks(s.page, "space-settings-template-editor-menu", () => heading1.waitFor())).toEqual({});
      expect(s.errors).toEqual([]);
      expect(s.foreign).toEqual([]);
    } finally {
      await s.close();
    }
  }, 120_000);

  test("deleting a space asks for its key and the password, naming what goes", async () => {
    const { page } = v;
    const tmp = await newSpace(page, "TMP", "Scratch space");
    await newPage(page, tmp.id, "Throwaway");
    await page.goto("/s/TMP/settings");
    await page.getByRole("button", { name: "Delete Scratch space…" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Scratch space?" });
    await dialog.getByText(/^1 page \(0 drafts, 0 in the trash\), 1 version/).waitFor();
    await dialog.getByLabel("Type the key, TMP, to confirm").fill("TM");
    await dialog.getByLabel("Your password").fill(PASSWORD);
    await dialog.getByRole("button", { name: "Delete the space for good" }).click();
    await dialog.getByText("Type the space's key, TMP, to confirm.").waitFor();
    await dialog.getByLabel("Type the key, TMP, to confirm").fill("tmp");
    await dialog.getByLabel("Your password").fill("not my password");
    await dialog.getByRole("button", { name: "Delete the space for good" }).click();
    await dialog.getByText("That password is not right").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByLabel("Your password").fill(PASSWORD);
    await dialog.getByRole("button", { name: "Delete the space for good" }).click();
    await page.getByText("Scratch space was deleted").waitFor();
    await page.waitForURL((u) => u.pathname === "/");
    expect(await keysSeenBy(v)).not.toContain("TMP");
  }, 30_000);

  test("every section in the four looks, with no serious axe violation", async () => {
    const s = await visit(cairn, { storageState: await v.context.storageState() });
    const { page } = s;
    try {
      for (const section of ["general", "access", "templates", "webhooks"]) {
        await page.goto(`/s/ENG/settings/${section}`);
        await page.getByRole("heading", { name: "Settings of Engineering team" }).waitFor();
        if (section === "webhooks") await page.getByRole("button", { name: /127\.0\.0\.1.*delivery log/ }).click();
        if (section === "webhooks") await page.getByRole("region", { name: "Deliveries" }).waitFor();
        if (section === "access") await page.getByRole("combobox", { name: "What Bea Builder may do" }).waitFor();
        if (section === "templates") await page.getByText("Meeting notes").waitFor();
        // General is long: its end and its middle are photographed in each look too, before the
        // look's own screenshot of its top.
        const ready =
          section === "general"
            ? async () => {
                await page.getByRole("heading", { name: "Delete the space" }).scrollIntoViewIfNeeded();
                await screenshot(page, "space-settings-general-end");
                await page.getByRole("heading", { name: "Exports" }).scrollIntoViewIfNeeded();
                await screenshot(page, "space-settings-general-middle");
                await page.evaluate(() => {
                  window.scrollTo(0, 0);
                  document.querySelector("main")?.scrollTo(0, 0);
                });
              }
            : undefined;
        const name = `space-settings-${section}`;
        expect({ name, violations: await checkLooks(page, name, ready) }).toEqual({ name, violations: {} });
      }
      expect(s.errors).toEqual([]);
      expect(s.foreign).toEqual([]);
    } finally {
      await s.close();
    }
  }, 120_000);
});
