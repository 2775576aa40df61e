/**
 * Administering people in the browser: the owner promotes Bea to Administrator and the admin
 * area appears for her (in her own browser); the owner suspends Cy while Cy's page is open and
 * Cy's session ends at their next step; a password reset link made for Bea sets her password.
 * The People section in the four looks, with axe (checkLooks).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { apiCall, checkLooks, PASSWORD, visit, type Visit } from "./harness";
import { invitedPerson, ownerWorld, type World } from "./fixtures";

let world: World;
let bea: Visit;
let cy: Visit;

beforeAll(async () => {
  world = await ownerWorld();
  bea = await invitedPerson(world.cairn, world.owner.page, "bea@example.com", "Bea Builder");
  cy = await invitedPerson(world.cairn, world.owner.page, "cy@example.com", "Cy Chen");
}, 60_000);
afterAll(async () => {
  await bea?.close();
  await cy?.close();
  await world?.close();
});

async function openPeople(page: Page): Promise<void> {
  await page.goto("/admin/people");
  await page.getByRole("heading", { name: "People", level: 2 }).waitFor();
  await page.getByRole("table").waitFor();
}

/** A change that may ask for the password first (re-authentication older than five minutes). */
async function confirmPasswordIfAsked(page: Page, done: string): Promise<void> {
  const asked = page.getByRole("dialog", { name: "Confirm your password" });
  await asked.or(page.getByText(done)).first().waitFor();
  if (await asked.isVisible()) {
    await asked.getByLabel("Your password").fill(PASSWORD);
    await asked.getByRole("button", { name: "Confirm and continue" }).click();
  }
  await page.getByText(done).waitFor();
}

async function actionsFor(page: Page, name: string, item: string): Promise<void> {
  await page.getByRole("button", { name: `Actions for ${name}` }).click();
  await page.getByRole("menuitem", { name: item }).click();
}

async function accountMenuHasAdministration(page: Page): Promise<boolean> {
  await page.goto("/");
  await page.getByRole("button", { name: /^Account/ }).click();
  await page.getByRole("menuitem", { name: "Your account" }).waitFor();
  const has = (await page.getByRole("menuitem", { name: "Administration" }).count()) > 0;
  await page.keyboard.press("Escape");
  return has;
}

