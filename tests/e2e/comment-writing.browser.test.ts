/**
 * Writing comments: the box takes the caret when the comments open, so "e" and "/" typed next
 * are text, never the page's shortcuts; a mention reads as the person's name while it is
 * written (and again when the comment is edited) and is stored as their id; a "mentioned you"
 * notification opens the page with that thread open, its passage in view. Both screens in the
 * four looks (checkLooks), with axe.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { checkLooks, visit, type Visit } from "./harness";
import { api, docJson, invitedPerson, ownerWorld, para, type World } from "./fixtures";

let world: World;
let bea: Visit;
let beaId: string;
let space: { id: string; key: string };
let pageId: string;
const PASSAGE = "the rollback plan is rehearsed every quarter";

beforeAll(async () => {
  world = await ownerWorld();
  const owner = world.owner.page;
  space = await api(owner, "POST", "/api/spaces", { key: "OPS", name: "Operations" });
  // A long page whose commented passage is far below the first screen.
  const filler = Array.from({ length: 60 }, (_, i) => para(`Step ${i + 1} of the release checklist, written out in full.`));
  const page = await api(owner, "POST", "/api/pages", {
    spaceId: space.id,
    title: "Release checklist",
    contentJson: docJson(...filler, para(`Finally, ${PASSAGE} by the on-call team.`)),
  });
  pageId = page.id;
  bea = await invitedPerson(world.cairn, owner);
  beaId = (await api(bea.page, "GET", "/api/auth/me")).id;
}, 60_000);
afterAll(async () => {
  await bea?.close();
  await world?.close();
});

describe("writing a comment", () => {
  test("the box takes the caret when the comments open: e and / typed next are the comment's", async () => {
    const { page } = bea;
    await page.goto(`/s/OPS/p/${pageId}`);
    await page.getByRole("button", { name: "Edit" }).waitFor();
    await page.getByRole("button", { name: "Comments" }).click();
    // Typed as soon as the box is there, without clicking it.
    const box = page.getByRole("combobox", { name: "Comment on this page" });
    await box.waitFor();
    await page.keyboard.type("We edit / review these each week");
    expect(await box.inputValue()).toBe("We edit / review these each week");
    expect(page.url()).not.toContain("/edit");
    expect(await page.locator(".ProseMirror").count()).toBe(0);
    expect(await page.getByRole("dialog").count()).toBe(0);
    // Closed and opened again: the caret is back in the box.
    await page.keyboard.press("Escape");
    await page.locator("#page-panel").waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Comments" }).click();
    await box.waitFor();
    await page.keyboard.type("e");
    expect(await page.getByRole("combobox", { name: "Comment on this page" }).inputValue()).toBe("e");
    expect(page.url()).not.toContain("/edit");
  }, 30_000);

  test("a mention reads as a name while written and edited, and is stored as an id", async () => {
    const { page } = world.owner;
    await page.goto(`/s/OPS/p/${pageId}?panel=comments`);
    const box = page.getByRole("combobox", { name: "Comment on this page" });
    await box.waitFor();
    await box.pressSequentially("Thanks @Be");
    await page.getByRole("option", { name: "Bea Builder" }).waitFor();
    await box.press("Enter");
    await box.pressSequentially("for the list.");
    expect(await box.inputValue()).toBe("Thanks @Bea Builder for the list.");
    expect(await page.locator(".mention-backdrop mark").allTextContents()).toEqual(["@Bea Builder"]);
    await page.locator(".comment-composer").getByRole("button", { name: "Comment" }).click();
    await page.getByText("Comment posted").waitFor();
    const [comment] = await api(page, "GET", `/api/pages/${pageId}/comments`);
    expect(comment.body).toBe(`Thanks @[Bea Builder](${beaId}) for the list.`);
    // Editing shows the name again, and keeps the mention.
    await page.locator(`#thread-${comment.id}`).getByRole("button", { name: "Edit" }).click();
    const edit = page.getByRole("combobox", { name: "Edit comment" });
    expect(await edit.inputValue()).toBe("Thanks @Bea Builder for the list.");
    await edit.press("End");
    await edit.pressSequentially(" Merged.");
    await page.locator(`#thread-${comment.id}`).getByRole("button", { name: "Save" }).click();
    await page.getByText("Comment saved").waitFor();
    expect((await api(page, "GET", `/api/pages/${pageId}/comments`))[0].body).toBe(`Thanks @[Bea Builder](${beaId}) for the list. Merged.`);
    await api(page, "DELETE", `/api/comments/${comment.id}`);
  }, 30_000);

  test("the comment box with a mention being written, in the four looks", async () => {
    const v = await visit(world.cairn, { storageState: await world.owner.context.storageState() });
    try {
      await v.page.goto(`/s/OPS/p/${pageId}?panel=comments`);
      const box = v.page.getByRole("combobox", { name: "Comment on this page" });
      await box.waitFor();
      await box.pressSequentially("Thanks @Be");
      await v.page.getByRole("option", { name: "Bea Builder" }).waitFor();
      await box.press("Enter");
      await box.pressSequentially("for the numbers; cc @Ol");
      await v.page.getByRole("option", { name: "Olive Owner" }).waitFor();
      expect(await checkLooks(v.page, "comment-mention-writing")).toEqual({});
      expect(v.errors).toEqual([]);
    } finally {
      await v.close();
    }
  }, 30_000);
});

describe("a mention's notification", () => {
  test("opens the page with the thread open and its passage in view", async () => {
    const owner = world.owner.page;
    const anchor = JSON.stringify({ quote: PASSAGE, prefix: "Finally, ", suffix: " by the on-call team." });
    const thread = await api(owner, "POST", `/api/pages/${pageId}/comments`, { body: "Is this still true?", anchorJson: anchor });
    await api(owner, "POST", `/api/pages/${pageId}/comments`, {
      body: `@[Bea Builder](${beaId}) can you confirm?`,
      parentCommentId: thread.id,
    });
    const { page } = bea;
    await page.goto("/notifications");
    await page.getByRole("link", { name: "Release checklist" }).first().waitFor();
    await page.locator("li", { hasText: "mentioned you on" }).getByRole("link", { name: "Release checklist" }).click();
    await page.waitForURL(/panel=comments/);
    expect(new URL(page.url()).searchParams.get("comment")).toBe(thread.id);
    const opened = page.locator(`#thread-${thread.id}.active`);
    await opened.waitFor();
    await opened.getByText("can you confirm?").waitFor();
    expect(
      await opened.evaluate((el) => {
        const b = el.getBoundingClientRect();
        return b.top >= 0 && b.bottom <= innerHeight;
      }),
    ).toBe(true);
    // The passage is highlighted as the open one, and scrolled into view.
    await page.waitForFunction(() => ((CSS as any).highlights.get("cairn-comment-active")?.size ?? 0) === 1);
    await page.waitForFunction((quote) => {
      const range = [...((CSS as any).highlights.get("cairn-comment-active") as Set<Range>)][0]!;
      const b = range.getBoundingClientRect();
      return range.toString() === quote && b.top >= 0 && b.bottom <= innerHeight;
    }, PASSAGE);
    // The open thread kept in view in each look (the panel moves below the page when narrow).
    expect(await checkLooks(page, "comment-from-notification", () => opened.scrollIntoViewIfNeeded())).toEqual({});
  }, 30_000);
});
