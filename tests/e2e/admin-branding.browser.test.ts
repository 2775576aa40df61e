/**
 * Branding in the browser: the owner names the wiki, picks an accent (a too-pale one is caught
 * and the suggested colour used), uploads a logo and saves; the page takes the new look at once,
 * without a reload. A visitor who is not signed in then sees the name, the logo and the accent
 * on the sign-in screen. The section and the branded sign-in screen in the four looks, with axe;
 * reset, confirmed in the page.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { api, ownerWorld, type World } from "./fixtures";
import { axeViolations, checkLooks, visit } from "./harness";

let world: World;

beforeAll(async () => {
  world = await ownerWorld();
}, 60_000);
afterAll(async () => {
  await world?.close();
});

const LOGO =
  `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40"><rect width="40" height="40" rx="8" ` +
  `fill="#1d4ed8"/><path d="M8 32 L20 8 L32 32 Z" fill="#ffffff"/><script>alert("nope")</script></svg>`;

async function openBranding(page: Page): Promise<void> {
  await page.goto("/admin/branding");
  await page.getByRole("heading", { name: "Name and logo", level: 2 }).waitFor();
}

/** The computed background of an element, as rgb(). */
const background = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;

describe("branding", () => {
  let light = "";

  test("the owner names the wiki, picks an accent (a pale one is caught), uploads a logo, and the page changes at once", async () => {
    const { page } = world.owner;
    await openBranding(page);

    await page.getByLabel("Brand name").fill("Acme Wiki");
    await page.getByRole("radio", { name: /Logo and name/ }).check();
    await page.getByRole("radio", { name: /Your own colours/ }).check();
    // A bright yellow fails in the light theme: the verdict says so and offers a colour that passes.
    const lightField = page.getByLabel("Accent in the light theme", { exact: true });
    await lightField.fill("#ffcc00");
    await page.getByText("Too little contrast for WCAG AA", { exact: false }).waitFor();
    expect(await page.getByRole("button", { name: "Save branding" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Use suggested" }).click();
    await page.getByText("Passes WCAG AA", { exact: false }).first().waitFor();
    light = (await lightField.inputValue()).toLowerCase();
    expect(light).toMatch(/^#[0-9a-f]{6}$/);
    expect(light).not.toBe("#ffcc00");
    await page.getByLabel("Accent in the dark theme", { exact: true }).fill("#93c5fd");
    await page.getByText("Unsaved changes: the preview shows them.").waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // The logo applies as soon as it is uploaded; the SVG's script is taken out, and we are told.
    await page
      .locator('input[type="file"]')
      .first()
      .setInputFiles({ name: "acme.svg", mimeType: "image/svg+xml", buffer: Buffer.from(LOGO) });
    await page.getByText("Logo updated").waitFor();
    await page.getByText("Removed from the SVG for safety: script element.").waitFor();
    await page.getByRole("img", { name: "Current logo" }).waitFor();

    await page.getByRole("button", { name: "Save branding" }).click();
    await page.getByText("Branding saved", { exact: false }).waitFor();
    await page.getByText("Everything is saved.").waitFor();
    // No reload: the header, the title and the accent follow.
    const brand = page.getByRole("link", { name: "Acme Wiki: your spaces" });
    await brand.waitFor();
    expect(await brand.locator("img").first().getAttribute("src")).toMatch(/^\/api\/branding\/logo\?v=[0-9a-f]{16}$/);
    await page.waitForFunction(() => document.title.endsWith("· Acme Wiki"));
    expect(await page.evaluate(() => document.documentElement.style.getPropertyValue("--accent-light"))).toBe(light);
    expect(await background(page, ".bf-save .btn-primary")).toBe(rgb(light));
    const stored = await api(page, "GET", "/api/admin/branding");
    expect(stored).toMatchObject({
      brandName: "Acme Wiki",
      display: "logo-and-name",
      accentPolicy: "custom",
      accentLight: light,
      accentDark: "#93c5fd",
    });
  }, 60_000);

  test("a visitor who is not signed in sees the name, the logo and the accent on the sign-in screen", async () => {
    const visitor = await visit(world.cairn);
    try {
      const { page } = visitor;
      await page.goto("/login");
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      await page.locator(".auth-brand").getByText("Acme Wiki").waitFor();
      expect(await page.locator(".auth-brand img").getAttribute("src")).toMatch(/^\/api\/branding\/logo\?v=/);
      expect(await background(page, ".auth-card .btn-primary")).toBe(rgb(light));
      expect(await page.title()).toMatch(/Acme Wiki$/);
      expect(visitor.foreign).toEqual([]);
      expect(visitor.errors).toEqual([]);
    } finally {
      await visitor.close();
    }
  }, 30_000);

  test("the section and the branded sign-in screen (centred and split) in the four looks, with axe", async () => {
    const owner = await visit(world.cairn, { storageState: world.storage });
    try {
      await openBranding(owner.page);
      await owner.page.getByRole("img", { name: "Current logo" }).waitFor();
      expect(await checkLooks(owner.page, "admin-branding")).toEqual({});
      // The accent section in the middle of the screen in each look (the heights change with the width).
      const accentInView = () =>
        owner.page.getByRole("heading", { name: "Accent colour" }).evaluate((h) => h.scrollIntoView({ block: "center" }));
      await accentInView();
      expect(await checkLooks(owner.page, "admin-branding-accent", accentInView)).toEqual({});
    } finally {
      await owner.close();
    }
    const visitor = await visit(world.cairn);
    try {
      await visitor.page.goto("/login");
      await visitor.page.getByRole("heading", { name: "Sign in" }).waitFor();
      await visitor.page.locator(".auth-brand img").first().waitFor();
      expect(await checkLooks(visitor.page, "branded-sign-in")).toEqual({});
      await api(world.owner.page, "PUT", "/api/admin/branding", { signInArrangement: "split" });
      await visitor.page.reload();
      await visitor.page.locator(".auth-aside").getByText("Acme Wiki").waitFor();
      expect(await checkLooks(visitor.page, "branded-sign-in-split")).toEqual({});
      expect(visitor.foreign).toEqual([]);
      expect(visitor.errors).toEqual([]);
    } finally {
      await visitor.close();
    }
  }, 60_000);

  test("reset asks in the page, naming what goes, then puts Cairn's own look back at once", async () => {
    const { page } = world.owner;
    await openBranding(page);
    await page.getByRole("button", { name: "Reset branding…" }).click();
    await page.getByText("This removes the brand name, the custom colours, the logo,", { exact: false }).waitFor();
    await page.getByRole("button", { name: "Keep the branding" }).click();
    expect(await api(page, "GET", "/api/admin/branding")).toMatchObject({ brandName: "Acme Wiki" });
    await page.getByRole("button", { name: "Reset branding…" }).click();
    await page.getByRole("button", { name: "Reset everything" }).click();
    await page.getByText("Branding reset to Cairn's own").waitFor();
    await page.getByRole("link", { name: "Cairn: your spaces" }).waitFor();
    expect(await page.getByLabel("Brand name").inputValue()).toBe("");
    expect(await background(page, ".bf-save .btn-primary")).toBe(rgb("#2f6f5e"));
    expect(await api(page, "GET", "/api/admin/branding")).toMatchObject({
      brandName: null,
      logo: null,
      accentPolicy: "default",
      signInArrangement: "centered",
    });
  }, 30_000);
});
