/**
 * The web UI re-types no limit the server enforces: a `maxLength`, a file size, a "characters"
 * count in a hint all come from src/common/limits.ts (or the settings catalogue), so a limit
 * changed on the server changes in every form. A source scan over src/web, comments aside, with
 * its negative case; the generated API types and the tests are not scanned.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";

const root = join(import.meta.dir, "..");

/** What a re-typed limit looks like in the UI's code. */
const RETYPED = [
  /\b(max|min)Length\s*(=\{|:)\s*\d/, // maxLength={100}, maxLength: 100
  /\b(?!1024\b)\d[\d_]*\s*\*\s*(1024|KB|MB)\b/, // 25 * 1024 * 1024, 10 * MB (1024 * 1024 alone is the unit, in a size written out)
  /\b\d[\d,.]*\s?(KB|MB|GB|KiB|MiB|GiB)\b/, // "at most 25 MB"
  /\b\d[\d,]*\s+characters\b/, // "Up to 50 characters"
];

/** Files that may hold a number of that shape, and why it is not one of the server's limits. */
const MAY_TYPE: Record<string, string> = {
  "src/web/features/export-import/zip-peek.ts":
    "the browser's own bound on reading a zip's directory for a space's name; the server has no such limit",
};

/** The code without its comments (a comment may explain a number; only code can re-type one). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " ")).replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

function retypedLimits(files: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [path, text] of Object.entries(files)) {
    if (Object.hasOwn(MAY_TYPE, path) || /\.test\.tsx?$|\.d\.ts$|\/testing\.tsx?$/.test(path)) continue;
    code(text)
      .split("\n")
      .forEach((line, i) => {
        const hit = RETYPED.map((p) => p.exec(line)).find(Boolean);
        if (hit) found.push(`${path}:${i + 1}: ${hit[0]}`);
      });
  }
  return found;
}

test("no limit is re-typed in src/web (they come from src/common/limits.ts)", async () => {
  const files: Record<string, string> = {};
  for await (const path of new Bun.Glob("src/web/**/*.{ts,tsx}").scan({ cwd: root })) files[path] = await Bun.file(join(root, path)).text();
  expect(Object.keys(files).length).toBeGreaterThan(100);
  expect(retypedLimits(files)).toEqual([]);
});

test("the scan finds a typed maxLength, size and character count, and leaves shared names and comments alone", () => {
  const found = retypedLimits({
    "src/web/features/a/Form.tsx": '<TextField maxLength={50} hint="Up to 50 characters" />\n<TextField maxLength={ROLE_NAME_MAX} />\n',
    "src/web/features/a/upload.ts": "const MAX = 25 * 1024 * 1024;\nconst text = `at most 2 MB`;\nconst ok = AVATAR_MAX_BYTES / MB;\n",
    "src/web/features/a/field.ts":
      'const rule = { maxLength: 100 };\n// at most 25 MB, 50 characters\n/* 10 * 1024 */ const url = "https://x.test/a";\n',
    "src/web/features/export-import/zip-peek.ts": "const MAX_DIRECTORY = 4 * 1024 * 1024;\n",
    "src/web/api/schema.d.ts": "/** at most 25 MB */ maxLength: 100\n",
  });
  expect(found).toEqual([
    "src/web/features/a/Form.tsx:1: maxLength={5",
    "src/web/features/a/upload.ts:1: 25 * 1024",
    "src/web/features/a/upload.ts:2: 2 MB",
    "src/web/features/a/field.ts:1: maxLength: 1",
  ]);
});
