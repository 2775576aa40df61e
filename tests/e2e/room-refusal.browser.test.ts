/**
 * Update refused by the server because of a link (docs/decisions.md, "What a collaboration room
 * accepts"): the editor's link toolbar takes an ftp: address, the server publishes only http(s),
 * mailto and tel. The person is told which link and what to do, at the top and where they are, and
 * the link is selected for them to change.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { axeViolations, screenshot } from "./harness";
import { newPage, newSpace, ownerWorld, storedDoc, type World } from "./fixtures";

let world: World;

// The first browser test of a run builds the binary (half a minute on a busy machine).
beforeAll(async () => {
  world = await ownerWorld();
}, 120_000);
afterAll(async () => {
  await world?.close();
});

test("a link the server refuses: Update names it, selects it, and nothing is published", async () => {
  const page = world.owner.page;
  const space = await newSpace(page, "DOCS", "Docs");
  const created = await newPage(page, space.id, "Reports", { text: "Where the reports are." });
  await page.goto(`/s/DOCS/p/${created.id}/edit`);
  await page.locator(".ProseMirror").waitFor();
  await page.locator(".collab-connection", { hasText: "Connected" }).waitFor({ timeout: 10_000 });
  // A link the editor accepts and the server does not publish.
  await page.evaluate(() => {
    const editor = (document.querySelector(".ProseMirror") as unknown as { editor: any }).editor;
    editor
      .chain()
      .focus("end")
      .insertContent([
        { type: "text", text: " Read " },
        { type: "text", text: "the report", marks: [{ type: "link", attrs: { href: "ftp://files.example/report.pdf" } }] },
        { type: "text", text: " first." },
      ])
      .setTextSelection(1)
      .run();
  });
  await page.keyboard.press("Control+Enter");
  const alert = page.locator(".form-error[role=alert]");
  await alert.waitFor({ timeout: 10_000 });
  const said = await alert.innerText();
  expect(said).toContain("The link “the report” to “ftp://files.example/report.pdf” cannot be published");
  expect(said).toContain("Select the link and change its address");
  expect(said).not.toContain("content[");
  // Taken to the link: it is what is selected now, and the reason is shown there too.
  const selected = await page.evaluate(() => {
    const editor = (document.querySelector(".ProseMirror") as unknown as { editor: any }).editor;
    const { from, to } = editor.state.selection;
    return editor.state.doc.textBetween(from, to);
  });
  expect(selected).toBe("the report");
  await page.locator("[data-sonner-toast]", { hasText: "cannot be published" }).waitFor();
  expect(await axeViolations(page)).toEqual([]);
  await screenshot(page, "collab-refused-link");
  expect((await storedDoc(page, created.id)).version).toBe(1);
}, 60_000);
