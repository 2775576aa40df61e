/**
 * The dashboard and everyone's API tokens in the browser: a page Bea reads is counted and shows
 * on the owner's dashboard (the dashboard adds the counts kept in memory before it answers, so
 * no timer is waited for); the owner revokes Bea's token, naming it and her in the confirmation,
 * and Bea's script is refused at its next request. Both sections in the four looks, with axe, each
 * loaded once and its looks gone through in place (checkLooks).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { checkLooks, screenshot, visit, type Visit } from "./harness";
import { api, invitedPerson, newPage, newSpace, ownerWorld, type World } from "./fixtures";

let world: World;
let bea: Visit;
let beaToken: string;
let page: { id: string };

beforeAll(async () => {
  world = await ownerWorld();
  bea = await invitedPerson(world.cairn, world.owner.page, "bea@example.com", "Bea Builder");
  const space = await newSpace(world.owner.page, "TEAM", "Team handbook");
  page = await newPage(world.owner.page, space.id, "Onboarding checklist", { text: "Day one: say hello." });
  beaToken = (await api(bea.page, "POST", "/api/api-tokens", { name: "Bea's backup script" })).token;
}, 60_000);
afterAll(async () => {
  await bea?.close();
  await world?.close();
});

const withToken = (token: string) => fetch(`${world.cairn.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });

async function openDashboard(p: Page): Promise<void> {
  await p.goto("/admin/dashboard");
  await p.getByRole("heading", { name: "Page views", level: 2 }).waitFor();
}

async function openTokens(p: Page): Promise<void> {
  await p.goto("/admin/tokens");
  await p.getByRole("list", { name: "API tokens" }).waitFor();
}

// Each screen a test of its own (the steps in order on the owner's one page), so a failure names it.
describe("the dashboard", () => {
  test("a new instance teaches: the empty dashboard, in the four looks (admin-dashboard-empty)", async () => {
    const { page: owner } = world.owner;
    await openDashboard(owner);
    await owner.getByText(/No page has been read in the last 30 days yet/).waitFor();
    await owner.getByText(/When people read pages, the most read appear here/).waitFor();
    expect(await checkLooks(owner, "admin-dashboard-empty")).toEqual({});
  }, 30_000);

  test("a page Bea reads shows as a view and among the most read; the range switch keeps the figures in place", async () => {
    const { page: owner } = world.owner;
    await bea.page.goto(`/s/TEAM/p/${page.id}`);
    await bea.page.getByRole("heading", { name: "Onboarding checklist" }).first().waitFor();

    await openDashboard(owner);
    const chart = owner.getByRole("img", { name: /Page views, last 30 days: 1 view in 30 days/ });
    await chart.waitFor();
    const top = owner.getByRole("region", { name: "Most read pages" });
    await top.getByRole("link", { name: "Onboarding checklist" }).waitFor();
    await top.getByText("1 view").waitFor();
    await owner.getByRole("region", { name: "Most active editors" }).getByText("Olive Owner").waitFor();
    // The range switch asks again and keeps the figures in place meanwhile.
    await owner.getByRole("button", { name: "7 days" }).click();
    await owner.getByRole("img", { name: /Page views, last 7 days: 1 view in 7 days/ }).waitFor();
    expect(await owner.getByRole("button", { name: "7 days" }).getAttribute("aria-pressed")).toBe("true");
  }, 30_000);
});

describe("everyone's API tokens", () => {
  const row = () => world.owner.page.getByRole("listitem").filter({ hasText: "Bea's backup script" });

  test("the owner sees Bea's token and its use: the activity dialog, in the four looks (admin-tokens-activity)", async () => {
    expect((await withToken(beaToken)).status).toBe(200);
    const { page: owner } = world.owner;
    await openTokens(owner);
    await row().getByText("bea@example.com").waitFor();
    await row().getByRole("button", { name: "Activity of Bea's backup script (Bea Builder)" }).click();
    const activity = owner.getByRole("dialog", { name: "Activity of “Bea's backup script”" });
    await activity.getByText("Requests in 30 days").waitFor();
    expect(await activity.locator("dd").first().textContent()).toBe("1");
    await activity.getByRole("img", { name: /Requests with Bea's backup script/ }).waitFor();
    expect(await checkLooks(owner, "admin-tokens-activity")).toEqual({});
    await owner.keyboard.press("Escape");
  }, 30_000);

  test("revoking it names it and her (admin-tokens-confirm), and her script is refused at its next request", async () => {
    const { page: owner } = world.owner;
    await row().getByRole("button", { name: "Revoke Bea's backup script (Bea Builder)" }).click();
    const confirm = owner.getByRole("dialog", { name: "Revoke “Bea's backup script”?" });
    await confirm.getByText(/Bea Builder's token \(cct_/).waitFor();
    expect(await checkLooks(owner, "admin-tokens-confirm")).toEqual({});
    await confirm.getByRole("button", { name: "Revoke token" }).click();
    await owner.getByText('"Bea\'s backup script" is revoked').waitFor();
    const refused = await withToken(beaToken);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { code: string }).code).toBe("invalid_token");
    // Gone from the active list; there with its state once the revoked are shown.
    await owner.getByRole("button", { name: "Revoke Bea's backup script (Bea Builder)" }).waitFor({ state: "detached" });
    await owner.getByLabel("Show revoked and expired").check();
    await owner
      .getByRole("list", { name: "API tokens" })
      .getByRole("listitem")
      .filter({ hasText: "Bea's backup script" })
      .getByText("Revoked", { exact: true })
      .waitFor();
  }, 30_000);
});

// One browser context for both sections, each loaded once and taken through the four looks in
// place; a test per section, so a failure names it.
describe("the four looks", () => {
  let v: Visit;
  beforeAll(async () => {
    // Something to show: a token in use, a second page read.
    const token = (await api(world.owner.page, "POST", "/api/api-tokens", { name: "Deploy bot", readOnly: true })).token as string;
    for (let i = 0; i < 3; i++) await withToken(token);
    const space = await api(world.owner.page, "GET", "/api/spaces/TEAM");
    const second = await newPage(world.owner.page, space.id, "Where to find things");
    await bea.page.goto(`/s/TEAM/p/${second.id}`);
    await bea.page.getByRole("heading", { name: "Where to find things" }).first().waitFor();
    v = await visit(world.cairn, { storageState: await world.owner.context.storageState() });
  }, 30_000);
  afterAll(async () => v?.close());
  /** No request left the server and the page threw nothing while this screen was shown. */
  const nothingAmiss = () => {
    expect(v.errors.splice(0)).toEqual([]);
    expect(v.foreign.splice(0)).toEqual([]);
  };

  test("the dashboard with views, and its lists further down (admin-dashboard, admin-dashboard-lists)", async () => {
    const { page } = v;
    await openDashboard(page);
    const mostRead = page.getByRole("region", { name: "Most read pages" });
    await mostRead.getByRole("link").first().waitFor();
    // In each look, the lists further down too; then back to the top for the look's own screenshot.
    const lists = async () => {
      await mostRead.scrollIntoViewIfNeeded();
      await screenshot(page, "admin-dashboard-lists");
      await page.evaluate(() => window.scrollTo(0, 0));
    };
    expect(await checkLooks(page, "admin-dashboard", lists)).toEqual({});
    nothingAmiss();
  }, 30_000);

  test("everyone's tokens, one in use (admin-tokens)", async () => {
    await openTokens(v.page);
    expect(await checkLooks(v.page, "admin-tokens")).toEqual({});
    nothingAmiss();
  }, 30_000);
});
