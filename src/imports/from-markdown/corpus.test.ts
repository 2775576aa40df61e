/**
 * Real documentation, as teams bring it in: the READMEs of packages this repository depends on
 * (GitHub-flavoured Markdown with HTML logos, badge rows, `<details>`, tables, npm scopes such as
 * `[@y/websocket-server](…)`) and undici's docs folder (42 pages linking each other by
 * repository-absolute paths), zipped at test time with their relative paths kept. Images a
 * README points at but npm does not ship are put beside it, as the repository has them.
 *
 * No page may come in empty, no tag may be left as text, every relative image must be an
 * attachment and every link to another file of the zip a page link; the report must be short
 * and name only what it should.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { JSONContent } from "@tiptap/core";
import { call, makeEnv, ownerAndMember, type TestEnv } from "../../../tests/harness";
import { widenMarkdownClock } from "../../content/markdown-lexer";
import { zipBytes } from "../../platform/zip/write";
import type { ImportedSpace } from "../model";
import { importZip } from "../testing";
import { fromMarkdownZip } from ".";
import { folderOf, resolvePath } from "./files";
import { checkAsWritten, content, hrefs, nodes, openTestZip, PNG, removeTestZips } from "./testing";

const ROOT = join(import.meta.dir, "../../../node_modules");
const READMES = [
  "y-websocket",
  "yjs",
  "elysia",
  "drizzle-orm",
  "marked",
  "@tiptap/core",
  "@tiptap/markdown",
  "parse5",
  "lib0",
  "cmdk",
  "diff",
  "zod",
  "wouter",
];
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>';

/** The corpus, by path in the zip (wrapped in one folder, as a repository's zip is). */
function corpus(): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = {};
  for (const name of READMES) {
    const file = join(ROOT, name, "README.md");
    if (existsSync(file)) files[`corpus/packages/${name.replace("/", "-")}/README.md`] = readFileSync(file, "utf8");
  }
  // undici's docs link each other from the repository's root (/docs/docs/api/Pool.md): they sit at the top.
  const docs = join(ROOT, "undici/docs");
  if (existsSync(docs)) {
    for (const entry of readdirSync(docs, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith(".md")) {
        const path = join(entry.parentPath, entry.name);
        files[`corpus/docs/${path.slice(docs.length + 1)}`] = readFileSync(path, "utf8");
      }
    }
  }
  // Images the files point at, which npm does not ship: put where the repository has them.
  const SOURCES = /<img\b[^>]*?\bsrc="([^"]+)"|!\[[^\]]*\]\(([^)\s]+)/g;
  for (const [path, text] of Object.entries(files)) {
    for (const m of String(text).matchAll(SOURCES)) {
      const src = (m[1] ?? m[2]).replace(/[#?].*$/, "");
      if (/^([a-z]+:|\/\/|#)/i.test(src) || !src) continue;
      const at = resolvePath(folderOf(path), decodeURIComponent(src));
      if (at && at.startsWith("corpus/") && !files[at]) files[at] = at.endsWith(".svg") ? SVG : PNG;
    }
  }
  return files;
}

function textWithoutCode(node: JSONContent): string {
  if (node.type === "codeBlock") return "";
  if (node.type === "text") return node.marks?.some((m) => m.type === "code") ? "" : (node.text ?? "");
  return (node.content ?? []).map(textWithoutCode).join(" ");
}

let files: Record<string, string | Uint8Array>;
let space: ImportedSpace;
let env: TestEnv;

beforeAll(async () => {
  files = corpus();
  // The clock widened: what is checked here is the content, and on a loaded machine (the suite
  // runs several files at once) a long document could otherwise meet the time budget.
  space = await widenMarkdownClock(20, async () => fromMarkdownZip(await openTestZip(files)));
  env = makeEnv();
  // ~1 s on an idle machine; room for a busy one.
}, 60_000);
afterAll(() => {
  removeTestZips();
  env.close();
});

describe("a corpus of real Markdown documentation", () => {
  test("is big enough to mean something", () => {
    const markdown = Object.keys(files).filter((p) => p.endsWith(".md"));
    expect(markdown.length).toBeGreaterThanOrEqual(50);
    expect(Object.keys(files).filter((p) => !p.endsWith(".md")).length).toBeGreaterThanOrEqual(5);
  });

  test("relative images are attachments; images from other sites are links; links between files are page links", () => {
    const all = space.pages.map(content);
    const images = all.flatMap((d) => nodes(d).filter((n) => n.type === "image"));
    expect(images.length).toBeGreaterThanOrEqual(5);
    for (const image of images) expect(String(image.attrs!.src)).toStartWith("cairn-attachment:");
    expect(space.mapped).toContainEqual(expect.objectContaining({ what: "images from other sites" }));
    const links = all.flatMap(hrefs);
    const pageLinks = links.filter((h) => h.startsWith("cairn-page:"));
    expect(pageLinks.length).toBeGreaterThanOrEqual(100);
    // No relative address to a Markdown file is left pointing nowhere.
    expect(links.filter((h) => !/^([a-z]+:|#|\/\/)/i.test(h) && /\.md(#|$)/.test(h))).toEqual([]);
    // The npm scope that once emptied y-websocket's page is a link with its words.
    const yws = space.pages.find((p) => p.sourcePath === "corpus/packages/y-websocket/README.md")!;
    expect(nodes(content(yws)).some((n) => n.text === "@y/websocket-server" && n.marks?.some((m) => m.type === "link"))).toBe(true);
  });

  test("no page from a file comes in empty, and every one is a document the editor opens", () => {
    const fromFiles = space.pages.filter((p) => p.sourcePath?.endsWith(".md"));
    expect(fromFiles.length).toBe(Object.keys(files).filter((p) => p.endsWith(".md")).length);
    for (const page of fromFiles) {
      const doc = content(page);
      const shows = nodes(doc).some((n) => (n.type === "text" && n.text!.trim()) || n.type === "image" || n.type === "attachment");
      expect(shows, `${page.sourcePath} is empty`).toBe(true);
      expect(() => checkAsWritten(space, page), page.sourcePath).not.toThrow();
    }
    expect(space.skipped.filter((s) => s.reason.includes("the page is empty"))).toEqual([]);
  });

  test("no HTML is left as the tags typed (outside code)", () => {
    for (const page of space.pages) {
      expect(textWithoutCode(content(page)), page.sourcePath).not.toMatch(
        /<\/?(img|p|div|details|summary|table|tr|td|th|br|a|sup|sub|picture|source|h[1-6]|b|strong|em|kbd|code)\b[^>]*>|<!--/i,
      );
    }
  });

  test("the report is short and names only what it should", () => {
    // Each reason names what was not brought in as it was; none says a page lost its body.
    for (const s of space.skipped)
      expect(s.reason).toMatch(/^(a link to|the image|a construct the converter cannot read|the (embed|wikilink))/);
    expect(space.skipped.length).toBeLessThan(40);
    // Said once per page, however often the page says it.
    expect(new Set(space.skipped.map((s) => `${s.path} ${s.reason}`)).size).toBe(space.skipped.length);
  });

  test("goes in through POST /api/spaces/import with a key sent after the file", async () => {
    const { owner } = await ownerAndMember(env);
    const zip = await zipBytes(async (z) => {
      for (const [path, data] of Object.entries(files)) await z.add(path, data);
    });
    const res = await importZip(env, owner, zip, { key: "CORPUS", after: true });
    expect(res.status, res.text).toBe(201);
    expect(res.body.space).toMatchObject({ key: "CORPUS", name: "corpus" });
    expect(res.body.counts.pages).toBe(space.pages.length);
    expect(res.body.counts.attachments).toBeGreaterThanOrEqual(5);
    const home = res.body.space.homepageId;
    const page = await call(env, "GET", `/api/pages/${home ?? ""}`, { as: owner });
    if (home) expect(page.status).toBe(200);
  }, 60_000);
});
