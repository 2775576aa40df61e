/**
 * Security administration in the browser (/admin/security): wrong passwords for several accounts
 * from one address raise an alert the owner sees and resolves with a note; the lockouts they
 * caused are listed and one is lifted; an address range is blocked and unblocked; blocking your
 * own address is refused in plain words. The section in the four looks (checkLooks), with axe.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { api, invitedPerson, ownerWorld, type World } from "./fixtures";
import { apiCall, axeViolations, checkLooks, SCREENSHOTS, visit, type Visit } from "./harness";

let world: World;
let bea: Visit;
let cal: Visit;

beforeAll(async () => {
  world = await ownerWorld();
  bea = await invitedPerson(world.cairn, world.owner.page, "bea@example.com", "Bea Builder");
  cal = await invitedPerson(world.cairn, world.owner.page, "cal@example.com", "Cal Carter");
}, 60_000);
afterAll(async () => {
  await bea?.close();
  await cal?.close();
  await world?.close();
});

async function openSecurity(page: Page): Promise<void> {
  await page.goto("/admin/security");
  await page.getByRole("heading", { name: "Alerts", level: 2 }).waitFor();
}

const alertList = (page: Page) => page.getByRole("list", { name: "Alerts" });

describe("security", () => {
  test("wrong passwords for three accounts from one address raise an alert; the owner resolves it with a note", async () => {
    const { page } = world.owner;
    await openSecurity(page);
    await page.getByText("No alert needs you.").waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // Someone, from this same machine, tries passwords: five for Bea, five for Cal, two for the owner.
    const attacker = await visit(world.cairn);
    await attacker.page.goto("/api/health");
    for (const [email, n] of [
      ["bea@example.com", 5],
      ["cal@example.com", 5],
      ["owner@example.com", 2],
    ] as const) {
      for (let i = 0; i < n; i++)
        expect((await apiCall(attacker.page, "POST", "/api/auth/login", { email, password: `guess ${i}` })).status).toBe(401);
    }
    await attacker.close();

    await openSecurity(page);
    const alert = alertList(page).getByRole("listitem").filter({ hasText: "wrong passwords for 3 accounts" });
    await alert.waitFor();
    await alert.getByText("Critical", { exact: true }).waitFor();
    expect(await alert.textContent()).toContain("12 wrong passwords for 3 accounts from 127.0.0.1 within 15 minutes");
    const stats = page.getByRole("region", { name: "Security at a glance" });
    expect(await stats.textContent()).toContain("1Open alerts1 critical");
    expect(await stats.textContent()).toContain("12Failed sign-ins");

    // The events list shows the failures and the lockouts; the filter narrows to lockouts.
    await page.getByLabel("Kind").selectOption("lockout");
    const events = page.getByRole("region", { name: "Security events" });
    await events.getByText("Locked out after wrong passwords").first().waitFor();
    expect(await events.getByRole("row").count()).toBe(3); // the header and two lockouts
    await page.getByLabel("Kind").selectOption("");

    await alert.getByRole("button", { name: /^Resolve/ }).click();
    const dialog = page.getByRole("dialog", { name: "Resolve this alert?" });
    await dialog.getByLabel("Note (optional)").fill("A script from the office test machine; switched off.");
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Resolve" }).click();
    await page.getByText("Alert resolved", { exact: true }).waitFor(); // the toast; the events list may say it too
    await page.getByText("No alert needs you.").waitFor();
    await page.getByLabel("Show alerts").selectOption("2");
    const resolved = alertList(page).getByRole("listitem").first();
    expect(await resolved.textContent()).toContain("Note: A script from the office test machine; switched off.");
    expect(await resolved.textContent()).toContain("resolved by Olive Owner");
  }, 40_000);

  test("the lockouts are listed and one is lifted", async () => {
    const { page } = world.owner;
    await openSecurity(page);
    const locked = page.getByRole("list", { name: "Accounts locked now" });
    await locked.getByText("bea@example.com").waitFor();
    await locked.getByRole("button", { name: "Unlock bea@example.com" }).click();
    await page.getByText("bea@example.com can sign in again").waitFor();
    await locked.getByText("bea@example.com").waitFor({ state: "detached" });
    expect(await locked.textContent()).toContain("cal@example.com");
    expect(
      await page.getByRole("region", { name: "Limits and lockouts" }).getByRole("link", { name: "Settings" }).getAttribute("href"),
    ).toBe("/admin/settings");
  }, 40_000);

  test("an address range is blocked and unblocked; blocking your own address is refused in plain words", async () => {
    const { page } = world.owner;
    await openSecurity(page);
    const card = page.getByRole("region", { name: "Blocked addresses" });
    await card.getByText("Your address, as this server sees it").waitFor();
    expect(await card.textContent()).toContain("Your address, as this server sees it: 127.0.0.1");
    await page.getByText("No address is blocked.").waitFor();

    await page.getByLabel("Address or range").fill("127.0.0.1");
    await page.getByLabel("Reason").fill("Testing");
    await page.getByRole("button", { name: "Block", exact: true }).click();
    const refusal = page.getByRole("alert").filter({ hasText: "includes your own address (127.0.0.1)" });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain("you would be locked out at once");
    expect(await page.getByRole("list", { name: "Blocked addresses" }).count()).toBe(0);

    await page.getByLabel("Address or range").fill("203.0.113.77/24");
    await page.getByLabel("Reason").fill("Scraping every page at night");
    await page.getByLabel("Ends").selectOption({ label: "1 day" });
    await page.getByRole("button", { name: "Block", exact: true }).click();
    await page.getByText("203.0.113.0/24 is blocked").waitFor();
    const list = page.getByRole("list", { name: "Blocked addresses" });
    expect(await list.textContent()).toContain("Scraping every page at night");
    expect(await page.getByLabel("Address or range").inputValue()).toBe("");

    await list.getByRole("button", { name: "Remove the block on 203.0.113.0/24" }).click();
    const confirm = page.getByRole("dialog", { name: "Remove this block?" });
    expect(await confirm.textContent()).toContain("Requests from 203.0.113.0/24 are served again at once");
    await confirm.getByRole("button", { name: "Remove block" }).click();
    await page.getByText("203.0.113.0/24 is no longer blocked").waitFor();
    await page.getByText("No address is blocked.").waitFor();
  }, 40_000);

  test("the section in the four looks, with axe", async () => {
    await api(world.owner.page, "POST", "/api/admin/security/blocks", {
      cidr: "198.51.100.0/24",
      reason: "Password spraying from a hosting range",
      expiresInHours: 24,
    });
    // Ten new API tokens in a few minutes: a warning alert, open while the looks are taken.
    for (let i = 0; i < 10; i++) await api(world.owner.page, "POST", "/api/api-tokens", { name: `deploy ${i}` });
    const v = await visit(world.cairn, { storageState: world.storage });
    try {
      await openSecurity(v.page);
      await v.page.getByRole("list", { name: "Blocked addresses" }).waitFor();
      await alertList(v.page).getByText("created 10 API tokens").waitFor();
      await v.page.getByRole("region", { name: "Security events" }).waitFor();
      // In each look, the whole section too (for reviewing what lies below the fold) and the events.
      const moreShots = async () => {
        const look =
          `${(await v.page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches)) ? "dark" : "light"}` +
          `-${v.page.viewportSize()!.width}`;
        await v.page.screenshot({ path: join(SCREENSHOTS, `admin-security-full-${look}.png`), fullPage: true, animations: "disabled" });
        await v.page
          .getByRole("region", { name: "Events", exact: true })
          .screenshot({ path: join(SCREENSHOTS, `admin-security-events-${look}.png`), animations: "disabled" });
      };
      expect(await checkLooks(v.page, "admin-security", moreShots)).toEqual({});
      expect(v.errors).toEqual([]);
      expect(v.foreign).toEqual([]);
    } finally {
      await v.close();
    }
  }, 60_000);
});
