/**
 * The first minutes of a new instance in the browser: create the owner, sign out and in (with
 * the errors a person meets), join from an invite link, a session that ends mid-visit, the
 * home screen and creating a space. Every screen is checked with axe and photographed in the
 * four looks, each loaded once and its looks gone through in place (checkLooks).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { apiCall, axeViolations, checkLooks, PASSWORD, startCairn, visit, type RunningCairn, type Visit } from "./harness";

let cairn: RunningCairn;
let owner: Visit;

beforeAll(async () => {
  cairn = await startCairn();
  owner = await visit(cairn);
});
afterAll(async () => {
  await owner?.close();
  await cairn?.stop();
});

async function fillRegister(page: Page, name: string, email: string, password = PASSWORD) {
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
}

async function expectNoAxeViolations(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
}

/** The screen as loaded now, in the four looks with axe (a failure names the screen). */
async function looksClean(page: Page, name: string): Promise<void> {
  expect({ name, violations: await checkLooks(page, name) }).toEqual({ name, violations: {} });
}

describe("a new instance in the browser", () => {
  test("the first visit asks for the owner; afterwards that screen never shows again", async () => {
    const { page } = owner;
    await page.goto("/");
    await page.waitForURL(/\/setup$/);
    await page.getByRole("heading", { name: "Welcome to Cairn" }).waitFor();
    // A short password is refused next to its field, in the server's words.
    await fillRegister(page, "Olive Owner", "owner@example.com", "short");
    await page.getByRole("button", { name: "Create the owner account" }).click();
    await page.getByText("must be at least 8 characters").waitFor();
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create the owner account" }).click();
    // The setup wizard follows (tests/e2e/setup-wizard.browser.test.ts); the home screen is a step away.
    await page.waitForURL((url) => url.pathname === "/welcome/welcome");
    await page.goto("/");
    await page.getByRole("heading", { name: "Create your first space" }).waitFor();
    await expectNoAxeViolations(page);
    await page.goto("/setup");
    await page.waitForURL((url) => url.pathname === "/");
    const instance = await apiCall(page, "GET", "/api/instance");
    expect(instance.body.needsOwner).toBe(false);
    // Every sign-in of this file comes from one address: lift the per-minute limit (not the lockout).
    expect((await apiCall(page, "PUT", "/api/admin/settings", { loginRateLimitPerMinute: 1000 })).status).toBe(200);
  }, 30_000);

  test("creating a space suggests its key from the name, keeps an edited key and opens the space", async () => {
    const { page } = owner;
    await page.goto("/");
    await page.getByRole("button", { name: "Create space" }).click();
    const dialog = page.getByRole("dialog", { name: "Create a space" });
    await dialog.getByLabel("Name").fill("Engineering Handbook");
    expect(await dialog.getByLabel("Key").inputValue()).toBe("EH");
    await dialog.getByLabel("Key").fill("eng");
    expect(await dialog.getByLabel("Key").inputValue()).toBe("ENG");
    await dialog.getByLabel("Description").fill("How we build, ship and run things.");
    await dialog.getByRole("button", { name: "Icon 🛠️" }).click();
    await dialog.getByRole("button", { name: "Create space" }).click();
    // A space made here opens on its welcome page (its home page).
    await page.waitForURL(/\/s\/ENG(\/|$)/);
    await page.getByRole("heading", { name: "Welcome to Engineering Handbook" }).waitFor();
    const space = await apiCall(page, "GET", "/api/spaces/ENG");
    expect(space.body).toMatchObject({
      key: "ENG",
      name: "Engineering Handbook",
      description: "How we build, ship and run things.",
      iconKind: 1,
      iconValue: "🛠️",
    });
    // A taken key is refused in the dialog, next to the key.
    await page.goto("/");
    await page.getByRole("link", { name: "Engineering Handbook", exact: true }).waitFor();
    await page.getByRole("button", { name: "Create space" }).click();
    await page.getByRole("dialog").getByLabel("Name").fill("Engine");
    await page.getByRole("dialog").getByLabel("Key").fill("ENG");
    await page.getByRole("dialog").getByRole("button", { name: "Create space" }).click();
    await page.getByRole("dialog").getByText("The key ENG is already used by another space.").waitFor();
    await page.keyboard.press("Escape");
  }, 30_000);

  test("signing out, a wrong password, then signing in again", async () => {
    const { page } = owner;
    await page.goto("/");
    await page.getByRole("button", { name: /^Account/ }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.waitForURL(/\/login$/);
    await page.getByLabel("E-mail").fill("owner@example.com");
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").getByText("Wrong e-mail or password").waitFor();
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("link", { name: "Engineering Handbook", exact: true }).waitFor();
  }, 30_000);

  test("a first visit is asked to sign in, and only a session that really ended says so", async () => {
    const stranger = await visit(cairn, { width: 375 });
    try {
      await stranger.page.goto("/s/ENG");
      await stranger.page.waitForURL(/\/login\?redirect=/);
      await stranger.page.getByRole("heading", { name: "Sign in" }).waitFor();
      expect(await stranger.page.getByText("Your session ended").count()).toBe(0);
      await looksClean(stranger.page, "sign-in-first-visit");
    } finally {
      await stranger.close();
    }
  }, 30_000);

  test("a session that ends mid-visit sends the person to sign in, then back to where they were", async () => {
    const { page, context } = owner;
    await page.goto("/s/ENG");
    await page.getByRole("heading", { name: "Welcome to Engineering Handbook" }).waitFor();
    // The session ends on the server (signed out elsewhere) while this browser keeps its cookie.
    const kept = await context.cookies();
    expect((await apiCall(page, "POST", "/api/auth/logout")).status).toBe(204);
    await context.addCookies(kept);
    // The next visit's first request answers 401 for an ended session: the app asks to sign in, remembering the place.
    await page.goto("/s/ENG/trash");
    await page.waitForURL(/\/login\?redirect=/);
    expect(decodeURIComponent(new URL(page.url()).search)).toContain("/s/ENG/trash");
    await page.getByText("Your session ended. Sign in to go back to where you were.").waitFor();
    await page.getByLabel("E-mail").fill("owner@example.com");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/s\/ENG\/trash$/);
  }, 30_000);

  test("an invite link lets a new person create an account and land on the spaces", async () => {
    const invite = await apiCall(owner.page, "POST", "/api/admin/invites", {
      email: "nia@example.com",
      expiresInDays: 7,
      sendEmail: false,
    });
    expect(invite.status).toBe(201);
    const guest = await visit(cairn, { width: 375 });
    try {
      const { page } = guest;
      await page.goto(`/register?invite=${encodeURIComponent(invite.body.token)}`);
      await page.getByRole("heading", { name: "Create your account" }).waitFor();
      // The invited address is filled in and kept; the invite says who sent it and what it gives.
      expect(await page.getByLabel("E-mail").inputValue()).toBe("nia@example.com");
      expect(await page.getByLabel("E-mail").getAttribute("readonly")).not.toBeNull();
      await page.getByText("Olive Owner invited you to join this wiki as User.").waitFor();
      await expectNoAxeViolations(page);
      await page.getByLabel("Your name").fill("Nia Newcomer");
      await page.getByLabel("Password").fill("short");
      await page.getByRole("button", { name: "Create account" }).click();
      // The refusal reads as a sentence, without the field's name in front.
      await page.getByText("The password must be at least 8 characters.").waitFor();
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("link", { name: "Engineering Handbook", exact: true }).waitFor();
      const me = await apiCall(page, "GET", "/api/auth/me");
      expect(me.body).toMatchObject({ email: "nia@example.com", displayName: "Nia Newcomer" });
      // Without an invite (and registration closed) the page says how to get one.
      await page.context().clearCookies();
      await page.goto("/register");
      await page.getByRole("heading", { name: "Invite needed" }).waitFor();
      expect(guest.foreign).toEqual([]);
      expect(guest.errors).toEqual([]);
    } finally {
      await guest.close();
    }
  }, 30_000);

  test("an invite with a role and spaces; a new member without spaces is told to ask for access", async () => {
    const { page } = owner;
    // ENG made private for this test: the Everyone grant goes, and comes back at the end.
    const grants = await apiCall(page, "GET", "/api/spaces/ENG/permissions");
    const everyone = grants.body.find((g: { principalType: number }) => g.principalType === 1);
    expect((await apiCall(page, "DELETE", `/api/spaces/ENG/permissions/${everyone.id}`)).status).toBe(204);
    try {
      // The invite form offers the roles and spaces the owner may give.
      await page.goto("/admin/invites");
      await page.getByLabel("Role").selectOption({ label: "Administrator" });
      await page.getByLabel("Role").selectOption({ label: "User" });
      await page.getByLabel("Engineering Handbook").selectOption({ label: "Can edit" });
      await looksClean(page, "invite-form");
      await page.getByLabel("Engineering Handbook").selectOption({ label: "No access given" });
      const lonely = await apiCall(page, "POST", "/api/admin/invites", { email: "lou@example.com" });
      const withSpace = await apiCall(page, "POST", "/api/admin/invites", {
        email: "sam@example.com",
        spaces: [{ spaceId: (await apiCall(page, "GET", "/api/spaces/ENG")).body.id, operation: 1 }],
      });

      const sam = await visit(cairn);
      await sam.page.goto(`/register?invite=${encodeURIComponent(withSpace.body.token)}`);
      await sam.page.getByText("You can edit Engineering Handbook.").waitFor();
      await sam.page.getByLabel("Your name").fill("Sam Second");
      await looksClean(sam.page, "register-invited");
      await sam.page.getByLabel("Password").fill(PASSWORD);
      await sam.page.getByRole("button", { name: "Create account" }).click();
      await sam.page.getByRole("link", { name: "Engineering Handbook", exact: true }).waitFor();
      await sam.close();

      const lou = await visit(cairn);
      await lou.page.goto(`/register?invite=${encodeURIComponent(lonely.body.token)}`);
      await lou.page.getByLabel("Your name").fill("Lou Later");
      await lou.page.getByLabel("Password").fill(PASSWORD);
      await lou.page.getByRole("button", { name: "Create account" }).click();
      await lou.page.getByRole("heading", { name: "Ask an administrator for access" }).waitFor();
      expect(await lou.page.getByRole("heading", { name: "Create your first space" }).count()).toBe(0);
      await looksClean(lou.page, "home-no-spaces");
      await lou.close();
      // A used or unknown invite link says so instead of showing the form.
      const used = await visit(cairn, { width: 375 });
      await used.page.goto(`/register?invite=${encodeURIComponent(lonely.body.token)}`);
      await used.page.getByRole("heading", { name: "This invite link does not work" }).waitFor();
      expect(await used.page.getByLabel("E-mail").count()).toBe(0);
      await used.close();
    } finally {
      await apiCall(page, "POST", "/api/spaces/ENG/permissions", {
        principalType: 1,
        principalId: everyone.principalId,
        operation: everyone.operation,
      });
    }
  }, 90_000);

  test("the theme follows the system, and the account menu pins light or dark", async () => {
    const { page } = owner;
    await page.goto("/");
    // Read a frame later: with reduced motion every change still "transitions" for 0.01 ms.
    const bg = () =>
      page.evaluate(() => new Promise<string>((r) => setTimeout(() => r(getComputedStyle(document.body).backgroundColor), 50)));
    const light = await bg();
    await page.getByRole("button", { name: /^Account/ }).click();
    await page.getByRole("menuitem", { name: "Dark theme" }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    expect(await bg()).not.toBe(light);
    await page.reload();
    await page.getByRole("link", { name: "Engineering Handbook", exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await page.getByRole("button", { name: /^Account/ }).click();
    await page.getByRole("menuitem", { name: "System theme" }).click();
    // This browser's system is light.
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("light");
    expect(await bg()).toBe(light);
  }, 30_000);

  test("too many wrong passwords: the lock and the time left are said in plain words", async () => {
    const other = await visit(cairn);
    try {
      const { page } = other;
      await page.goto("/login");
      for (let i = 0; i < 5; i++) await apiCall(page, "POST", "/api/auth/login", { email: "owner@example.com", password: `wrong ${i}` });
      await page.getByLabel("E-mail").fill("owner@example.com");
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page
        .getByRole("alert")
        .getByText(/locked/i)
        .waitFor();
      const alert = await page.getByRole("alert").textContent();
      expect(alert).toMatch(/locked/i);
      expect(alert).toMatch(/try again in \d+ (seconds|minutes?)/i);
    } finally {
      await other.close();
    }
  }, 30_000);

  test("nothing was loaded from another host and the page threw nothing", () => {
    expect(owner.foreign).toEqual([]);
    expect(owner.errors).toEqual([]);
  }, 30_000);
});

describe("screenshots of the first screens, in light and dark, at 1280 and 375 px", () => {
  test("setup, sign-in, home, create space and an empty space", async () => {
    const fresh = await startCairn();
    try {
      const v = await visit(fresh);
      await v.page.goto("/setup");
      await v.page.getByRole("heading", { name: "Welcome to Cairn" }).waitFor();
      await looksClean(v.page, "01-setup");
      await v.close();
    } finally {
      await fresh.stop();
    }
    const stranger = await visit(cairn);
    try {
      const { page } = stranger;
      await page.goto("/login");
      await page.getByLabel("E-mail").fill("someone@example.com");
      await page.getByLabel("Password").fill("wrong password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("alert").waitFor();
      await looksClean(page, "02-sign-in-error");
    } finally {
      await stranger.close();
    }
    const v = await visit(cairn, { storageState: await owner.context.storageState() });
    try {
      const { page } = v;
      await page.goto("/");
      await page.getByRole("link", { name: "Engineering Handbook", exact: true }).waitFor();
      await looksClean(page, "03-home");
      await page.getByRole("button", { name: "Create space" }).click();
      await page.getByRole("dialog").getByLabel("Name").fill("Product Roadmap");
      await looksClean(page, "04-create-space");
      await page.keyboard.press("Escape");
      await page.goto("/s/ENG");
      await page.getByRole("heading", { name: "Welcome to Engineering Handbook" }).waitFor();
      await looksClean(page, "05-space-welcome");
      expect(v.foreign).toEqual([]);
    } finally {
      await v.close();
    }
  }, 120_000);
});
