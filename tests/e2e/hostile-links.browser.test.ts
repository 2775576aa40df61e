/**
 * Links that a browser resolves on another host (`/\host`, `//host`, `\\host`, `https:host`),
 * clicked in the reading view: each opens the other host in a new tab, never a path of the
 * wiki in the wiki's own tab. The other host is answered by the test (no network).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { api, docJson, newSpace, ownerWorld, type World } from "./fixtures";

let world: World;
beforeAll(async () => (world = await ownerWorld()));
afterAll(async () => world?.close());

const HOSTILE = ["/\\evil.example/a", "//evil.example/b", "\\\\evil.example\\c", "https:evil.example/d"];

test("hostile links in the reading view open the other host in a new tab; the wiki's tab stays where it was", async () => {
  const { page, context } = world.owner;
  await context.route(/evil\.example/, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<title>elsewhere</title>elsewhere" }),
  );
  await context.routeWebSocket(/\/api\/collab\//, (ws) => ws.close());
  const space = await newSpace(page, "LNK", "Links");
  const paragraphs = HOSTILE.map((href, i) => ({
    type: "paragraph",
    content: [{ type: "text", text: `link ${i}`, marks: [{ type: "link", attrs: { href } }] }],
  }));
  const created = await api(page, "POST", "/api/pages", { spaceId: space.id, title: "Hostile links", contentJson: docJson(...paragraphs) });
  const reading = `/s/LNK/p/${created.id}`;
  await page.goto(reading);
  await page.waitForURL(/-hostile-links$/); // the reading view adds the title's slug
  await page.getByRole("link", { name: "link 0" }).waitFor();
  const here = page.url();
  for (let i = 0; i < HOSTILE.length; i++) {
    const link = page.getByRole("link", { name: `link ${i}` });
    expect(await link.getAttribute("target")).toBe("_blank");
    expect(new URL((await link.getAttribute("href"))!).host).toBe("evil.example");
    const [opened] = await Promise.all([context.waitForEvent("page"), link.click()]);
    await opened.waitForLoadState();
    expect(new URL(opened.url()).host).toBe("evil.example");
    await opened.close();
    expect(page.url()).toBe(here);
  }
}, 60_000);
