/**
 * The page view in its four looks (light and dark, 375 and 1280 px) from two builds, to see
 * that work on how fast it paints left how it looks alone:
 * `bun scripts/bench/web-looks.ts --before=BINARY [--after=dist/cairn]`. Each build gets a fresh
 * instance with the same space and page; the screenshots of its view, once everything on it is
 * drawn, go to .bench/screenshots/page-view-<build>-<theme>-<width>.png, and the pairs are
 * compared pixel for pixel (decoded in the browser), with what differs between any two
 * instances masked (the owner's avatar colour follows their id, "2 seconds ago" the clock).
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { sampleDocument } from "../../src/content/sample";
import { killAll } from "./procs";
import { seedContext } from "./seed";
import { startCairn } from "./server";

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const root = join(import.meta.dir, "../..");
const builds = { before: resolve(option("before") ?? ""), after: resolve(option("after") ?? join(root, "dist/cairn")) };
if (!option("before")) throw new Error("--before=BINARY is required");
const shots = join(root, ".bench/screenshots");
mkdirSync(shots, { recursive: true });
process.on("exit", killAll);

const LOOKS = [
  { theme: "light", width: 1280 },
  { theme: "dark", width: 1280 },
  { theme: "light", width: 375 },
  { theme: "dark", width: 375 },
] as const;

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
});
const bytes: Record<string, Uint8Array> = {};
for (const [name, binary] of Object.entries(builds)) {
  const cairn = await startCairn(binary, join(root, ".bench", `web-looks-${name}.log`));
  try {
    const ctx = await seedContext(cairn.url, true);
    const space = await ctx.api("POST", "/api/spaces", { key: "LOOKS", name: "Looks" });
    for (const t of ["Another page", "Third page"])
      await ctx.api("POST", "/api/pages", { spaceId: space.id, title: t, contentJson: JSON.stringify(sampleDocument(7, 50)) });
    const page = await ctx.api("POST", "/api/pages", {
      spaceId: space.id,
      title: "Runbook",
      contentJson: JSON.stringify(sampleDocument(3, 400)),
    });
    for (const look of LOOKS) {
      const context = await browser.newContext({
        viewport: { width: look.width, height: 900 },
        colorScheme: look.theme,
        reducedMotion: "reduce",
      });
      await context.addCookies([{ name: "cairn_session", value: ctx.cookie, url: cairn.url }]);
      const tab = await context.newPage();
      await tab.goto(`${cairn.url}/s/LOOKS/p/${page.id}`);
      await tab.locator("main .prose p").first().waitFor();
      if (look.width > 900) await tab.locator("aside .tree-row").first().waitFor();
      await tab.waitForLoadState("networkidle");
      await tab.waitForTimeout(300);
      const file = join(shots, `page-view-${name}-${look.theme}-${look.width}.png`);
      bytes[`${name} ${look.theme} ${look.width}`] = await tab.screenshot({
        path: file,
        animations: "disabled",
        mask: [tab.locator(".avatar, main time")],
      });
      await context.close();
    }
  } finally {
    await cairn.stop();
  }
}
for (const look of LOOKS) {
  const [a, b] = [bytes[`before ${look.theme} ${look.width}`], bytes[`after ${look.theme} ${look.width}`]];
  const box = await differingBox(a, b);
  console.log(
    `${look.theme} ${look.width} px: ${box ? `DIFFERENT in ${box}` : "identical"} ` +
      `(.bench/screenshots/page-view-{before,after}-${look.theme}-${look.width}.png)`,
  );
}
await browser.close();
process.exit(0);

/** The box (x, y, width × height) holding every pixel that differs, or null when none does. */
async function differingBox(a: Uint8Array, b: Uint8Array): Promise<string | null> {
  const tab = await browser.newPage();
  try {
    const url = (png: Uint8Array) => `data:image/png;base64,${Buffer.from(png).toString("base64")}`;
    return await tab.evaluate(
      async ([ua, ub]) => {
        const pixels = async (src: string) => {
          const img = new Image();
          img.src = src;
          await img.decode();
          const canvas = document.createElement("canvas");
          [canvas.width, canvas.height] = [img.width, img.height];
          const g = canvas.getContext("2d")!;
          g.drawImage(img, 0, 0);
          return g.getImageData(0, 0, img.width, img.height);
        };
        const [pa, pb] = [await pixels(ua), await pixels(ub)];
        if (pa.width !== pb.width || pa.height !== pb.height) return `size ${pa.width}×${pa.height} vs ${pb.width}×${pb.height}`;
        let [x0, y0, x1, y1] = [Infinity, Infinity, -1, -1];
        for (let i = 0; i < pa.data.length; i += 4) {
          if (pa.data[i] === pb.data[i] && pa.data[i + 1] === pb.data[i + 1] && pa.data[i + 2] === pb.data[i + 2]) continue;
          const x = (i / 4) % pa.width;
          const y = Math.floor(i / 4 / pa.width);
          [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
        }
        return x1 < 0 ? null : `${x0},${y0} ${x1 - x0 + 1}×${y1 - y0 + 1}`;
      },
      [url(a), url(b)] as const,
    );
  } finally {
    await tab.close();
  }
}
