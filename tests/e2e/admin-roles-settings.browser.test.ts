/**
 * Roles and settings in the browser: a custom role is created, given a right in the matrix and
 * still holds it after a reload; the matrix is marked reviewed; a role nobody holds is deleted
 * after a confirmation naming it; the instance name changed in Settings shows in the header at
 * once. Both sections in the four looks, with axe, each loaded once and its looks gone through in
 * place (checkLooks).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { api, ownerWorld, type World } from "./fixtures";
import { axeViolations, checkLooks, SCREENSHOTS, visit } from "./harness";

let world: World;

beforeAll(async () => {
  world = await ownerWorld();
}, 60_000);
afterAll(async () => {
  await world?.close();
});

async function openRoles(page: Page): Promise<void> {
  await page.goto("/admin/roles");
  await page.getByRole("heading", { name: "Rights", level: 2 }).waitFor();
}

async function openSettings(page: Page): Promise<void> {
  await page.goto("/admin/settings");
  await page.getByRole("heading", { name: "General", level: 2 }).waitFor();
}

describe("roles", () => {
  test("a custom role is created, granted a right in the matrix, and keeps it after a reload", async () => {
    const { page } = world.owner;
    await openRoles(page);
    await page.getByRole("button", { name: "New role" }).click();
    const dialog = page.getByRole("dialog", { name: "New role" });
    await dialog.getByLabel("Name").fill("Reviewers");
    await dialog.getByLabel("Description (optional)").fill("Read the audit log");
    await dialog.getByLabel("Start with the rights of").selectOption({ label: "User (2 rights)" });
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Create role" }).click();
    await page.getByText("Role “Reviewers” created").waitFor();

    const cell = page.getByRole("checkbox", { name: "Reviewers: Read the audit log" });
    expect(await cell.isChecked()).toBe(false);
    expect(await page.getByRole("checkbox", { name: "Reviewers: Create spaces" }).isChecked()).toBe(true);
    await cell.check();
    await page.getByText("1 role changed, not saved yet.").waitFor();
    await page.getByRole("button", { name: "Save rights" }).click();
    await page.getByText("Rights of Reviewers saved").waitFor();

    await page.reload();
    await page.getByRole("heading", { name: "Rights", level: 2 }).waitFor();
    expect(await page.getByRole("checkbox", { name: "Reviewers: Read the audit log" }).isChecked()).toBe(true);
    // The owner's reserved rights are locked, and say why.
    const reserved = page.getByRole("checkbox", {
      name: "Owner: Manage roles and the rights they hold (locked: The owner always keeps this right)",
    });
    expect(await reserved.isDisabled()).toBe(true);
    const stored = await api(page, "GET", "/api/admin/roles");
    expect(stored.roles.find((r: { name: string }) => r.name === "Reviewers").permissions).toEqual([
      "tokens.use",
      "spaces.create",
      "audit.view",
    ]);
  }, 40_000);

  test("Discard puts the matrix back; Mark reviewed records who and when", async () => {
    const { page } = world.owner;
    await openRoles(page);
    const cell = page.getByRole("checkbox", { name: "User: Read the audit log" });
    await cell.check();
    await page.getByRole("button", { name: "Discard" }).click();
    expect(await cell.isChecked()).toBe(false);
    await page.getByText("Nobody has marked these rights reviewed yet.", { exact: false }).waitFor();
    await page.getByRole("button", { name: "Mark reviewed" }).click();
    await page.getByText(/Last reviewed .* by Olive Owner\./).waitFor();
  }, 30_000);

  test("a role nobody holds is deleted after a confirmation naming it", async () => {
    const { page } = world.owner;
    await api(page, "POST", "/api/admin/roles", { name: "Temporary", tier: 0 });
    await openRoles(page);
    await page.getByRole("button", { name: "Delete Temporary" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete the role Temporary?" });
    expect(await confirm.textContent()).toContain("The role “Temporary” and its 0 rights go for good.");
    await confirm.getByRole("button", { name: "Delete Temporary" }).click();
    await page.getByText("Role “Temporary” deleted").waitFor();
    expect(await page.getByRole("checkbox", { name: /^Temporary:/ }).count()).toBe(0);
  }, 30_000);
});

describe("settings", () => {
  test("the instance name changed in Settings shows in the header at once and after a reload", async () => {
    const { page } = world.owner;
    await openSettings(page);
    const general = page.getByRole("region", { name: "General" });
    // A value out of range is refused under its field, naming why.
    const email = page.getByRole("region", { name: "E-mail" });
    await email.getByLabel("Port").fill("70000");
    await email.getByRole("button", { name: "Save e-mail" }).click();
    await email.locator("#setting-smtpPort-note.field-error", { hasText: "65535" }).waitFor();
    expect(await email.getByLabel("Port").getAttribute("aria-invalid")).toBe("true");
    await email.getByRole("button", { name: "Discard" }).click();

    await general.getByLabel("Instance name").fill("Acme Wiki");
    await general.getByRole("button", { name: "Save general" }).click();
    await page.getByText("General saved").waitFor();
    await page.locator(".brand-name", { hasText: "Acme Wiki" }).waitFor();
    await page.reload();
    await page.locator(".brand-name", { hasText: "Acme Wiki" }).waitFor();
    expect(await page.getByLabel("Instance name").inputValue()).toBe("Acme Wiki");
  }, 30_000);

  test("a secret is set, shown only as set, and cleared", async () => {
    const { page } = world.owner;
    await openSettings(page);
    const email = page.getByRole("region", { name: "E-mail" });
    await email.getByRole("button", { name: "Set", exact: true }).click();
    await email.getByLabel("Password").fill("smtp-secret-value");
    await email.getByRole("button", { name: "Save e-mail" }).click();
    await page.getByText("E-mail saved").waitFor();
    await email.getByText("Set", { exact: true }).waitFor();
    expect(await page.content()).not.toContain("smtp-secret-value");
    await email.getByRole("button", { name: "Clear" }).click();
    await email.getByText("Will be cleared when you save").waitFor();
    await email.getByRole("button", { name: "Save e-mail" }).click();
    await email.getByText("Not set", { exact: true }).waitFor();
    expect((await api(page, "GET", "/api/admin/settings")).smtpPasswordSet).toBe(false);
  }, 30_000);
});

test("roles and settings in the four looks, with axe", async () => {
  await api(world.owner.page, "POST", "/api/admin/roles", {
    name: "Editors in chief",
    description: "Run the content spaces",
    tier: 1,
    copyFrom: "00000000-0000-7000-8000-000000000001",
  });
  const v = await visit(world.cairn, { storageState: world.storage });
  const { page } = v;
  try {
    // In each look, the whole page too, for review.
    const wholePage = (name: string) => async () => {
      const look =
        `${(await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches)) ? "dark" : "light"}` +
        `-${page.viewportSize()?.width}`;
      await page.screenshot({ path: join(SCREENSHOTS, `${name}-full-${look}.png`), fullPage: true, animations: "disabled" });
    };
    await openRoles(page);
    expect(await checkLooks(page, "admin-roles", wholePage("admin-roles"))).toEqual({});
    await openSettings(page);
    expect(await checkLooks(page, "admin-settings", wholePage("admin-settings"))).toEqual({});
    expect(v.errors).toEqual([]);
    expect(v.foreign).toEqual([]);
  } finally {
    await v.close();
  }
}, 90_000);
