/**
 * Backups in the browser (/admin/backups), end to end against the built binary: the owner backs
 * up now and sees it listed; changes the retention with its preview; restores a backup after a
 * change and sees the change gone, then undoes the restore and sees it back; sets up a directory
 * target (a temp dir), tests it and copies to it; restores to a moment between two changes and
 * removes the kept copy. While a restore runs the screen says the wiki is read-only (what a
 * write refused meanwhile says: tests/web-client-maintenance.test.ts). The section in the four
 * looks, with axe, loaded once and its looks gone through in place (checkLooks).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { api, newPage, newSpace, ownerWorld, type World } from "./fixtures";
import { apiCall, axeViolations, checkLooks, PASSWORD, SCREENSHOTS, visit } from "./harness";

let world: World;
let spaceId: string;
const targetDir = mkdtempSync(join(tmpdir(), "cairn-e2e-target-"));

beforeAll(async () => {
  world = await ownerWorld();
  spaceId = (await newSpace(world.owner.page, "HOME", "Home lab")).id;
  await newPage(world.owner.page, spaceId, "Router settings", { text: "The router lives in the hall cupboard." });
}, 300_000);
afterAll(async () => {
  await world?.close();
  rmSync(targetDir, { recursive: true, force: true });
});

async function openBackups(page: Page): Promise<void> {
  await page.goto("/admin/backups");
  await page.getByRole("heading", { name: "Backups", level: 2 }).waitFor();
}
const backupList = (page: Page) => page.getByRole("list", { name: "Backups" });
const status = async (page: Page, path: string) => (await apiCall(page, "GET", path)).status;

describe("backups", () => {
  test("Back up now shows its progress, and the backup is listed with its kind, size and counts", async () => {
    const { page } = world.owner;
    await openBackups(page);
    await page.getByText("No backup yet").waitFor();
    // The log archive's size and limit, and what happens once a backup is taken.
    await page
      .getByText(
        new RegExp(
          String.raw`^The log archive takes [\d.]+ (B|KB|MB), kept under 64(\.0)? MB \(twice the database or 64 MB, whichever is more\)` +
            String.raw`.*Once a backup is taken, you can restore to any second after it\.$`,
        ),
      )
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Back up now" }).click();
    await page.getByText("Backup taken").waitFor();
    const row = backupList(page).getByRole("listitem").first();
    await row.getByText("Taken by hand").waitFor();
    const text = (await row.textContent()) ?? "";
    expect(text).toContain("1 page");
    expect(text).toMatch(/\d+(\.\d)? (KB|MB)/);
    expect(await backupList(page).getByRole("listitem").count()).toBe(1);
    // The window now begins at that backup.
    await page.getByText(/^You can restore to any second from .+ to .+\.$/).waitFor();
    await page.getByText(/^The log archive that makes this possible takes/).waitFor();
  }, 40_000);

  test("retention: the form says what the new policy would remove before it is saved", async () => {
    const { page } = world.owner;
    await openBackups(page);
    const card = page.getByRole("region", { name: "Schedule and retention" });
    await card.getByLabel("Keep this many").fill("2");
    // Backups taken by hand are never removed by retention: the preview says nothing goes.
    await card.getByText("With this policy, no backup would be removed now.").waitFor();
    await card.getByRole("button", { name: "Save the policy" }).click();
    await page.getByText("Policy saved").waitFor();
    const listed = await api(page, "GET", "/api/admin/backups");
    expect(listed.policy.keepCount).toBe(2);
    expect(listed.backups.length).toBe(1);
  }, 40_000);

  test("restoring a backup takes a change made since away; undoing the restore brings it back", async () => {
    const { page } = world.owner;
    const later = await newPage(page, spaceId, "Printer notes", { text: "Written after the backup." });
    expect(await status(page, `/api/pages/${later.id}`)).toBe(200);

    await openBackups(page);
    const row = backupList(page).getByRole("listitem").first();
    await row.getByRole("button", { name: /^Restore…/ }).click();
    const dialog = page.getByRole("dialog", { name: /Restore the backup of/ });
    await dialog.getByRole("list", { name: "What would be lost" }).getByText("1 page").waitFor();
    expect(await dialog.textContent()).toContain("free disk space");

    await dialog.getByRole("button", { name: "Test this backup" }).click();
    await dialog.getByText("This backup restores correctly.").waitFor({ timeout: 30_000 });
    expect(await checkLooks(page, "admin-backups-restore")).toEqual({});

    await dialog.getByRole("button", { name: "Restore…" }).click();
    const label = (await api(page, "GET", "/api/admin/backups")).backups[0].label as string;
    await dialog.getByLabel(`Type the label, ${label}, to confirm`).fill(label.slice(0, -1));
    await dialog.getByLabel("Your password").fill(PASSWORD);
    await dialog.getByRole("button", { name: "Restore this backup" }).click();
    await dialog.getByText(`Type the backup's label exactly: ${label}`).waitFor();
    await dialog.getByLabel(`Type the label, ${label}, to confirm`).fill(label);
    // While it runs the screen says the wiki is read-only. A small database restores in well under
    // a second, so what the screen showed is recorded as it happens rather than looked for after.
    await page.evaluate(() => {
      const w = window as unknown as { sawReadOnly?: boolean };
      new MutationObserver(() => {
        if (document.body.textContent?.includes("The wiki is read-only while the backup is restored")) w.sawReadOnly = true;
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    await dialog.getByRole("button", { name: "Restore this backup" }).click();
    // For review only (the restore may have ended already).
    await page
      .getByRole("region", { name: "Restoring" })
      .screenshot({ path: join(SCREENSHOTS, "admin-backups-restoring-light-1280.png"), animations: "disabled", timeout: 1000 })
      .catch(() => undefined);
    await page.getByText("Backup restored").waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { sawReadOnly?: boolean }).sawReadOnly)).toBe(true);
    expect(await status(page, `/api/pages/${later.id}`)).toBe(404);

    const after = page.getByRole("region", { name: "The last restore" });
    await after.getByRole("button", { name: "Undo restore…" }).click();
    const undo = page.getByRole("dialog", { name: "Undo the restore?" });
    await undo.getByLabel("Type UNDO to confirm").fill("UNDO");
    await undo.getByLabel("Your password").fill(PASSWORD);
    await undo.getByRole("button", { name: "Undo the restore" }).click();
    await page.getByText("The restore was undone").waitFor({ timeout: 30_000 });
    expect(await status(page, `/api/pages/${later.id}`)).toBe(200);
  }, 90_000);

  test("a directory target is tested, then copied to", async () => {
    const { page } = world.owner;
    await openBackups(page);
    const card = page.getByRole("region", { name: "A directory" });
    await card.getByLabel("Folder on this server").fill(targetDir);
    await card.getByRole("button", { name: "Save" }).click();
    await page.getByText("A directory saved").waitFor();
    await card.getByRole("button", { name: "Test a directory" }).click();
    await card.getByText("The target works").waitFor();
    expect(await card.getByRole("list", { name: "Test steps" }).getByRole("listitem").count()).toBeGreaterThan(1);
    await card.getByRole("button", { name: "Copy now to a directory" }).click();
    await card.getByText(/\d+ backups? (is|are) on the target/).waitFor({ timeout: 30_000 });
    expect(readdirSync(targetDir).length).toBeGreaterThan(0);
  }, 60_000);

  test("a restore to a moment between two changes keeps the first and not the second; the kept copy is removed after", async () => {
    const { page } = world.owner;
    const first = await newPage(page, spaceId, "NAS disks", { text: "Two mirrored 8 TB disks." });
    // The moment: the start of the next whole second after the first change, a second before the
    // next.
    const moment = Math.ceil((Date.now() + 50) / 1000) * 1000;
    await Bun.sleep(moment + 1100 - Date.now());
    const second = await newPage(page, spaceId, "Camera passwords", { text: "Written after the moment." });

    await openBackups(page);
    await backupList(page)
      .getByRole("listitem")
      .filter({ hasText: "Taken by hand" })
      .getByRole("button", { name: /^Restore…/ })
      .click();
    const dialog = page.getByRole("dialog", { name: /Restore the backup of/ });
    await dialog.getByLabel("A later moment, to the second").check();
    const local = await page.evaluate((ms) => {
      const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
      return d.toISOString().slice(0, 19);
    }, moment);
    // Chromium writes a whole minute without its ":00" seconds, and Playwright compares what it reads back.
    await dialog.getByLabel("Moment to restore to").fill(local.endsWith(":00") ? local.slice(0, 16) : local);
    // Only the second change is made after the moment.
    await dialog.getByRole("list", { name: "What would be lost" }).getByText("1 page").waitFor();
    await dialog.getByRole("button", { name: "Restore…" }).click();
    const label = (await api(page, "GET", "/api/admin/backups")).backups.find((b: { kind: string }) => b.kind === "manual").label as string;
    await dialog.getByLabel(`Type the label, ${label}, to confirm`).fill(label);
    await dialog.getByLabel("Your password").fill(PASSWORD);
    await dialog.getByRole("button", { name: "Restore this backup" }).click();
    await page.getByText("Backup restored").waitFor({ timeout: 30_000 });
    expect(await status(page, `/api/pages/${first.id}`)).toBe(200);
    expect(await status(page, `/api/pages/${second.id}`)).toBe(404);

    const after = page.getByRole("region", { name: "The last restore" });
    await after.getByRole("button", { name: "Remove the kept copy…" }).waitFor();
    expect(await checkLooks(page, "admin-backups-kept", () => after.scrollIntoViewIfNeeded())).toEqual({});
    await after.getByRole("button", { name: "Remove the kept copy…" }).click();
    const remove = page.getByRole("dialog", { name: "Remove the kept copy?" });
    expect(await remove.textContent()).toContain("can no longer be undone");
    await remove.getByLabel("Type REMOVE to confirm").fill("remove");
    await remove.getByLabel("Your password").fill(PASSWORD);
    await remove.getByRole("button", { name: "Remove it for good" }).click();
    await remove.getByText("Type REMOVE in capitals to confirm.").waitFor();
    await remove.getByLabel("Type REMOVE to confirm").fill("REMOVE");
    await remove.getByRole("button", { name: "Remove it for good" }).click();
    await page.getByText("The kept copy was removed").waitFor();
    await after.waitFor({ state: "detached" });
    await page.getByLabel("Show removed backups").check();
    await backupList(page).getByRole("listitem").filter({ hasText: "Removed as a restore's kept copy" }).first().waitFor();
  }, 90_000);

  test("the section in the four looks, with axe", async () => {
    const v = await visit(world.cairn, { storageState: await world.owner.context.storageState() });
    const { page } = v;
    try {
      await openBackups(page);
      await backupList(page).getByRole("listitem").first().waitFor();
      await page.getByRole("region", { name: "Copies off this machine" }).getByLabel("Folder on this server").waitFor();
      // In each look, for review: the whole page, and the cards below the fold; then back to the top
      // for the look's own screenshot.
      const photographed = async () => {
        const look =
          `${(await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches)) ? "dark" : "light"}` +
          `-${page.viewportSize()?.width}`;
        await page.screenshot({ path: join(SCREENSHOTS, `admin-backups-full-${look}.png`), fullPage: true, animations: "disabled" });
        for (const [name, region] of [
          ["policy", "Schedule and retention"],
          ["targets", "Copies off this machine"],
        ] as const)
          await page
            .getByRole("region", { name: region })
            .screenshot({ path: join(SCREENSHOTS, `admin-backups-${name}-${look}.png`), animations: "disabled" });
        await page.evaluate(() => window.scrollTo(0, 0));
      };
      expect(await checkLooks(page, "admin-backups", photographed)).toEqual({});
      // The restore dialog, with what would be lost worked out.
      await backupList(page)
        .getByRole("listitem")
        .filter({ hasText: "Taken by hand" })
        .getByRole("button", { name: /^Restore…/ })
        .click();
      await page
        .getByRole("dialog")
        .getByText(/free disk space/)
        .waitFor({ timeout: 20_000 });
      expect(await checkLooks(page, "admin-backups-restore-dialog")).toEqual({});
      expect(v.errors).toEqual([]);
      expect(v.foreign).toEqual([]);
    } finally {
      await v.close();
    }
  }, 90_000);
});
