/**
 * Avatars, space icons and About in the browser, on the built binary:
 * - a JPEG carrying an EXIF GPS position uploaded as the avatar in the account screen shows in
 *   the account menu, and the file the binary stored is a 256×256 WebP with no trace of the
 *   EXIF block (the image codecs run inside the compiled binary);
 * - a space icon uploaded in the space's settings shows in the form;
 * - About: version, the background work and packages, "Check for updates" against a feed on a closed loopback port
 *   says plainly that the server is offline; Tailscale (not installed here) says "Not set up".
 * Every screen in the four looks, with axe, loaded once and its looks gone through in place (checkLooks).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GPS_MARKER, jpegWithGps, pngPicture } from "../image-fixtures";
import { sniffImage } from "../../src/platform/image-header";
import { api, newSpace } from "./fixtures";
import { axeViolations, checkLooks, createOwner, screenshot, startCairn, visit, type RunningCairn, type Visit } from "./harness";

let cairn: RunningCairn;
let owner: Visit;

/** A loopback port nothing listens on: the release feed there is unreachable, as when offline. */
function closedPort(): number {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const port = server.port!;
  server.stop(true);
  return port;
}

/** Every stored blob of the data directory. */
function storedFiles(): Buffer[] {
  const root = join(cairn.dataDir, "files");
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name)));
}

beforeAll(async () => {
  cairn = await startCairn([], { CAIRN_RELEASE_FEED: `http://127.0.0.1:${closedPort()}/releases.atom`, CAIRN_OUTBOUND_ALLOW: "127.0.0.1" });
  owner = await visit(cairn);
  await createOwner(owner.page);
  await newSpace(owner.page, "ENG", "Engineering");
}, 120_000);
afterAll(async () => {
  await owner?.close();
  await cairn?.stop();
});

describe("avatars and icons", () => {
  test("an avatar uploaded in the account screen shows in the account menu; the binary stored it without its EXIF location", async () => {
    const { page } = owner;
    await page.goto("/settings/profile");
    await page.getByRole("heading", { name: "Picture" }).waitFor();
    const jpeg = await jpegWithGps(1200, 900);
    expect(Buffer.from(jpeg).includes(GPS_MARKER)).toBe(true);
    await page.locator("input[type=file]").setInputFiles({ name: "holiday.jpg", mimeType: "image/jpeg", buffer: Buffer.from(jpeg) });
    await page.getByText("Picture saved").waitFor();
    const menuPicture = page.getByRole("button", { name: /^Account/ }).locator("img");
    await menuPicture.waitFor();
    expect(await menuPicture.getAttribute("src")).toMatch(/^\/api\/media\/avatars\/[^?]+\?v=[0-9a-f]{16}$/);
    expect(await menuPicture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(256);

    const files = storedFiles();
    expect(files).toHaveLength(1);
    expect(sniffImage(files[0]!)).toMatchObject({ kind: "raster", format: "webp", width: 256, height: 256 });
    expect(files[0]!.includes(GPS_MARKER)).toBe(false);
    expect(files[0]!.includes("Exif")).toBe(false);

    // A colour for the initials, then the picture removed (with its confirmation).
    const variantSaved = page.waitForResponse((r) => r.url().endsWith("/api/media/avatars/me/variant"));
    await page.getByRole("radio", { name: "Colour 3" }).click();
    expect((await variantSaved).status()).toBe(200);
    await page.waitForFunction(
      () => (document.querySelector('input[name="avatar-variant"][value="3"]') as HTMLInputElement | null)?.checked === true,
    );
    await page.getByRole("button", { name: "Remove picture" }).click();
    await page.getByRole("group", { name: "Remove your picture" }).getByRole("button", { name: "Remove picture" }).click();
    await page.getByText("Picture removed; your initials show instead").waitFor();
    expect(await api(page, "GET", "/api/auth/me")).toMatchObject({ avatarUrl: null, avatarVariant: 3 });
    expect(
      await page
        .getByRole("button", { name: /^Account/ })
        .locator("img")
        .count(),
    ).toBe(0);
    // The initials in the account menu take the chosen colour (colour 3: #1d6b3a).
    expect(
      await page
        .getByRole("button", { name: /^Account/ })
        .locator(".avatar")
        .evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe("rgb(29, 107, 58)");
    expect(await axeViolations(page)).toEqual([]);
    expect(owner.errors).toEqual([]);
    expect(owner.foreign).toEqual([]);
  }, 60_000);

  test("a space icon uploaded in the space's settings shows at once", async () => {
    const { page } = owner;
    await page.goto("/s/ENG/settings");
    await page.getByRole("heading", { name: "Name and look" }).waitFor();
    await page
      .locator("input[type=file]")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from(await pngPicture(300, 200)) });
    await page.getByText("Icon saved").waitFor();
    await page.getByText("Your uploaded image").waitFor();
    const space = await api(page, "GET", "/api/spaces/ENG");
    const iconUrl: string = space.iconValue;
    expect(space.iconKind).toBe(2);
    expect(iconUrl).toMatch(/^\/api\/media\/space-icons\/ENG\?v=[0-9a-f]{16}$/);
    const shown = await page
      .locator("img.space-icon-image")
      .evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).getAttribute("src")));
    expect(shown).toContain(iconUrl);
    expect(await axeViolations(page)).toEqual([]);
  }, 30_000);
});