describe("administering people", () => {
  test("the owner's row has no actions and says why", async () => {
    const { page } = world.owner;
    await openPeople(page);
    const ownerRow = page.getByRole("row").filter({ hasText: "owner@example.com" });
    await ownerRow.getByText("No actions: owner").waitFor();
    await page.getByText("You are the owner: nobody can change your account here.").waitFor();
    expect(await ownerRow.getByRole("button").count()).toBe(0);
  }, 30_000);

  test("the owner promotes Bea to Administrator; the admin area appears in Bea's own browser", async () => {
    expect(await accountMenuHasAdministration(bea.page)).toBe(false);

    const { page } = world.owner;
    await openPeople(page);
    await actionsFor(page, "Bea Builder", "Change role…");
    const dialog = page.getByRole("dialog", { name: "Change Bea Builder's role" });
    await dialog.getByLabel("Role").selectOption({ label: "Administrator" });
    expect(await checkLooks(page, "admin-people-role")).toEqual({});
    await dialog.getByRole("button", { name: "Save role" }).click();
    await confirmPasswordIfAsked(page, "Bea Builder is now Administrator");
    await page.getByRole("row").filter({ hasText: "bea@example.com" }).getByRole("cell", { name: "Administrator" }).waitFor();

    // Bea's next request carries the new role: the account menu offers the admin area, and it opens.
    expect(await accountMenuHasAdministration(bea.page)).toBe(true);
    await bea.page.getByRole("button", { name: /^Account/ }).click();
    await bea.page.getByRole("menuitem", { name: "Administration" }).click();
    await bea.page.getByRole("heading", { name: "Administration", level: 1 }).waitFor();
    await bea.page.getByRole("navigation", { name: "Administration sections" }).getByRole("link", { name: "People" }).waitFor();
    await bea.page.goto("/admin/people");
    // Bea sees the owner's row without actions, and her own without Suspend.
    await bea.page.getByRole("row").filter({ hasText: "owner@example.com" }).getByText("No actions: owner").waitFor();
    await bea.page.getByText("Nobody can change the owner's account here; only the owner can hand ownership on.").waitFor();
    await bea.page.getByRole("button", { name: "Actions for Bea Builder" }).click();
    await bea.page.getByRole("menuitem", { name: "Change role…" }).waitFor();
    expect(await bea.page.getByRole("menuitem", { name: "Suspend…" }).count()).toBe(0);
    await bea.page.keyboard.press("Escape");
  }, 40_000);

  test("the owner suspends Cy while Cy's page is open; Cy's session ends at their next step", async () => {
    await cy.page.goto("/");
    await cy.page.getByRole("button", { name: /^Account: Cy Chen/ }).waitFor();

    const { page } = world.owner;
    await openPeople(page);
    await actionsFor(page, "Cy Chen", "Suspend…");
    const confirm = page.getByRole("dialog", { name: "Suspend Cy Chen?" });
    await confirm.getByText("signed out of every device").waitFor();
    await confirm.getByRole("button", { name: "Suspend Cy Chen" }).click();
    await page.getByText("Cy Chen is suspended and signed out").waitFor();
    await page.getByRole("row").filter({ hasText: "cy@example.com" }).getByText("Suspended").waitFor();

    // Cy's next action in the open page (following a link in the app) lands on the sign-in screen.
    await cy.page
      .getByRole("link", { name: /^Notifications/ })
      .first()
      .click();
    await cy.page.getByRole("heading", { name: "Sign in", level: 1 }).waitFor();
    expect(new URL(cy.page.url()).pathname).toBe("/login");
    await cy.page.goto("/");
    await cy.page.getByRole("heading", { name: "Sign in", level: 1 }).waitFor();
    expect((await apiCall(cy.page, "POST", "/api/auth/login", { email: "cy@example.com", password: PASSWORD })).status).toBe(403);

    // Reactivated, Cy can sign in again.
    await actionsFor(page, "Cy Chen", "Reactivate");
    await page.getByText("Cy Chen is active again").waitFor();
    expect((await apiCall(cy.page, "POST", "/api/auth/login", { email: "cy@example.com", password: PASSWORD })).status).toBe(200);
  }, 40_000);

  test("a reset link made for Cy sets a new password; Cy then signs in with it", async () => {
    const { page } = world.owner;
    await openPeople(page);
    await actionsFor(page, "Cy Chen", "Make a password reset link…");
    const dialog = page.getByRole("dialog", { name: "Password reset link for Cy Chen" });
    await dialog.getByRole("button", { name: "Make reset link" }).click();
    const link = (await dialog.getByLabel("Reset link").textContent())!;
    expect(link).toContain("/reset-password?token=");
    await dialog.getByText("not set up").waitFor();
    expect(await checkLooks(page, "admin-people-link")).toEqual({});
    await dialog.getByRole("button", { name: "Done" }).click();

    const stranger = await visit(world.cairn);
    try {
      await stranger.page.goto(link);
      await stranger.page.getByRole("heading", { name: "Choose a new password" }).waitFor();
      await stranger.page.getByLabel("New password").fill("a fresh reset passphrase");
      await stranger.page.getByLabel("The same password again").fill("a fresh reset passphrase");
      await stranger.page.getByRole("button", { name: "Set password" }).click();
      await stranger.page.getByRole("heading", { name: "Sign in", level: 1 }).waitFor();
      expect(
        (await apiCall(stranger.page, "POST", "/api/auth/login", { email: "cy@example.com", password: "a fresh reset passphrase" })).status,
      ).toBe(200);
      // The link worked once.
      await stranger.page.goto(link);
      await stranger.page.getByLabel("New password").fill("another passphrase here");
      await stranger.page.getByLabel("The same password again").fill("another passphrase here");
      await stranger.page.getByRole("button", { name: "Set password" }).click();
      await stranger.page.getByText("This link does not work any more").waitFor();
    } finally {
      await stranger.close();
    }
  }, 40_000);

  test("past eight people a search box finds them by name, e-mail, role or status", async () => {
    const joiner = await visit(world.cairn);
    try {
      await joiner.page.goto("/api/health");
      for (const name of ["Dana Diaz", "Eli Evans", "Fay Fox", "Gus Gray", "Hal Hunt", "Ivy Ito"]) {
        const email = `${name.split(" ")[0]!.toLowerCase()}@example.com`;
        const invite = await apiCall(world.owner.page, "POST", "/api/admin/invites", { email, expiresInDays: 7 });
        expect(
          (
            await apiCall(joiner.page, "POST", "/api/auth/register", {
              email,
              displayName: name,
              password: PASSWORD,
              inviteToken: invite.body.token,
            })
          ).status,
        ).toBe(201);
      }
    } finally {
      await joiner.close();
    }
    const { page } = world.owner;
    await openPeople(page);
    const search = page.getByLabel("Find a person");
    await search.fill("fox");
    await page.getByRole("row").filter({ hasText: "Fay Fox" }).waitFor();
    expect(await page.getByRole("row").count()).toBe(2); // the header and Fay
    await search.fill("administrator");
    await page.getByRole("row").filter({ hasText: "Bea Builder" }).waitFor();
    expect(await page.getByRole("row").count()).toBe(2);
    await search.fill("nobody-like-this");
    await page.getByText("Nobody matches").waitFor();
    await search.fill("");
    await page.getByRole("row").filter({ hasText: "Ivy Ito" }).waitFor();
  }, 30_000);
});

