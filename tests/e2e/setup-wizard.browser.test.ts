/**
 * The first-run wizard in the browser: from an empty instance, create the owner, go through the
 * wizard (name the wiki, make an invite link, see the backups that are on, create the first
 * space) and land in that space's welcome page; a reload never shows the wizard again. Every step
 * is checked with axe and photographed in the four looks (its last button never clipped at 375 px),
 * with the home screen's reminder. Each screen is loaded once and goes through the four looks in
 * place (checkLooks).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { apiCall, checkLooks, createOwner, PASSWORD, startCairn, visit, type RunningCairn } from "./harness";

let fresh: RunningCairn;
let second: RunningCairn;
beforeAll(async () => {
  [fresh, second] = await Promise.all([startCairn(), startCairn()]);
}, 120_000);
afterAll(async () => {
  await fresh?.stop();
  await second?.stop();
});

/** The screen as loaded now, in the four looks with axe (a failure names the screen). */
async function looksClean(page: Page, name: string, ready?: () => Promise<void>): Promise<void> {
  expect({ name, violations: await checkLooks(page, name, ready) }).toEqual({ name, violations: {} });
}

async function atStep(page: Page, key: string, heading: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === `/welcome/${key}`);
  await page.getByRole("heading", { level: 1, name: heading }).waitFor();
}

/** The step's buttons are all inside the card and the window, none cut off (at 375 px too). */
async function actionsFit(page: Page, where: string): Promise<void> {
  const boxes = await page.locator(".setup-card").evaluate((card) => {
    const c = card.getBoundingClientRect();
    return Array.from(card.querySelectorAll(".setup-actions .btn")).map((b) => {
      const r = b.getBoundingClientRect();
      return {
        text: b.textContent,
        inside: r.left >= c.left - 0.5 && r.right <= c.right + 0.5 && r.right <= window.innerWidth,
        wide: b.scrollWidth <= b.clientWidth + 1,
      };
    });
  });
  for (const b of boxes) expect({ where, ...b }).toEqual({ where, text: b.text, inside: true, wide: true });
}

