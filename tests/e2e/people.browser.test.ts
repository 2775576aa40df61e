/**
 * People and notifications in the browser: the owner invites Bea by link from the People screen;
 * Bea registers with it and, given View on one space only, sees nothing else (spaces, tree,
 * search, notifications, links to hidden pages). Bea watches a page, the owner edits it: Bea's
 * bell counts it, the list links to the page, and it is marked read. Groups are made, renamed
 * and filled. Every screen in the four looks, with axe (checkLooks).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { axeViolations, checkLooks, createOwner, PASSWORD, startCairn, visit, type RunningCairn, type Visit } from "./harness";
import { api, docJson, newPage, newSpace, para } from "./fixtures";

let cairn: RunningCairn;
let owner: Visit;
let bea: Visit;
let eng: { id: string; key: string };
let ops: { id: string; key: string };
let roadmap: { id: string };
let payroll: { id: string };

/** Takes the Everyone group's grant from a space: only those named in it see it then. */
async function makePrivate(page: Page, key: string): Promise<void> {
  const groups = (await api(page, "GET", "/api/groups")) as Array<{ id: string; name: string; builtIn: boolean }>;
  const everyone = groups.find((g) => g.builtIn && g.name === "Everyone")!;
  const grants = (await api(page, "GET", `/api/spaces/${key}/permissions`)) as Array<{
    id: string;
    principalType: number;
    principalId: string;
  }>;
  const grant = grants.find((g) => g.principalType === 1 && g.principalId === everyone.id);
  if (grant) await api(page, "DELETE", `/api/spaces/${key}/permissions/${grant.id}`);
}

async function axeClean(page: Page): Promise<void> {
  expect(await axeViolations(page)).toEqual([]);
}

beforeAll(async () => {
  cairn = await startCairn();
  owner = await visit(cairn);
  await createOwner(owner.page);
  await api(owner.page, "PUT", "/api/admin/settings", { loginRateLimitPerMinute: 1000 });
  eng = await newSpace(owner.page, "ENG", "Engineering");
  ops = await newSpace(owner.page, "OPS", "Operations");
  roadmap = await newPage(owner.page, eng.id, "Roadmap", { text: "What we build next." });
  payroll = await newPage(owner.page, ops.id, "Payroll secrets", { text: "Salaries of everyone." });
  await makePrivate(owner.page, "ENG");
  await makePrivate(owner.page, "OPS");
}, 60_000);
afterAll(async () => {
  await bea?.close();
  await owner?.close();
  await cairn?.stop();
});

