/**
 * Every space in the admin area: Bea makes a space only she administers; the owner sees it in
 * /admin/spaces (name, size, who administers it, never its content), gives himself Admin on it
 * after a confirmation, and can then open its settings. The section in the four looks, with axe.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { checkLooks, visit, type Visit } from "./harness";
import { api, invitedPerson, newPage, newSpace, ownerWorld, type World } from "./fixtures";

let world: World;
let bea: Visit;

beforeAll(async () => {
  world = await ownerWorld();
  bea = await invitedPerson(world.cairn, world.owner.page, "bea@example.com", "Bea Builder");
  const space = await newSpace(bea.page, "SECRET", "Bea's notebook");
  // Only Bea: the Everyone grant a new space gets is taken away.
  const grants = await api(bea.page, "GET", "/api/spaces/SECRET/permissions");
  for (const g of grants.filter((g: { principalType: number }) => g.principalType === 1))
    await api(bea.page, "DELETE", `/api/spaces/SECRET/permissions/${g.id}`);
  await newPage(bea.page, space.id, "Private plans", { text: "Nobody else reads this." });
}, 60_000);
afterAll(async () => {
  await bea?.close();
  await world?.close();
});

// The owner's steps, in order on his one page: each a test, so a failure names the step.
describe("every space", () => {
  const row = () => world.owner.page.getByRole("list", { name: "Spaces" }).getByRole("listitem").filter({ hasText: "Bea's notebook" });

  test("the owner sees Bea's private space and who administers it, never its content; it is a 404 to him", async () => {
    const { page } = world.owner;
    await page.goto("/admin/spaces");
    await row().getByText("administered by Bea Builder").waitFor();
    expect(await page.getByText("Nobody else reads this.").count()).toBe(0);
    // Not readable before: the space is a 404 to him.
    expect(await page.evaluate(async () => (await fetch("/api/spaces/SECRET")).status)).toBe(404);
  }, 30_000);

  test("giving himself Admin on it asks first, saying the audit log records it", async () => {
    const { page } = world.owner;
    await row().getByRole("button", { name: "Give me Admin on Bea's notebook" }).click();
    await page
      .getByRole("dialog", { name: /Give yourself Admin on Bea's notebook/ })
      .getByText(/audit log records/)
      .waitFor();
  }, 30_000);

  test("confirmed, he administers it beside Bea and its settings open", async () => {
    const { page } = world.owner;
    await page.getByRole("button", { name: "Give me Admin", exact: true }).click();
    await page.getByText("You administer Bea's notebook now").waitFor();
    await row()
      .getByText(/administered by .*Olive Owner/)
      .waitFor();
    await row().getByRole("link", { name: "Space settings: Bea's notebook" }).click();
    await page.waitForURL(/\/s\/SECRET\/settings/);
    expect(await page.evaluate(async () => (await fetch("/api/spaces/SECRET")).status)).toBe(200);
  }, 30_000);

  test("the audit log records that he took Admin", async () => {
    const audit = await api(world.owner.page, "GET", "/api/audit?targetType=space&take=20");
    expect(audit.some((e: { action: string }) => e.action === "space.access_recovered")).toBe(true);
  }, 30_000);

  test("the spaces section in the four looks", async () => {
    const v = await visit(world.cairn, { storageState: await world.owner.context.storageState() });
    try {
      await v.page.goto("/admin/spaces");
      await v.page.getByRole("list", { name: "Spaces" }).getByRole("listitem").first().waitFor();
      expect(await checkLooks(v.page, "admin-spaces")).toEqual({});
    } finally {
      await v.close();
    }
  }, 30_000);
});