describe("the setup wizard", () => {
  test("from an empty instance to the first space; a reload does not bring the wizard back", async () => {
    const owner = await visit(fresh);
    const { page } = owner;
    try {
      await page.goto("/");
      await page.waitForURL(/\/setup$/);
      await page.getByLabel("Your name").fill("Olive Owner");
      await page.getByLabel("E-mail").fill("owner@example.com");
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Create the owner account" }).click();

      await atStep(page, "welcome", "Welcome");
      await page.getByText("Step 1 of 8").waitFor();
      // Only steps for what exists: no e-mail, single sign-on or two-factor step.
      expect(await page.getByRole("navigation", { name: "Setup steps" }).getByRole("listitem").allTextContents()).toEqual([
        "1Welcome",
        "2Your account",
        "3Name this wiki",
        "4Who can join",
        "5Default access",
        "6Backups",
        "7Your first space",
        "8Done",
      ]);
      // Keyboard first: the heading has focus; Tab reaches Start, Enter goes on.
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Start");
      await page.keyboard.press("Enter");

      await atStep(page, "account", "Your account");
      await page.getByText("owner@example.com").waitFor();
      await page.getByRole("button", { name: "Continue" }).click();

      await atStep(page, "instance", "Name this wiki");
      // An empty name is refused next to the field, in plain words.
      await page.getByLabel("Wiki name").fill("   ");
      await page.keyboard.press("Enter");
      await page.locator(".field-error").waitFor();
      expect(await page.getByLabel("Wiki name").getAttribute("aria-invalid")).toBe("true");
      await page.getByLabel("Wiki name").fill("Acme Wiki");
      await page.keyboard.press("Enter");

      await atStep(page, "registration", "Who can join");
      expect(await page.getByLabel(/Invite only/).isChecked()).toBe(true);
      await page.getByLabel("Their e-mail (optional)").fill("bea@example.com");
      await page.getByRole("button", { name: "Make invite link" }).click();
      const link = page.getByRole("list", { name: "Invite links made" }).locator("code");
      await link.waitFor();
      expect(await link.textContent()).toContain("/register?invite=");
      await page.getByRole("button", { name: "Copy the invite link for bea@example.com" }).waitFor();
      await looksClean(page, "setup-registration-link");
      await page.getByRole("button", { name: "Continue" }).click();

      await atStep(page, "permissions", "Default access");
      await page.getByRole("button", { name: "Continue" }).click();

      // Backups are on from the start: when, and where to add a copy off this machine.
      await atStep(page, "backups", "Backups");
      await page.getByText("Backups are on.").waitFor();
      await page.getByText(/backs itself up every day at 03:00/).waitFor();
      expect(await page.getByRole("link", { name: /Copies off this machine/ }).getAttribute("href")).toBe("/admin/backups");
      await page.getByRole("button", { name: "Continue" }).click();

      await atStep(page, "first-space", "Your first space");
      await page.getByLabel("Space name").fill("Engineering");
      await page.getByLabel("Key").fill("eng");
      await page.getByLabel("Description").fill("How we build and run things.");
      await page.getByRole("button", { name: "Create space" }).click();

      await atStep(page, "done", "Acme Wiki is ready");
      await looksClean(page, "setup-done");
      expect(await page.getByText("You skipped").count()).toBe(0);
      const setup = await apiCall(page, "GET", "/api/setup");
      expect(setup.body.completed).toBe(true);
      expect(setup.body.steps.map((s: { key: string; state: string }) => `${s.key}:${s.state}`)).toEqual([
        "welcome:done",
        "account:done",
        "instance:done",
        "registration:done",
        "permissions:done",
        "backups:done",
        "first-space:done",
        "done:done",
      ]);

      const settings = await apiCall(page, "GET", "/api/admin/settings");
      expect(settings.body).toMatchObject({ instanceName: "Acme Wiki" });

      // The first space opens on its welcome page.
      await page.getByRole("link", { name: "Open Engineering" }).click();
      await page.waitForURL((url) => url.pathname.startsWith("/s/ENG"));
      await page.getByRole("heading", { name: "Welcome to Engineering" }).waitFor();
      expect(await page.locator(".brand-name").textContent()).toBe("Acme Wiki");
      await page.reload();
      await page.getByRole("heading", { name: "Welcome to Engineering" }).waitFor();
      expect(new URL(page.url()).pathname).toStartWith("/s/ENG");
      await page.getByRole("heading", { name: "Link pages" }).waitFor();
      await looksClean(page, "space-welcome-page");
      // Completed: the wizard's steps lead home, and the home screen has no reminder.
      await page.goto("/welcome");
      await page.waitForURL((url) => url.pathname === "/welcome/done");
      await page.goto("/welcome/instance");
      await page.waitForURL((url) => url.pathname === "/");
      await page.getByRole("link", { name: "Engineering" }).first().waitFor();
      expect(await page.getByText("Finish setting up Cairn").count()).toBe(0);
      // The tab names the wiki by its new name (branding falls back to the instance name).
      expect(await page.title()).toContain("Acme Wiki");
      expect(owner.errors).toEqual([]);
      expect(owner.foreign).toEqual([]);
    } finally {
      await owner.close();
    }
  }, 180_000);

  test("the home screen reminds the owner until setup is done; steps in the four looks", async () => {
    const v = await visit(second);
    const { page } = v;
    try {
      await createOwner(page);
      // Back to the home screen: the reminder leads to the wizard where it stands.
      await page.goto("/");
      await page.getByRole("heading", { name: "Finish setting up Cairn" }).waitFor();
      await looksClean(page, "setup-home-reminder");
      await page.getByRole("link", { name: "Continue setup" }).click();
      await atStep(page, "welcome", "Welcome");
      for (const [key, heading] of [
        ["welcome", "Welcome"],
        ["account", "Your account"],
        ["instance", "Name this wiki"],
        ["registration", "Who can join"],
        ["permissions", "Default access"],
        ["backups", "Backups"],
        ["first-space", "Your first space"],
      ] as const) {
        await page.goto(`/welcome/${key}`);
        await atStep(page, key, heading);
        await looksClean(page, `setup-${key}`, () => actionsFit(page, `${key} ${page.viewportSize()?.width}`));
      }
      expect(v.errors).toEqual([]);
      // Dismissed, the reminder stays away.
      await page.goto("/");
      await page.getByRole("button", { name: "Hide this reminder" }).click();
      await page.reload();
      await page.getByRole("heading", { name: "Create your first space" }).waitFor();
      expect(await page.getByText("Finish setting up Cairn").count()).toBe(0);
    } finally {
      await v.close();
    }
  }, 120_000);
});
