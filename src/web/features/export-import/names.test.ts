import { describe, expect, test } from "bun:test";
import { keyFromName } from "../../lib/slug";
import { filenameFrom, newProgressId } from "./download";
import { keyFromFilename, nameFromFilename } from "./import-upload";
import { exportUrl } from "./space-exports";

describe("the file name of a download", () => {
  test.each([
    [`attachment; filename="Release notes.md"; filename*=UTF-8''Release%20notes%20%E2%9C%93.md`, "Release notes ✓.md"],
    [`attachment; filename="Plain.pdf"`, "Plain.pdf"],
    [`attachment; filename=bare.html`, "bare.html"],
    [`attachment; filename="with \\"quotes\\".md"`, `with "quotes".md`],
    [`attachment; filename="fallback.md"; filename*=UTF-8''%E0%A4%A`, "fallback.md"],
    [`attachment`, "given.md"],
  ])("%s", (header, name) => {
    expect(filenameFrom(header, "given.md")).toBe(name);
  });
  test("no header: the fallback", () => expect(filenameFrom(null, "x.md")).toBe("x.md"));
});

describe("what the import suggests from the file's name", () => {
  test.each([
    ["DOCS-pack.zip", "DOCS", "DOCS"],
    ["eng2-pack.ZIP", "ENG2", "eng2"],
    ["Team Notes.zip", "TN", "Team Notes"],
    ["obsidian_vault.zip", "OV", "obsidian vault"],
    ["Confluence-export.zip", "CE", "Confluence export"],
  ])("%s: key %s, name %s", (file, key, name) => {
    expect(keyFromFilename(file, keyFromName)).toBe(key);
    expect(nameFromFilename(file)).toBe(name);
  });
});

test("progress ids are what the server accepts, and fresh each time", () => {
  const ids = new Set(Array.from({ length: 50 }, newProgressId));
  expect(ids.size).toBe(50);
  for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
});

test("export URLs: the audience only for a site, the progress id when following", () => {
  expect(exportUrl("DOCS", "pack", "me", "p123456789")).toBe("/api/spaces/DOCS/export/pack?progress=p123456789");
  expect(exportUrl("DOCS", "site", "anonymous")).toBe("/api/spaces/DOCS/export/site?audience=anonymous");
});