// The owner's browser for the People screens below, each loaded or opened once and taken through
// the four looks in place; a test per screen, so a failure names it. The menu and its confirmation
// are opened on the list the first test loaded.
describe("the People section, each screen in the four looks", () => {
  beforeAll(async () => {
    const { page } = world.owner;
    await page.goto("/api/health");
    // Someone locked out, to show the sign-in column.
    for (let i = 0; i < 5; i++)
      await apiCall(page, "POST", "/api/auth/login", { email: "bea@example.com", password: "not bea's password" });
  }, 30_000);
  /** No request left the server and the page threw nothing (since the last check). */
  const nothingAmiss = () => {
    expect(world.owner.foreign.splice(0)).toEqual([]);
    expect(world.owner.errors.splice(0)).toEqual([]);
  };

  test("the list, someone locked out (admin-people)", async () => {
    const { page } = world.owner;
    await openPeople(page);
    expect(await checkLooks(page, "admin-people")).toEqual({});
    nothingAmiss();
  }, 30_000);

  test("a person's actions menu (admin-people-menu)", async () => {
    const { page } = world.owner;
    const actions = page.getByRole("button", { name: "Actions for Bea Builder" });
    await actions.click();
    await page.getByRole("menuitem", { name: "Unlock sign-in" }).waitFor();
    // Narrow, the rows are taller: the button is brought back into view, its menu beside it.
    const actionsInView = async () => {
      await actions.scrollIntoViewIfNeeded();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    };
    expect(await checkLooks(page, "admin-people-menu", actionsInView)).toEqual({});
    nothingAmiss();
  }, 30_000);

  test("the confirmation of revoking a person's API tokens (admin-people-confirm)", async () => {
    const { page } = world.owner;
    await page.getByRole("menuitem", { name: "Revoke API tokens…" }).click();
    await page.getByRole("dialog", { name: "Revoke Bea Builder's API tokens?" }).waitFor();
    expect(await checkLooks(page, "admin-people-confirm")).toEqual({});
    await page.getByRole("button", { name: "Cancel" }).click();
    await actionsFor(page, "Bea Builder", "Unlock sign-in");
    await page.getByText("Bea Builder can sign in again").waitFor();
    nothingAmiss();
  }, 30_000);

  test("a reset link's page, to someone signed out (reset-password)", async () => {
    const anon = await visit(world.cairn);
    try {
      await anon.page.goto("/reset-password?token=not-a-real-one");
      await anon.page.getByRole("heading", { name: "Choose a new password" }).waitFor();
      expect(await checkLooks(anon.page, "reset-password")).toEqual({});
    } finally {
      await anon.close();
    }
  }, 30_000);
});