// About's claims, in order on the owner's one page (loaded by the first): each a test, so a
// failure names it.
describe("about", () => {
  test("version and build; the background work lists the jobs worker among its tasks", async () => {
    const { page } = owner;
    await page.goto("/admin/about");
    await page.getByRole("heading", { name: /^Cairn \d+\.\d+\.\d+/ }).waitFor();
    await page.getByText("Built", { exact: true }).waitFor();
    const about = await api(page, "GET", "/api/admin/about");
    expect(about.dependenciesFrom).toBe("build");
    expect(Date.parse(about.builtAt)).not.toBeNaN();
    // The background work: the server's scheduler lists the jobs worker among its tasks.
    const background = page.getByRole("region", { name: "Background tasks" });
    await background.getByRole("row", { name: /Run queued jobs\s*jobs/ }).waitFor();
    await background.getByRole("row", { name: /Send and retry webhook deliveries\s*webhooks.retries/ }).waitFor();
  }, 30_000);

  test("checking for updates while offline says so plainly; Tailscale is not set up", async () => {
    const { page } = owner;
    await page.getByRole("button", { name: "Check for updates" }).click();
    const status = page.locator(".about-check-result");
    await status.getByText(/Could not reach the release feed \(no connection\)/).waitFor();
    expect(await status.textContent()).toContain("This server may be offline");
    await page.getByText("Not set up").waitFor();
  }, 30_000);

  test("the packages the binary carries, found by name, with their licence texts", async () => {
    const { page } = owner;
    await page.getByPlaceholder("Find a package").fill("jsquash/webp");
    await page.getByRole("cell", { name: "@jsquash/webp" }).waitFor();
    await page.getByRole("button", { name: "Show the licence texts" }).click();
    await page
      .getByLabel("Third-party notices")
      .getByText(/Apache License/)
      .first()
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
  }, 30_000);
});

// One browser context for both screens, each loaded once and taken through the four looks in
// place; a test per screen, so a failure names it.
describe("looks", () => {
  let v: Visit;
  beforeAll(async () => {
    // The screens as they look with a picture uploaded.
    await owner.page.goto("/settings/profile");
    await owner.page
      .locator("input[type=file]")
      .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: Buffer.from(await pngPicture(400, 400)) });
    await owner.page.getByText("Picture saved").waitFor();
    v = await visit(cairn, { storageState: await owner.context.storageState() });
  }, 30_000);
  afterAll(async () => v?.close());
  /** No request left the server and the page threw nothing while this screen was shown. */
  const nothingAmiss = () => {
    expect(v.errors.splice(0)).toEqual([]);
    expect(v.foreign.splice(0)).toEqual([]);
  };

  test("the account picture, its colours in view (account-picture)", async () => {
    const { page } = v;
    await page.goto("/settings/profile");
    await page
      .getByRole("img", { name: /^Your picture/ })
      .locator("img")
      .waitFor();
    const colours = page.locator(".avatar-colours");
    expect(await checkLooks(page, "account-picture", () => colours.scrollIntoViewIfNeeded())).toEqual({});
    nothingAmiss();
  }, 30_000);

  test("About, offline, with its lower sections (admin-about, admin-about-background, admin-about-software)", async () => {
    const { page } = v;
    await page.goto("/admin/about");
    await page.getByRole("button", { name: "Check for updates" }).click();
    await page.getByText(/Could not reach the release feed/).waitFor();
    // In each look, the sections further down too; then back to the top for the look's own screenshot.
    const lowerSections = async () => {
      await page.getByRole("region", { name: "Background tasks" }).scrollIntoViewIfNeeded();
      await screenshot(page, "admin-about-background");
      await page.getByRole("heading", { name: "Third-party software" }).scrollIntoViewIfNeeded();
      await screenshot(page, "admin-about-software");
      await page.evaluate(() => window.scrollTo(0, 0));
    };
    expect(await checkLooks(page, "admin-about", lowerSections)).toEqual({});
    nothingAmiss();
  }, 40_000);
});