describe("people", () => {
  test("the owner invites Bea by link; Bea registers with it", async () => {
    const { page } = owner;
    await page.goto("/");
    await page.getByRole("button", { name: /^Account/ }).click();
    await page.getByRole("menuitem", { name: "Administration" }).click();
    await page.getByRole("heading", { name: "Administration", level: 1 }).waitFor();
    await page.getByRole("navigation", { name: "Administration sections" }).getByRole("link", { name: "Invites" }).click();
    await page.getByRole("heading", { name: "No invites are waiting" }).or(page.getByText("No invites are waiting.")).first().waitFor();
    await page.getByLabel("E-mail").fill("bea@example.com");
    await page.getByRole("button", { name: "Make invite link" }).click();
    const link = (await page.getByLabel("Invite link").textContent())!;
    expect(link).toContain("/register?invite=");
    await page.getByRole("list", { name: "Pending invites" }).getByText("bea@example.com").waitFor();

    bea = await visit(cairn);
    await bea.page.goto(link);
    await bea.page.getByLabel("Your name").fill("Bea Builder");
    // The invite is for one address: the form shows it, filled in and kept.
    expect(await bea.page.getByLabel("E-mail").inputValue()).toBe("bea@example.com");
    await bea.page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await bea.page.getByRole("button", { name: "Create account" }).click();
    await bea.page.getByRole("button", { name: /^Account: Bea Builder/ }).waitFor();

    // The invite was used: no longer pending.
    await page.reload();
    await page.getByText("No invites are waiting.").waitFor();
  }, 40_000);

  test("with View on one space only, Bea sees nothing else", async () => {
    const users = (await api(owner.page, "GET", "/api/users")) as Array<{ id: string; email: string }>;
    const beaId = users.find((u) => u.email === "bea@example.com")!.id;
    await api(owner.page, "POST", "/api/spaces/ENG/permissions", { principalType: 0, principalId: beaId, operation: 0 });

    const { page } = bea;
    await page.goto("/");
    await page.getByRole("link", { name: "Engineering" }).first().waitFor();
    expect(await page.getByRole("link", { name: "Operations" }).count()).toBe(0);
    expect(((await api(page, "GET", "/api/spaces")) as Array<{ key: string }>).map((s) => s.key)).toEqual(["ENG"]);
    await page.goto("/s/ENG");
    await page.getByRole("treeitem", { name: "Roadmap" }).waitFor();
    expect(await page.getByRole("treeitem", { name: "Payroll secrets" }).count()).toBe(0);
    // Search finds nothing of the hidden space.
    await page.goto("/search?q=salaries");
    await page
      .getByRole("heading", { name: /No pages match|Nothing found|No results/ })
      .or(page.getByText(/No pages match|Nothing matches|No results/))
      .first()
      .waitFor();
    expect(await page.getByText("Payroll secrets").count()).toBe(0);
    // A link to the hidden page is a 404, and so is the hidden space.
    await page.goto(`/s/OPS/p/${payroll.id}`);
    await page.getByRole("heading", { name: /does not exist|not found/i }).waitFor();
    expect(await page.getByText("Salaries of everyone.").count()).toBe(0);
    expect(await page.evaluate(async (id) => (await fetch(`/api/pages/${id}`)).status, payroll.id)).toBe(404);
    // Without the rights: no People or Audit in the menu, and their screens say so.
    await page.goto("/");
    await page.getByRole("button", { name: /^Account/ }).click();
    await page.getByRole("menuitem", { name: "Your account" }).waitFor();
    expect(await page.getByRole("menuitem", { name: "Administration" }).count()).toBe(0);
    await page.keyboard.press("Escape");
    // Old addresses lead to the admin area, which says it is not for them.
    for (const old of ["/people", "/audit", "/admin/audit"]) {
      await page.goto(old);
      await page.getByRole("heading", { name: "Only administrators open the admin area" }).waitFor();
    }
  }, 40_000);

  test("Bea watches a page; the owner's edit reaches her bell and list, and is marked read", async () => {
    const { page } = bea;
    await page.goto(`/s/ENG/p/${roadmap.id}`);
    await page.getByRole("heading", { name: "Roadmap", level: 1 }).waitFor();
    await page
      .getByRole("button", { name: "Notifications" })
      .or(page.getByRole("link", { name: "Notifications" }))
      .first()
      .waitFor();
    await page.getByRole("button", { name: "Watch", exact: true }).click();
    await page.getByRole("button", { name: "Watching", exact: true }).waitFor();
    expect((await api(page, "GET", `/api/pages/${roadmap.id}/watch`)).watching).toBe(true);

    // The owner edits the page (and creates one in the hidden space, which Bea must not hear of).
    const current = await api(owner.page, "GET", `/api/pages/${roadmap.id}`);
    await api(owner.page, "PUT", `/api/pages/${roadmap.id}`, {
      title: "Roadmap",
      contentJson: docJson(para("What we build next, and when.")),
      baseVersion: current.currentVersionNumber,
    });
    await newPage(owner.page, ops.id, "Budget");

    // The bell follows while the app stays open (on focus here, rather than waiting 30 s).
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await page.getByRole("link", { name: "Notifications, 1 unread" }).waitFor();
    await page.getByRole("link", { name: "Notifications, 1 unread" }).click();
    await page.getByRole("heading", { name: "Notifications", level: 1 }).waitFor();
    const list = page.getByRole("list", { name: "Notifications" });
    await list.getByText("Olive Owner edited").waitFor();
    expect(await list.locator("li").count()).toBe(1);
    expect(await page.getByText("Budget").count()).toBe(0);
    expect(await checkLooks(page, "notifications-list")).toEqual({});
    await list.getByRole("link", { name: "Roadmap" }).click();
    await page.waitForURL(new RegExp(`/s/ENG/p/${roadmap.id}`));
    await page.getByRole("heading", { name: "Roadmap", level: 1 }).waitFor();
    await page.getByRole("link", { name: "Notifications", exact: true }).waitFor();
    const after = await api(page, "GET", "/api/notifications");
    expect(after.length).toBe(1);
    expect(after[0].readAt).not.toBeNull();
    expect(after.every((n: { spaceId: string | null }) => n.spaceId !== ops.id)).toBe(true);

    // Stop watching: the toggle goes back.
    await page.getByRole("button", { name: "Watching", exact: true }).click();
    await page.getByRole("button", { name: "Watch", exact: true }).waitFor();
    expect((await api(page, "GET", `/api/pages/${roadmap.id}/watch`)).watching).toBe(false);
  }, 40_000);

  test("mark all read, and watching a space from its home", async () => {
    const { page } = owner;
    await api(owner.page, "POST", "/api/spaces/OPS/watch");
    await newPage(bea.page, eng.id, "Not allowed").catch(() => {});
    // Bea comments, so the owner (watching the page he created) hears of it.
    await api(bea.page, "POST", `/api/pages/${roadmap.id}/comments`, { body: "Can we add search?" }).catch(() => {});
    await page.goto("/notifications");
    await page.getByRole("heading", { name: "Notifications", level: 1 }).waitFor();
    const unread = (await api(page, "GET", "/api/notifications/unread-count")).count as number;
    if (unread > 0) {
      await page.getByRole("button", { name: "Mark all read" }).click();
      await page.getByText("All notifications marked read").waitFor();
      expect((await api(page, "GET", "/api/notifications/unread-count")).count).toBe(0);
    } else {
      await page.getByText("Nothing to tell you yet").waitFor();
    }
    await page.goto("/s/ENG");
    await page.getByRole("button", { name: "Watch", exact: true }).click();
    await page.getByRole("button", { name: "Watching", exact: true }).waitFor();
    await page.getByRole("button", { name: "Watching space", pressed: true }).waitFor(); // the sidebar's toggle follows
    expect((await api(page, "GET", "/api/spaces/ENG/watch")).watching).toBe(true);
  }, 30_000);

  test("groups: create, rename, add and remove a member, delete", async () => {
    const { page } = owner;
    await page.goto("/admin/groups");
    await page.getByRole("heading", { name: "Groups", level: 2 }).waitFor();
    await page.getByLabel("Group name").fill("Support team");
    await page.getByRole("button", { name: "Create group" }).click();
    await page.getByText("Group “Support team” created").waitFor();
    await page.getByLabel("Add a member").selectOption({ label: "Bea Builder (bea@example.com)" });
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await page.getByRole("list", { name: "Members of Support team" }).getByText("Bea Builder").waitFor();
    await axeClean(page);
    await page.getByLabel("Name", { exact: true }).fill("Customer support");
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByText("Renamed to “Customer support”").waitFor();
    const groups = (await api(page, "GET", "/api/groups")) as Array<{ name: string; memberCount: number }>;
    expect(groups.find((g) => g.name === "Customer support")?.memberCount).toBe(1);
    await page.getByRole("button", { name: "Remove Bea Builder from Customer support" }).click();
    await page.getByText("No members yet.").waitFor();
    await page.getByRole("button", { name: "Delete group" }).click();
    await page.getByRole("dialog", { name: "Delete “Customer support”?" }).getByRole("button", { name: "Delete group" }).click();
    await page.getByText("Group “Customer support” deleted").waitFor();
    expect(((await api(page, "GET", "/api/groups")) as Array<{ name: string }>).some((g) => g.name === "Customer support")).toBe(false);
  }, 30_000);
});

