/**
 * Export and import in the browser, as a person does it: a page downloaded as Markdown from its
 * ⋯ menu (formats switched off are not offered); the space's wiki pack downloaded from its
 * settings over a slow connection, with the server's progress shown while it streams; that pack
 * imported from the home screen (its key already taken: said next to the field; then under a
 * new key), the upload's and the server's progress shown, the summary of what came in, and the
 * new space opened with its pages. Each screen in the four looks with axe (checkLooks).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { axeViolations, checkLooks, createOwner, startCairn, visit, type RunningCairn, type Visit } from "./harness";
import { api, invitedPerson, newPage, newSpace } from "./fixtures";
import { zipBytes } from "../../src/platform/zip/write";
import { pngPicture } from "../image-fixtures";

let cairn: RunningCairn;
let v: Visit;
let welcome: { id: string };
let packPath = "";
let PNG_BYTES: Uint8Array;
const progressSeen: Array<{ phase: string; percent: number; done: boolean }> = [];
// Big enough (random, so incompressible) that a throttled download takes seconds, not a blink.
const ATTACHMENT_MB = 12;

beforeAll(async () => {
  PNG_BYTES = await pngPicture(96, 96);
  cairn = await startCairn();
  v = await visit(cairn);
  await createOwner(v.page);
  await api(v.page, "PUT", "/api/admin/settings", { loginRateLimitPerMinute: 1000 });
  const space = await newSpace(v.page, "DOCS", "Documentation");
  welcome = await newPage(v.page, space.id, "Welcome", { text: "Hello from the export test." });
  await newPage(v.page, space.id, "Setup guide", { parentPageId: welcome.id, text: "Install it, then run it." });
  await uploadRandom(v.page, welcome.id, "dataset.bin", ATTACHMENT_MB * 1024 * 1024);
  v.page.on("response", async (r) => {
    if (r.url().includes("/api/export-progress/") && r.status() === 200) progressSeen.push(await r.json().catch(() => null));
  });
}, 60_000);
afterAll(async () => {
  await v?.close();
  await cairn?.stop();
});

/** An attachment of random bytes, made and uploaded inside the page (nothing large crosses the protocol). */
async function uploadRandom(page: Page, pageId: string, name: string, size: number) {
  const status = await page.evaluate(
    async ({ pageId, name, size }) => {
      const bytes = new Uint8Array(size);
      for (let at = 0; at < size; at += 65536) crypto.getRandomValues(bytes.subarray(at, Math.min(size, at + 65536)));
      const form = new FormData();
      form.append("file", new File([bytes], name, { type: "application/octet-stream" }));
      const res = await fetch(`/api/pages/${pageId}/attachments`, { method: "POST", body: form, headers: { "x-requested-with": "Cairn" } });
      return res.status;
    },
    { pageId, name, size },
  );
  if (status !== 201) throw new Error(`upload: ${status}`);
}

async function throttle(page: Page, kbPerSecond: { down?: number; up?: number }) {
  const cdp = await page.context().newCDPSession(page);
  const rate = (kb?: number) => (kb ? kb * 1024 : -1);
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: rate(kbPerSecond.down),
    uploadThroughput: rate(kbPerSecond.up),
  });
  return () => cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
}

