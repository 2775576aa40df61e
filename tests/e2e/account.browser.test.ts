/**
 * The account and the audit log in the browser: the display name changed; the password changed
 * (a wrong current one said in place); another session seen and signed out; an API token made
 * in the account screen, used from the test with fetch, then revoked; the audit chain verified
 * in the audit screen. Every screen in the four looks, with axe.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  axeViolations,
  checkLooks,
  createOwner,
  PASSWORD,
  screenshot,
  signIn,
  startCairn,
  visit,
  type RunningCairn,
  type Visit,
} from "./harness";
import { api, newPage, newSpace } from "./fixtures";

let cairn: RunningCairn;
let owner: Visit;
const NEW_PASSWORD = "a brand new passphrase of mine";

beforeAll(async () => {
  cairn = await startCairn();
  owner = await visit(cairn);
  await createOwner(owner.page);
  await api(owner.page, "PUT", "/api/admin/settings", { loginRateLimitPerMinute: 1000 });
  const space = await newSpace(owner.page, "ENG", "Engineering");
  await newPage(owner.page, space.id, "Welcome");
}, 60_000);
afterAll(async () => {
  await owner?.close();
  await cairn?.stop();
});

describe("account", () => {
  test("the display name, from the account menu", async () => {
    const { page } = owner;
    await page.goto("/");
    await page.getByRole("button", { name: /^Account/ }).click();
    await page.getByRole("menuitem", { name: "Your account" }).click();
    await page.getByRole("heading", { name: "Your account", level: 1 }).waitFor();
    await page.getByLabel("Display name").fill("Olive Q. Owner");
    await page.getByRole("button", { name: "Save name" }).click();
    await page.getByText("Display name saved").waitFor();
    expect((await api(page, "GET", "/api/auth/me")).displayName).toBe("Olive Q. Owner");
    await page.getByRole("button", { name: "Account: Olive Q. Owner" }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
  }, 30_000);

  test("another session is seen and signed out", async () => {
    const other = await visit(cairn);
    try {
      await signIn(other.page, "owner@example.com");
      const { page } = owner;
      await page.goto("/settings/sessions");
      const list = page.getByRole("list", { name: "Sessions" });
      await list.getByText("This device").waitFor();
      expect(await list.locator("li").count()).toBe(2);
      expect(await axeViolations(page)).toEqual([]);
      await list.getByRole("button", { name: /^Sign out/ }).click();
      await page.getByRole("dialog", { name: "Sign out this session?" }).getByRole("button", { name: "Sign out" }).click();
      await page.getByText(/was signed out$/).waitFor();
      // The toast can come a moment before the list is fetched again.
      await list.locator("li").nth(1).waitFor({ state: "detached" });
      expect(await list.locator("li").count()).toBe(1);
      expect(await other.page.evaluate(async () => (await fetch("/api/auth/me")).status)).toBe(401);
    } finally {
      await other.close();
    }
  }, 30_000);

  test("an API token made here works from a script until revoked", async () => {
    const { page } = owner;
    await page.goto("/settings/tokens");
    await page.getByText("No tokens yet.").waitFor();
    await page.getByLabel("Name").fill("Nightly export");
    await page.getByLabel("Expires").selectOption({ label: "In 30 days" });
    await page.getByRole("button", { name: "Create token" }).click();
    const value = (await page.getByLabel("Token value").textContent())!.trim();
    expect(value.length).toBeGreaterThan(20);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "account-token-created");

    const me = await fetch(`${cairn.url}/api/auth/me`, { headers: { authorization: `Bearer ${value}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe("owner@example.com");
    // Read-only (the default): a change is refused.
    const change = await fetch(`${cairn.url}/api/spaces`, {
      method: "POST",
      headers: { authorization: `Bearer ${value}`, "content-type": "application/json" },
      body: JSON.stringify({ key: "TOK", name: "By token" }),
    });
    expect(change.status).toBe(403);

    await page.getByRole("button", { name: "Done" }).click();
    expect(await page.getByLabel("Token value").count()).toBe(0);
    await page.reload();
    const list = page.getByRole("list", { name: "API tokens" });
    await list.getByText("Nightly export").waitFor();
    await list.getByText(/last used/).waitFor();
    await list.getByText("Read-only").waitFor();
    await page.getByRole("button", { name: "Revoke Nightly export" }).click();
    await page.getByRole("dialog", { name: "Revoke “Nightly export”?" }).getByRole("button", { name: "Revoke token" }).click();
    await page.getByText("“Nightly export” was revoked").waitFor();
    await page.getByText("No tokens yet.").waitFor();
    expect((await fetch(`${cairn.url}/api/auth/me`, { headers: { authorization: `Bearer ${value}` } })).status).toBe(401);
  }, 30_000);

  test("the password: a wrong current one is said in place, then it changes", async () => {
    const { page } = owner;
    await page.goto("/settings/password");
    await page.getByLabel("Current password").fill("not my password at all");
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("New password again").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("That is not your current password.").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel("Current password").fill(PASSWORD);
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("Password changed. Your other sessions were signed out.").waitFor();
    // Still signed in here; the new password signs in elsewhere.
    expect((await api(page, "GET", "/api/auth/me")).email).toBe("owner@example.com");
    const other = await visit(cairn);
    try {
      await signIn(other.page, "owner@example.com", NEW_PASSWORD);
    } finally {
      await other.close();
    }
  }, 30_000);

  test("the audit log: filtered by the server (what, who, when, beyond the first page), and the chain verified", async () => {
    const { page } = owner;
    await page.goto("/");
    await page.getByRole("button", { name: /^Account/ }).click();
    await page.getByRole("menuitem", { name: "Administration" }).click();
    await page.getByRole("navigation", { name: "Administration sections" }).getByRole("link", { name: "Audit log" }).click();
    const table = page.getByRole("region", { name: "Audit entries" });
    await table.getByText("token.created").waitFor();
    await page.getByLabel("About").selectOption("space");
    await table.getByText("space.created").waitFor();
    expect(await table.getByText("token.created").count()).toBe(0);
    await page.getByLabel("About").selectOption("");
    // 55 newer entries push the owner's registration off the first page (50) of the log.
    for (let i = 0; i < 55; i++) await api(page, "PUT", "/api/admin/settings", { loginRateLimitPerMinute: 1000 - (i % 2) });
    await page.reload();
    await table.getByText("settings.updated").first().waitFor();
    expect(await table.getByText("user.registered").count()).toBe(0);
    await page.getByLabel("What", { exact: true }).selectOption("user.registered");
    await table.getByText("user.registered").waitFor();
    expect(await table.getByText("settings.updated").count()).toBe(0);
    await page.getByLabel("Who", { exact: true }).selectOption({ label: "Olive Q. Owner" });
    const today = new Date().toLocaleDateString("en-CA");
    await page.getByLabel("From", { exact: true }).fill(today);
    await page.getByLabel("To", { exact: true }).fill(today);
    await table.getByText("user.registered").waitFor();
    await page.getByText("1 matching entry shown. That is all of them.").waitFor();
    await page.getByLabel("What", { exact: true }).selectOption("space.deleted");
    await page.getByText("No entry matches these filters.").waitFor();
    await page.getByLabel("What", { exact: true }).selectOption("");
    await page.getByRole("button", { name: "Verify the chain" }).click();
    await page.getByText("The chain is intact.").waitFor();
    const verified = await api(page, "POST", "/api/admin/audit/verify");
    expect(verified.ok).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  }, 30_000);
});

// One browser context for every screen below, each screen loaded once and taken through the
// four looks in place; a test per screen, so a failure names it.
describe("the account screens, each in the four looks", () => {
  let v: Visit;
  beforeAll(async () => {
    v = await visit(cairn, { storageState: await owner.context.storageState() });
    await v.page.goto("/api/health");
    await api(v.page, "POST", "/api/api-tokens", { name: "Backup", readOnly: true, expiresInDays: 90 });
  }, 30_000);
  afterAll(async () => v?.close());
  /** No request left the server and the page threw nothing while this screen was shown. */
  const nothingAmiss = () => {
    expect(v.foreign.splice(0)).toEqual([]);
    expect(v.errors.splice(0)).toEqual([]);
  };

  for (const [screen, path, name, ready] of [
    ["the profile", "/settings/profile", "account-profile", "main input[autocomplete='name']"],
    ["the password form", "/settings/password", "account-password", "main input[autocomplete='current-password']"],
    ["the sessions", "/settings/sessions", "account-sessions", "main ul[aria-label='Sessions'] li"],
    ["the API tokens, one made", "/settings/tokens", "account-tokens", "main ul[aria-label='API tokens'] li"],
  ] as const) {
    test(`${screen} (${name})`, async () => {
      const { page } = v;
      await page.goto(path);
      await page.locator(ready).first().waitFor();
      expect(await checkLooks(page, name)).toEqual({});
      nothingAmiss();
    }, 30_000);
  }

  test("the audit log, the chain verified (audit-log)", async () => {
    const { page } = v;
    await page.goto("/admin/audit");
    await page.getByRole("region", { name: "Audit entries" }).waitFor();
    await page.getByRole("button", { name: "Verify the chain" }).click();
    await page.getByText("The chain is intact.").waitFor();
    expect(await checkLooks(page, "audit-log")).toEqual({});
    nothingAmiss();
  }, 30_000);

  test("the account menu, open (account-menu)", async () => {
    const { page } = v;
    await page.goto("/");
    await page.getByRole("button", { name: /^Account/ }).click();
    await page.getByRole("menuitem", { name: "Your account" }).waitFor();
    expect(await checkLooks(page, "account-menu")).toEqual({});
    nothingAmiss();
  }, 30_000);
});