// The owner's browser for every screen below, each screen loaded once and taken through the four
// looks in place; a test per screen, so a failure names it.
describe("the people screens, each in the four looks", () => {
  beforeAll(async () => {
    const { page } = owner;
    await page.goto("/api/health");
    await api(page, "POST", "/api/admin/invites", { email: "someone@example.com", sendEmail: false });
    await api(page, "POST", "/api/groups", { name: "Team" });
  }, 30_000);
  /** No request left the server and the page threw nothing (since the last check). */
  const nothingAmiss = () => {
    expect(owner.foreign.splice(0)).toEqual([]);
    expect(owner.errors.splice(0)).toEqual([]);
  };

  for (const [screen, path, name, ready] of [
    ["the pending invites", "/admin/invites", "people-invites", "main ul[aria-label='Pending invites'] li"],
    ["the groups", "/admin/groups", "people-groups", "main ul[aria-label='Groups'] li"],
    ["the notifications", "/notifications", "notifications", "main .notif-list li, main .empty-state"],
  ] as const) {
    test(`${screen} (${name})`, async () => {
      const { page } = owner;
      await page.goto(path);
      await page.locator(ready).first().waitFor();
      expect(await checkLooks(page, name)).toEqual({});
      nothingAmiss();
    }, 30_000);
  }

  test("an invite link just made (people-invite-link)", async () => {
    const { page } = owner;
    await page.goto("/admin/invites");
    await page.getByLabel("E-mail").fill("shown@example.com");
    await page.getByRole("button", { name: "Make invite link" }).click();
    await page.getByLabel("Invite link").waitFor();
    expect(await checkLooks(page, "people-invite-link")).toEqual({});
    nothingAmiss();
  }, 30_000);

  test("a page with its Watch button (page-watch)", async () => {
    const { page } = owner;
    await page.goto(`/s/ENG/p/${roadmap.id}`);
    await page.getByRole("heading", { name: "Roadmap", level: 1 }).waitFor();
    await page.getByRole("button", { name: /^Watch(ing)?$/ }).waitFor();
    expect(await checkLooks(page, "page-watch")).toEqual({});
    nothingAmiss();
  }, 30_000);
});