describe("export and import", () => {
  test("a page downloads as Markdown from its menu; a format switched off is not offered", async () => {
    const { page } = v;
    await page.goto(`/s/DOCS/p/${welcome.id}`);
    await page.getByRole("heading", { name: "Welcome", level: 1 }).waitFor();
    await page.getByRole("button", { name: "More actions" }).click();
    const items = page.getByRole("menuitem", { name: /^Export as/ });
    await page.getByRole("menuitem", { name: "Export as Markdown" }).waitFor();
    expect(await items.allTextContents()).toEqual(["Export as Markdown", "Export as HTML", "Export as PDF"]);
    expect(await axeViolations(page)).toEqual([]);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("menuitem", { name: "Export as Markdown" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("Welcome.md");
    const markdown = readFileSync((await download.path())!, "utf8");
    expect(markdown).toContain("# Welcome");
    expect(markdown).toContain("Hello from the export test.");
    await page.getByText("Markdown file downloaded").waitFor();

    await api(page, "PUT", "/api/spaces/DOCS/exports", { pdf: false });
    await page.reload();
    await page.getByRole("button", { name: "More actions" }).click();
    await page.getByRole("menuitem", { name: "Export as Markdown" }).waitFor();
    expect(await items.allTextContents()).toEqual(["Export as Markdown", "Export as HTML"]);
    await page.keyboard.press("Escape");
    await api(page, "PUT", "/api/spaces/DOCS/exports", { pdf: true });
    expect(v.errors).toEqual([]);
  }, 60_000);

  test("without Chromium on the server, Export as PDF says so in plain words and saves nothing", async () => {
    const bare = await startCairn([], { CAIRN_CHROMIUM: "/nonexistent/chromium" });
    const b = await visit(bare);
    try {
      await createOwner(b.page);
      const space = await newSpace(b.page, "NOPDF", "No PDF here");
      const p = await newPage(b.page, space.id, "Printable");
      await b.page.goto(`/s/NOPDF/p/${p.id}`);
      await b.page.getByRole("button", { name: "More actions" }).click();
      let downloads = 0;
      b.page.on("download", () => downloads++);
      await b.page.getByRole("menuitem", { name: "Export as PDF" }).click();
      await b.page
        .getByText(/^The PDF file was not made\. PDF files are printed by Chromium on the server, and this server has none installed\./)
        .waitFor();
      expect(downloads).toBe(0);
      expect(b.errors).toEqual([]);
    } finally {
      await b.close();
      await bare.stop();
    }
  }, 60_000);

  test("the wiki pack downloads from space settings, its progress shown while it streams", async () => {
    const { page } = v;
    await page.goto("/s/DOCS/settings/general");
    await page.getByRole("link", { name: "Export", exact: true }).first().click();
    await page.getByRole("heading", { name: "Wiki pack" }).waitFor();
    // A private space: the static site offers only what the exporter can see.
    expect(await page.getByRole("radio", { name: /What anyone may see/ }).isDisabled()).toBe(true);
    expect(await page.getByRole("radio", { name: /What I can see/ }).isChecked()).toBe(true);

    const restore = await throttle(page, { down: 2048 });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download the wiki pack" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("DOCS-pack.zip");
    await page.getByRole("progressbar", { name: "Building the wiki pack" }).waitFor();
    await page
      .getByRole("status")
      .filter({ hasText: /Building the wiki pack: .* \(\d+%\)/ })
      .waitFor();
    expect(await checkLooks(page, "export-import-pack-running")).toEqual({});
    // Saved under its own name, as a browser does (the file chooser later suggests the key from it).
    packPath = join(mkdtempSync(join(tmpdir(), "cairn-pack-")), download.suggestedFilename());
    await download.saveAs(packPath);
    await restore();
    await page.getByText("The wiki pack is ready: your browser has saved it in its downloads.").waitFor({ timeout: 20_000 });
    // The server's own progress was read while the zip streamed, and ended done.
    expect(progressSeen.some((p) => !p.done)).toBe(true);
    expect(progressSeen.at(-1)).toMatchObject({ done: true, percent: 100 });
    const pack = readFileSync(packPath);
    expect(pack.length).toBeGreaterThan(ATTACHMENT_MB * 1024 * 1024);
    expect(pack.subarray(0, 4).toString("latin1")).toBe("PK\u0003\u0004");
    expect(v.errors).toEqual([]);
  }, 60_000);

  test("the static site downloads too; an export switched off meanwhile is refused in " +
    "words; one switched off is explained with the way to switch it on", async () => {
    const { page } = v;
    await page.goto("/s/DOCS/settings/export");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download the static site" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("DOCS-site.zip");
    expect(
      readFileSync((await download.path())!)
        .subarray(0, 2)
        .toString("latin1"),
    ).toBe("PK");
    await page.getByText("The static site is ready: your browser has saved it in its downloads.").waitFor({ timeout: 20_000 });

    // Switched off by someone else while this screen was open: the refusal comes back in words.
    await api(page, "PUT", "/api/spaces/DOCS/exports", { site: false });
    await page.getByRole("button", { name: "Dismiss" }).click();
    await page.getByRole("button", { name: "Download the static site" }).click();
    await page
      .getByRole("alert")
      .filter({
        hasText:
          "The static site was not made. This export is switched off for the space. Switch it on under General › Exports, then try again.",
      })
      .waitFor({ timeout: 15_000 });
    await page.reload();
    await page.getByText("The static site export is switched off for this space.").waitFor();
    expect(await page.getByRole("button", { name: "Download the static site" }).count()).toBe(0);
    await page.getByRole("link", { name: "Switch it on under General › Exports" }).click();
    await page.getByRole("switch", { name: /^Static site/ }).waitFor();
    await api(page, "PUT", "/api/spaces/DOCS/exports", { site: true });
    expect(v.errors).toEqual([]);
  }, 60_000);

  test("the pack imports from the home screen under a new key, with progress and a summary; the new space opens", async () => {
    const { page } = v;
    await page.goto("/");
    await page.getByRole("heading", { name: "Spaces" }).waitFor();
    await page.getByRole("button", { name: "Import" }).click();
    const dialog = page.getByRole("dialog", { name: "Import a space" });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // Not a zip at all: refused, said next to the file, nothing made.
    await dialog
      .getByLabel(/^File/)
      .setInputFiles({ name: "notes.zip", mimeType: "application/zip", buffer: Buffer.from("just some text, not an archive") });
    expect(await dialog.getByLabel("Key").inputValue()).toBe("NOTES");
    await dialog.getByRole("button", { name: "Import" }).click();
    await dialog
      .getByRole("alert")
      .filter({ hasText: /^This file cannot be imported: / })
      .waitFor();
    expect(await dialog.getByLabel(/^File/).getAttribute("aria-invalid")).toBe("true");
    expect(await checkLooks(page, "export-import-refused")).toEqual({});
    expect((await api(page, "GET", "/api/spaces")).map((x: { key: string }) => x.key)).toEqual(["DOCS"]);
    await dialog.getByLabel(/^File/).setInputFiles(packPath);
    // The pack's own name and key are proposed; its key, DOCS, is taken here: the nearest free one instead, and why.
    await dialog.getByText("DOCS is used by another space: DOCS2 is free.").waitFor();
    expect(await dialog.getByLabel("Key").inputValue()).toBe("DOCS2");
    expect(await dialog.getByLabel("Name").inputValue()).toBe("Documentation");
    // A taken key typed anyway is refused next to the field.
    await dialog.getByLabel("Key").fill("docs");
    await dialog.getByRole("button", { name: "Import" }).click();
    await dialog
      .getByRole("alert")
      .filter({ hasText: "Another space already has this key. Choose another one." })
      .waitFor({ timeout: 20_000 });
    expect(await dialog.getByLabel("Key").getAttribute("aria-invalid")).toBe("true");
    expect(await checkLooks(page, "export-import-key-taken")).toEqual({});

    await dialog.getByLabel("Key").fill("copy");
    expect(await dialog.getByLabel("Key").inputValue()).toBe("COPY");
    const restore = await throttle(page, { up: 4096 });
    // An upload under way survives Escape; "Cancel upload" stops it, and nothing is made.
    await dialog.getByRole("button", { name: "Import" }).click();
    await dialog.getByRole("progressbar", { name: "Uploading the file" }).waitFor();
    await page.keyboard.press("Escape");
    await dialog.getByRole("button", { name: "Cancel upload" }).click();
    await dialog.getByRole("alert").filter({ hasText: "The upload was cancelled; nothing was imported." }).waitFor();
    expect((await api(page, "GET", "/api/spaces")).map((x: { key: string }) => x.key)).toEqual(["DOCS"]);

    await dialog.getByRole("button", { name: "Import" }).click();
    await dialog.getByRole("progressbar", { name: "Uploading the file" }).waitFor();
    expect(await checkLooks(page, "export-import-uploading")).toEqual({});
    const summary = page.getByRole("dialog", { name: "“Documentation” is imported" });
    await summary.waitFor({ timeout: 30_000 });
    await restore();
    const counts = summary.getByRole("list", { name: "What came in" });
    await counts.waitFor();
    expect(await counts.locator("li").allInnerTexts()).toContain("2\npages");
    expect(await counts.locator("li").allInnerTexts()).toContain("1\nattachment");
    await summary.getByText(/as the private space COPY/).waitFor();
    expect(await checkLooks(page, "export-import-summary")).toEqual({});

    await summary.getByRole("button", { name: "Open Documentation" }).click();
    await page.waitForURL(/\/s\/COPY/);
    await page
      .getByRole("treeitem", { name: /Welcome/ })
      .first()
      .waitFor();
    const imported = await api(page, "GET", "/api/spaces/COPY");
    expect(imported.name).toBe("Documentation");
    expect(imported.isPublic).toBe(false);
    expect(v.errors).toEqual([]);
    expect(v.foreign).toEqual([]);
  }, 90_000);

  test("someone who does not administer the space finds Export in its sidebar and downloads the wiki pack", async () => {
    const bea = await invitedPerson(cairn, v.page);
    try {
      const { page } = bea;
      await page.goto("/s/DOCS");
      expect(await page.getByRole("link", { name: "Settings", exact: true }).count()).toBe(0);
      await page.getByRole("link", { name: "Export", exact: true }).click();
      await page.getByRole("heading", { name: "Export Documentation", level: 1 }).waitFor();
      // The switches are for administrators: no link to them here.
      expect(await page.getByRole("link", { name: /General › Exports/ }).count()).toBe(0);
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Download the wiki pack" }).click(),
      ]);
      expect(download.suggestedFilename()).toBe("DOCS-pack.zip");
      expect(
        readFileSync((await download.path())!)
          .subarray(0, 2)
          .toString("latin1"),
      ).toBe("PK");
      await page.getByText("The wiki pack is ready: your browser has saved it in its downloads.").waitFor({ timeout: 20_000 });
      expect(bea.errors).toEqual([]);
      expect(bea.foreign).toEqual([]);

      // The reader's export screen and a page's menu with its export entries, in the four looks.
      await page.goto("/s/DOCS/export");
      await page.getByRole("heading", { name: "Export Documentation", level: 1 }).waitFor();
      expect(await checkLooks(page, "export-import-reader")).toEqual({});
      await page.goto(`/s/DOCS/p/${welcome.id}`);
      await page.getByRole("heading", { name: "Welcome", level: 1 }).waitFor();
      await page.getByRole("button", { name: "More actions" }).click();
      await page.getByRole("menuitem", { name: "Export as PDF" }).waitFor();
      expect(await checkLooks(page, "export-import-page-menu")).toEqual({});
      expect(bea.errors).toEqual([]);
      expect(bea.foreign).toEqual([]);
    } finally {
      await bea.close();
    }
  }, 90_000);

  test("a zip of a repository's docs: its folder's name proposed, a short report with " +
    "its notes folded, pages that say where they came from", async () => {
    const zip = await zipBytes(async (z) => {
      await z.add(
        "handbook/README.md",
        [
          '<p align="center"><img src="images/logo.png" width="96" alt="Handbook logo"></p>',
          "# Team handbook",
          "[![build](https://img.shields.io/badge/build-passing-green.svg)](https://ci.example.com) " +
            "[![npm](https://img.shields.io/npm/v/x.svg)](https://www.npmjs.com/package/x)",
          "Start with [the setup](docs/setup.md), then read " +
            "[@team/conventions](https://example.com/conventions). See also [the old wiki](docs/gone.md).",
          "<details>\n<summary>Why a handbook?</summary>\n\nSo nobody asks twice.\n\n</details>",
        ].join("\n\n"),
      );
      await z.add("handbook/docs/setup.md", "# Setup\n\nInstall it.<br>Then run it.\n");
      await z.add("handbook/images/logo.png", PNG_BYTES);
    });
    const { page } = v;
    await page.goto("/");
    await page.getByRole("button", { name: "Import" }).click();
    const dialog = page.getByRole("dialog", { name: "Import a space" });
    await dialog.getByLabel(/^File/).setInputFiles({ name: "handbook-main.zip", mimeType: "application/zip", buffer: Buffer.from(zip) });
    // The folder wrapping the zip names the space; its key is made from that name and free.
    await page.waitForFunction(
      () => (document.querySelector("[role=dialog] input[maxlength='100']") as HTMLInputElement | null)?.value === "handbook",
    );
    await dialog.getByText(/^(In links: \/s\/KEY|HANDBOOK is used by another space: HANDBOOK\d+ is free\.)$/).waitFor();
    // The key follows the name once the free-key answer is back (the file's own name came first).
    const keyField = dialog.getByLabel("Key");
    for (let i = 0; i < 100 && !/^HANDBOOK\d*$/.test(await keyField.inputValue()); i++) await page.waitForTimeout(50);
    expect(await keyField.inputValue()).toMatch(/^HANDBOOK\d*$/);
    expect(await checkLooks(page, "export-import-dialog-markdown")).toEqual({});
    await dialog.getByRole("button", { name: "Import" }).click();
    const summary = page.getByRole("dialog", { name: "“handbook” is imported" });
    await summary.waitFor({ timeout: 30_000 });
    // Short: counts, then one line that opens the details.
    const details = summary.getByText(/^Details: /);
    await details.waitFor();
    expect(await summary.getByRole("heading", { name: "Left out or kept as text" }).isVisible()).toBe(false);
    expect(await checkLooks(page, "export-import-report")).toEqual({});
    await details.press("Enter");
    await summary.getByRole("heading", { name: "Left out or kept as text" }).waitFor();
    await summary.getByText(/docs\/gone\.md/).waitFor();
    expect(await checkLooks(page, "export-import-report-open")).toEqual({});
    const key = /as the private space (\w+)/.exec(await summary.innerText())![1];
    await summary.getByRole("button", { name: "Open handbook" }).click();
    await page.waitForURL(new RegExp(`/s/${key}`));
    const home = (await api(page, "GET", `/api/spaces/${key}`)).homepageId;
    await page.goto(`/s/${key}/p/${home}`);
    await page.getByRole("heading", { name: "Team handbook", level: 1 }).waitFor();
    await page.getByText(/^Imported by .+ from README\.md/).waitFor();
    // Badges are links with their words; the logo is an attachment that loads.
    await page.getByRole("link", { name: "build" }).waitFor();
    await page.getByRole("img", { name: "Handbook logo" }).waitFor();
    expect(
      await page.getByRole("img", { name: "Handbook logo" }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    ).toBe(true);
    expect(await checkLooks(page, "export-import-imported-page")).toEqual({});
    expect(v.errors).toEqual([]);
    expect(v.foreign).toEqual([]);
  }, 60_000);

  test("the settings section and the import dialog in the four looks", async () => {
    const { page } = v;
    await page.goto("/s/DOCS/settings/export");
    await page.getByRole("heading", { name: "Static site" }).waitFor();
    expect(await checkLooks(page, "export-import-settings")).toEqual({});
    await page.goto("/");
    await page.getByRole("button", { name: "Import" }).click();
    await page.getByRole("dialog", { name: "Import a space" }).waitFor();
    await page.getByRole("dialog").getByLabel(/^File/).setInputFiles(packPath);
    await page
      .getByRole("dialog")
      .getByText(/is used by another space: DOCS\d is free\./)
      .waitFor();
    expect(await checkLooks(page, "export-import-dialog")).toEqual({});
    expect(v.errors).toEqual([]);
    expect(v.foreign).toEqual([]);
  }, 60_000);
});
