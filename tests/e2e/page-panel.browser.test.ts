/**
 * The panel around a page: an inline comment on a selected passage (highlighted, reopened by a
 * click on it), a reply with a mention, resolve; a file uploaded with its progress shown, one
 * refused over 25 MB, the file downloaded; the page restricted to its owner, after which a
 * second account gets a 404 and no longer finds it in the tree. Each section in the four looks
 * (checkLooks), with axe.
 */
import { mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { apiCall, axeViolations, checkLooks, createOwner, startCairn, visit, type RunningCairn, type Visit } from "./harness";
import { api, invitedPerson, newPage, newSpace } from "./fixtures";

let cairn: RunningCairn;
let v: Visit;
let bea: Visit;
let space: { id: string; key: string };
let doc: { id: string };
const TEXT = "The quarterly budget is approved by the finance team before the board meets.";

beforeAll(async () => {
  cairn = await startCairn();
  v = await visit(cairn);
  await createOwner(v.page);
  await api(v.page, "PUT", "/api/admin/settings", { loginRateLimitPerMinute: 1000 });
  space = await newSpace(v.page, "ENG", "Engineering");
  doc = await newPage(v.page, space.id, "Budget", { text: TEXT });
  bea = await invitedPerson(cairn, v.page);
}, 60_000);
afterAll(async () => {
  await bea?.close();
  await v?.close();
  await cairn?.stop();
});

/** Selects `words` inside the page's text, as a drag of the mouse would. */
async function select(words: string) {
  await v.page.evaluate((w) => {
    const walker = document.createTreeWalker(document.querySelector(".prose")!, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const at = (n as Text).data.indexOf(w);
      if (at < 0) continue;
      const r = document.createRange();
      r.setStart(n, at);
      r.setEnd(n, at + w.length);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(r);
      return;
    }
    throw new Error(`not found: ${w}`);
  }, words);
}

const highlighted = (name: string) => v.page.evaluate((n) => ((CSS as any).highlights.get(n)?.size ?? 0) as number, name);

describe("around a page", () => {
  test("an inline comment on a passage, a reply with a mention, resolved", async () => {
    const { page } = v;
    await page.goto(`/s/ENG/p/${doc.id}`);
    await page.getByRole("heading", { name: "Budget" }).waitFor();
    await select("quarterly budget");
    await page.getByRole("button", { name: "Comment", exact: true }).click();
    const box = page.getByRole("combobox", { name: "Comment on the selected passage" });
    await box.waitFor();
    expect(await page.locator(".comment-composer .comment-quote").textContent()).toBe("quarterly budget");
    await box.fill("Is this the final figure?");
    await page.locator(".comment-composer").getByRole("button", { name: "Comment" }).click();
    await page.getByText("Comment posted").waitFor();
    const [thread] = await api(page, "GET", `/api/pages/${doc.id}/comments`);
    expect(JSON.parse(thread.anchorJson).quote).toBe("quarterly budget");
    expect(page.url()).toContain(`comment=${thread.id}`);
    // The passage stays marked in the page; the open thread's is the active one.
    expect(await highlighted("cairn-comment-active")).toBe(1);

    // Escape closes the panel; a click on the passage opens its thread again.
    await page.keyboard.press("Escape");
    await page.locator("#page-panel").waitFor({ state: "detached" });
    const para = page.locator(".prose p").first();
    const spot = await para.evaluate((el) => {
      const t = el.firstChild as Text;
      const r = document.createRange();
      r.setStart(t, t.data.indexOf("budget") + 2);
      r.setEnd(t, t.data.indexOf("budget") + 3);
      const b = r.getBoundingClientRect();
      return { x: b.left + b.width / 2, y: b.top + b.height / 2 };
    });
    await page.mouse.click(spot.x, spot.y);
    await page.locator(`#thread-${thread.id}.active`).waitFor();

    // A reply that mentions Bea: "@Be" offers her, Enter writes the mention.
    await page.locator(`#thread-${thread.id}`).getByRole("button", { name: "Reply" }).click();
    const reply = page.getByRole("combobox", { name: "Reply" });
    await reply.pressSequentially("Yes, checked with @Be");
    await page.getByRole("option", { name: "Bea Builder" }).waitFor();
    await reply.press("Enter");
    await reply.pressSequentially("and signed off.");
    await page.locator(`#thread-${thread.id}`).getByRole("button", { name: "Reply" }).last().click();
    await page.getByText("Reply posted").waitFor();
    await page.locator(`#thread-${thread.id} .mention`, { hasText: "@Bea Builder" }).waitFor();
    const all = await api(page, "GET", `/api/pages/${doc.id}/comments`);
    expect(all[1].body).toMatch(/^Yes, checked with @\[Bea Builder\]\([^)]+\) and signed off\.$/);

    // Resolve: the thread moves to the resolved list and its highlight goes.
    await page.locator(`#thread-${thread.id}`).getByRole("button", { name: "Resolve" }).click();
    await page.getByText("Thread resolved").waitFor();
    expect((await api(page, "GET", `/api/pages/${doc.id}/comments`))[0].resolvedAt).not.toBeNull();
    await page.getByRole("button", { name: "Resolved (1)" }).waitFor();
    expect(await highlighted("cairn-comment")).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(v.errors).toEqual([]);
  }, 60_000);

  test("a file uploads with its progress shown, one over 25 MB is refused, the file downloads", async () => {
    const { page } = v;
    await page.goto(`/s/ENG/p/${doc.id}?panel=attachments`);
    await page.getByRole("heading", { name: "Attachments" }).waitFor();
    await page.getByText("No files yet").waitFor();
    // A slow connection, so that the progress bar has time to be seen.
    const cdp = await v.context.newCDPSession(page);
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 1024 * 1024,
    });
    const bytes = Buffer.alloc(3 * 1024 * 1024, "cairn ");
    await page.getByLabel("Files to upload").setInputFiles({ name: "minutes.txt", mimeType: "text/plain", buffer: bytes });
    await page.getByRole("progressbar", { name: "Uploading minutes.txt" }).waitFor();
    await page.getByText("minutes.txt uploaded").waitFor({ timeout: 20_000 });
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const link = page.getByRole("link", { name: "minutes.txt" });
    await link.waitFor();
    await page.getByText(/3\.0 MB · Olive Owner/).waitFor();

    // From disk (a sparse file): the browser reads it itself, nothing crosses the protocol.
    const huge = join(mkdtempSync(join(tmpdir(), "cairn-huge-")), "huge.bin");
    truncateSync((writeFileSync(huge, ""), huge), 25 * 1024 * 1024 + 1);
    await page.getByLabel("Files to upload").setInputFiles(huge);
    await page.getByRole("alert").filter({ hasText: "huge.bin is 25.0 MB; files can be at most 25 MB." }).waitFor();

    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toBe("minutes.txt");
    const saved = await download.path();
    expect((await Bun.file(saved!).arrayBuffer()).byteLength).toBe(bytes.length);
    expect(await axeViolations(page)).toEqual([]);
  }, 60_000);

  test("restricting the page to its owner hides it from a second account", async () => {
    const { page } = v;
    expect((await apiCall(bea.page, "GET", `/api/pages/${doc.id}`)).status).toBe(200);
    await page.goto(`/s/ENG/p/${doc.id}`);
    await page.getByRole("button", { name: "Restrictions" }).click();
    await page.getByText("Everyone who can see the space Engineering can see this page.").waitFor();
    await page.getByLabel("Person or group").fill("Olive");
    await page.getByRole("button", { name: "Only Olive Owner: view" }).click();
    await page.getByText("Only Olive Owner can see this page. Space administrators always can.").waitFor();

    expect((await apiCall(bea.page, "GET", `/api/pages/${doc.id}`)).status).toBe(404);
    const tree = await api(bea.page, "GET", `/api/pages/tree?spaceId=${space.id}`);
    expect(JSON.stringify(tree)).not.toContain(doc.id);
    await bea.page.goto(`/s/ENG/p/${doc.id}`);
    await bea.page.getByRole("heading", { name: "This page does not exist" }).waitFor();
  }, 60_000);

  test("each section in the four looks", async () => {
    // An open inline comment, so the comments section shows a live thread.
    await api(v.page, "POST", `/api/pages/${doc.id}/comments`, {
      body: "Which board meeting?",
      anchorJson: JSON.stringify({ quote: "board meets", prefix: "before the ", suffix: "." }),
    });
    // And one whose passage is no longer in the page: listed, and said to be detached.
    await api(v.page, "POST", `/api/pages/${doc.id}/comments`, {
      body: "Was this moved?",
      anchorJson: JSON.stringify({ quote: "the old forecast", prefix: "", suffix: "" }),
    });
    const { page } = v;
    for (const section of ["comments", "attachments", "details", "restrictions"]) {
      await page.goto(`/s/ENG/p/${doc.id}?panel=${section}`);
      await page.locator("#page-panel h2").waitFor();
      if (section === "comments") await page.getByText("Which board meeting?").waitFor();
      if (section === "comments")
        await page.locator(".thread", { hasText: "Was this moved?" }).getByText("detached: this passage was edited away").waitFor();
      if (section === "attachments") await page.getByRole("link", { name: "minutes.txt" }).waitFor();
      if (section === "details") await page.getByText("You watch this page").waitFor();
      if (section === "restrictions") await page.getByText(/^Only Olive Owner can see/).waitFor();
      expect({ section, violations: await checkLooks(page, `page-panel-${section}`) }).toEqual({ section, violations: {} });
    }
    expect(v.errors).toEqual([]);
    expect(v.foreign).toEqual([]);
  }, 60_000);

  test("a passage selected in the editor is commented on from its toolbar, the panel beside the editor", async () => {
    const { page } = v;
    const minutes = await newPage(page, space.id, "Minutes", { text: "We agreed to move the launch to March after the review." });
    await page.goto(`/s/ENG/p/${minutes.id}/edit`);
    const editor = page.locator(".ProseMirror[contenteditable=true]");
    await editor.getByText("move the launch").waitFor();
    await page.evaluate((w) => {
      const root = document.querySelector(".ProseMirror[contenteditable=true]")!;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const at = (n as Text).data.indexOf(w);
        if (at < 0) continue;
        const r = document.createRange();
        r.setStart(n, at);
        r.setEnd(n, at + w.length);
        getSelection()!.removeAllRanges();
        getSelection()!.addRange(r);
        return;
      }
      throw new Error(`not found: ${w}`);
    }, "the launch");
    await page.locator(".bubble-toolbar").getByRole("button", { name: "Comment" }).click();
    const box = page.getByRole("combobox", { name: "Comment on the selected passage" });
    await box.waitFor();
    expect(await page.locator(".comment-composer .comment-quote").textContent()).toBe("the launch");
    await editor.waitFor(); // still editing, the panel beside it
    expect(await checkLooks(page, "page-panel-comment-while-editing")).toEqual({});
    await box.fill("Which review?");
    await page.locator(".comment-composer").getByRole("button", { name: "Comment" }).click();
    await page.getByText("Comment posted").waitFor();
    const [thread] = await api(page, "GET", `/api/pages/${minutes.id}/comments`);
    expect(JSON.parse(thread.anchorJson)).toEqual({
      quote: "the launch",
      prefix: "We agreed to move ",
      suffix: " to March after the revi",
    });
    expect(await page.locator(".thread", { hasText: "Which review?" }).getByText("detached").count()).toBe(0);
    expect({ violations: await axeViolations(page) }).toEqual({ violations: [] });
  }, 60_000);
});
