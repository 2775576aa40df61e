/**
 * The promise of the one editor schema (docs/decisions.md) checked from the other side: what the
 * server stores, the real editor opens unchanged. The shared extension list is bundled for the
 * browser with Bun.build (as the web UI will be) and run in Debian's Chromium through
 * playwright-core.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { sampleDocument } from "./sample";
import { everythingDocument } from "./testing";
import { checkContentJson } from "./validate";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

// A virtual entry beside the real modules, so imports resolve as they will for the UI.
const ENTRY = join(import.meta.dir, "editor-check.entry.ts");
const ENTRY_SOURCE = `
import { Editor } from "@tiptap/core";
import { contentExtensions } from "./extensions";
// Opens a document as the editor would; answers what it holds, its HTML and that HTML parsed back.
(window as any).openInEditor = (content: unknown) => {
  const errors: string[] = [];
  const editor = new Editor({
    element: document.body.appendChild(document.createElement("div")),
    extensions: contentExtensions,
    content,
    enableContentCheck: true,
    onContentError: ({ error }) => errors.push(String(error)),
  });
  const json = editor.getJSON();
  const html = editor.getHTML();
  // Not checked: TipTap's strict HTML check flags <tbody>, which parsing rightly skips over.
  editor.commands.setContent(html, { errorOnInvalidContent: false });
  const fromHtml = editor.getJSON();
  editor.destroy();
  return { errors, json, html, fromHtml };
};
`;

const cell = (attrs: Record<string, unknown> = {}) => ({ type: "tableCell", attrs, content: [{ type: "paragraph" }] });

let browser: Browser;
let page: Page;

beforeAll(async () => {
  const build = await Bun.build({ entrypoints: [ENTRY], files: { [ENTRY]: ENTRY_SOURCE }, target: "browser" });
  if (!build.success) throw new Error(build.logs.join("\n"));
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.setContent("<!doctype html><html><body></body></html>");
  await page.addScriptTag({ content: await build.outputs[0].text() });
  expect(errors).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
});

interface Opened {
  errors: string[];
  json: unknown;
  html: string;
  fromHtml: unknown;
}

const open = (doc: unknown) => page.evaluate((d) => (window as any).openInEditor(d), doc) as Promise<Opened>;

describe("the editor opens what the server stores", () => {
  test.each<[string, () => unknown]>([
    ["every block and mark", everythingDocument],
    ["a sample page", () => sampleDocument(5, 800)],
    [
      "a ragged table, completed by the server as the editor would",
      () => ({
        type: "doc",
        content: [
          {
            type: "table",
            content: [
              { type: "tableRow", content: [cell({ colwidth: [150] }), cell({ rowspan: 3 }), cell()] },
              { type: "tableRow", content: [cell({ colspan: 3 })] },
            ],
          },
        ],
      }),
    ],
  ])(
    "%s: unchanged, and unchanged through its HTML",
    async (_, make) => {
      const stored = JSON.parse(checkContentJson(JSON.stringify(make())).json);
      const opened = await open(stored);
      expect(opened.errors).toEqual([]);
      expect(opened.json).toEqual(stored);
      // setContent is a transaction, so the editor's own table repair has run on what follows.
      // The HTML (clipboard, exports) parses back to the same document: parseHTML matches renderHTML.
      expect(opened.fromHtml).toEqual(stored);
    },
    20_000,
  );

  test("links are rendered safely", async () => {
    const { html } = await open(JSON.parse(checkContentJson(JSON.stringify(everythingDocument())).json));
    expect(html).toContain('href="https://example.com/ci"');
    expect(html).not.toContain("javascript:");
  });
});
