/**
 * Images from other sites follow the instance's image policy (docs/decisions.md, "Images from
 * other sites follow one policy"): with hosts restricted, a badge from an unlisted host is drawn
 * as a link with its description, the browser asks no other host for it, and the page is
 * checked in the four looks.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { checkLooks, visit } from "./harness";
import { api, docJson, newSpace, ownerWorld, para, type World } from "./fixtures";

let world: World;
let pageId: string;

beforeAll(async () => {
  world = await ownerWorld();
  const owner = world.owner.page;
  const space = await newSpace(owner, "IMG", "Images");
  const badge = { type: "image", attrs: { src: "https://img.shields.io/badge/build-passing-green.svg", alt: "Build passing" } };
  const page = await api(owner, "POST", "/api/pages", {
    spaceId: space.id,
    title: "Release checklist",
    contentJson: docJson(para("The build must be green before a release."), badge, para("Then tag the commit.")),
  });
  pageId = page.id;
  await api(owner, "PUT", "/api/admin/settings", { restrictImageHosts: true });
}, 60_000);
afterAll(async () => {
  await world?.close();
});

test("an image from a host the policy does not list reads as a link with its description, in the four looks", async () => {
  // Loaded once; its looks gone through in place (checkLooks).
  const v = await visit(world.cairn, { storageState: world.storage });
  try {
    await v.page.goto(`/s/IMG/p/${pageId}`);
    await v.page.getByRole("heading", { level: 1, name: "Release checklist" }).waitFor();
    const link = v.page.locator("a.image-elsewhere", { hasText: "Build passing" });
    await link.waitFor();
    expect(await link.getAttribute("href")).toBe("https://img.shields.io/badge/build-passing-green.svg");
    expect(await v.page.locator("main img[src^='https://']").count()).toBe(0);
    expect(await checkLooks(v.page, "image-elsewhere")).toEqual({});
    expect(v.foreign).toEqual([]);
    expect(v.errors).toEqual([]);
  } finally {
    await v.close();
  }
}, 60_000);
