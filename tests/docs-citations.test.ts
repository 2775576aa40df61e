/**
 * Comments cite only what is in the repository. A comment in src/, tests/, scripts/ or migrations/
 * may not lean on a document the reader cannot open (a design document or interface spec called
 * SPEC or DESIGN, an "issue 31", a "§4.2"): it says the rule itself or points at docs/. And every
 * docs/ file a comment names must exist, with the heading it quotes: `docs/decisions.md, "Retention"`
 * (the quoted words begin a heading, or a bold lead-in of a paragraph or list item, in that file)
 * or `docs/api.md#errors` (a heading's GitHub anchor). The docs' own references to each other are
 * checked the same way.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");

/** The text of every comment in a source file, line breaks kept, comment markers removed. */
export function commentsOf(path: string, text: string): string[] {
  if (path.endsWith(".sql")) return [...text.matchAll(/--(.*)$/gm)].map((m) => m[1] ?? "");
  if (path.endsWith(".css")) return [...text.matchAll(/\/\*([\s\S]*?)\*\//g)].map((m) => m[1] ?? "");
  const found: string[] = [];
  let i = 0;
  let last = ""; // the previous significant character, to tell a regular expression from a division
  let lineCommentEnd = -1; // where the last // comment ended: the next line's // continues it
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === "/" && next === "/") {
      const end = text.indexOf("\n", i);
      const body = text.slice(i + 2, end < 0 ? text.length : end);
      if (lineCommentEnd >= 0 && /^[ \t]*\n[ \t]*$/.test(text.slice(lineCommentEnd, i))) found[found.length - 1] += `\n${body}`;
      else found.push(body);
      i = end < 0 ? text.length : end;
      lineCommentEnd = i;
    } else if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      found.push(text.slice(i + 2, end < 0 ? text.length : end).replace(/^[ \t]*\*(?!\/)/gm, ""));
      i = end < 0 ? text.length : end + 2;
    } else if (c === '"' || c === "'" || c === "`") {
      i = skipQuoted(text, i, c);
      last = c;
    } else if (c === "/" && (last === "" || "(,=:[!&|?{};+-*%<>~^".includes(last) || /\breturn\s*$/.test(text.slice(i - 8, i)))) {
      i = skipRegex(text, i);
      last = "/";
    } else {
      if (!/\s/.test(c)) last = c;
      i++;
    }
  }
  return found;
}

function skipQuoted(text: string, start: number, quote: string): number {
  let i = start + 1;
  let depth = 0; // inside a template literal's ${…}
  while (i < text.length) {
    const c = text[i];
    if (c === "\\") i += 2;
    else if (quote === "`" && c === "$" && text[i + 1] === "{") depth++, (i += 2);
    else if (quote === "`" && depth > 0 && c === "}") depth--, i++;
    else if (quote === "`" && depth > 0 && (c === '"' || c === "'" || c === "`")) i = skipQuoted(text, i, c);
    else if (c === quote && depth === 0) return i + 1;
    else if (c === "\n" && quote !== "`") return i + 1;
    else i++;
  }
  return i;
}

function skipRegex(text: string, start: number): number {
  let i = start + 1;
  let inClass = false;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\") i += 2;
    else if (c === "\n") return i;
    else if (c === "[") (inClass = true), i++;
    else if (c === "]") (inClass = false), i++;
    else if (c === "/" && !inClass) return i + 1;
    else i++;
  }
  return i;
}

/** Citations of documents the repository does not hold. */
const OUTSIDE = [/\bSPEC(\.md)?\b/, /\bDESIGN(\.md)?\b/, /\b[Ii]ssue\s+#?\d+/, /§/];

const normal = (s: string) => s.toLowerCase().replace(/[`*_]/g, "").replace(/\s+/g, " ").trim();

/** GitHub's anchor for a heading. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

type Doc = { headings: string[]; leads: string[] };
const docs = new Map<string, Doc | null>();

function docAt(base: string, file: string): Doc | null {
  const path = join(base, file);
  if (!docs.has(path)) {
    if (!existsSync(path)) docs.set(path, null);
    else {
      const text = readFileSync(path, "utf8");
      const headings = [...text.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)].map((m) => m[1]!);
      const leads = [...text.matchAll(/^\s*(?:[-*]\s+|\d+\.\s+)?\*\*(.+?)\*\*/gm)].map((m) => m[1]!);
      docs.set(path, { headings, leads });
    }
  }
  return docs.get(path)!;
}

/** A docs/ file (or README.md) named in a comment, with the heading it quotes or the anchor it gives. */
const CITATION = /(?<![\w/.-])(docs\/[\w./-]*\w\.md|README\.md)(#[\w-]+)?((?:(?:,\s*|\s+)(?:"[^"]+"|“[^”]+”))*)/g;

/** What is wrong with the citations in one file's comments (empty when nothing is). */
export function citationProblems(path: string, text: string, base = root): string[] {
  const problems: string[] = [];
  for (const comment of commentsOf(path, text)) {
    const flat = comment.replace(/\n[ \t]*(\/\/|\*|--)?/g, " ");
    for (const rule of OUTSIDE) {
      const m = flat.match(rule);
      if (m) problems.push(`${path}: cites "${m[0]}", which is not in the repository: ${flat.trim().slice(0, 120)}`);
    }
    for (const m of flat.matchAll(CITATION)) {
      const [, file, anchor, quoted] = m;
      const doc = docAt(base, file!);
      if (!doc) {
        problems.push(`${path}: ${file} does not exist`);
        continue;
      }
      if (anchor && !doc.headings.some((h) => slug(h) === anchor.slice(1))) problems.push(`${path}: ${file} has no heading ${anchor}`);
      // Only the first quotation names a heading; the ones after it may be words inside that part.
      const first = quoted?.match(/"([^"]+)"|“([^”]+)”/);
      if (first) {
        const words = normal((first[1] ?? first[2])!).replace(/[.:,;…]+$/, "");
        const names = [...doc.headings, ...doc.leads].map(normal);
        if (!names.some((n) => n.startsWith(words))) problems.push(`${path}: ${file} has no heading or lead "${words}"`);
      }
    }
  }
  return problems;
}

function sourceFiles(): string[] {
  const files: string[] = [];
  for (const [dir, glob] of [
    ["src", "**/*.{ts,tsx,js,mjs,css}"],
    ["tests", "**/*.{ts,tsx,js,mjs}"],
    ["scripts", "**/*.{ts,tsx,js,mjs}"],
    ["migrations", "*.sql"],
  ] as const) {
    for (const f of new Bun.Glob(glob).scanSync({ cwd: join(root, dir) })) files.push(`${dir}/${f}`);
  }
  return files.filter((f) => !f.includes("node_modules") && f !== "tests/docs-citations.test.ts");
}

test("comments cite only documents in the repository, and the docs headings they name exist", () => {
  const problems = sourceFiles().flatMap((f) => citationProblems(f, readFileSync(join(root, f), "utf8")));
  expect(problems).toEqual([]);
});

/** What is wrong with the cross-references of one Markdown file: `docs/x.md` ("Heading") or ("Heading" in `docs/x.md`). */
export function crossReferenceProblems(path: string, text: string, base = root): string[] {
  const problems: string[] = [];
  const refs = [
    ...[...text.matchAll(/`?(docs\/[\w./-]*\w\.md)`?(?:,\s*|\s+)\(?"([^"]+)"/g)].map((m) => [m[1]!, m[2]!] as const),
    ...[...text.matchAll(/\("([^"]+)" in `(docs\/[\w./-]*\w\.md)`\)/g)].map((m) => [m[2]!, m[1]!] as const),
  ];
  for (const [file, quoted] of refs) {
    const doc = docAt(base, file);
    if (!doc) problems.push(`${path}: ${file} does not exist`);
    else if (![...doc.headings, ...doc.leads].map(normal).some((n) => n.startsWith(normal(quoted).replace(/[.:,;…]+$/, ""))))
      problems.push(`${path}: ${file} has no heading or lead "${quoted}"`);
  }
  return problems;
}

test("the docs' references to each other name files and headings that exist", () => {
  // docs/decisions-pending/ holds drafts waiting to be folded into decisions.md; they are checked once folded.
  const files = [
    "README.md",
    ...[...new Bun.Glob("docs/**/*.md").scanSync({ cwd: root })].filter((f) => !f.startsWith("docs/decisions-pending/")),
  ];
  const problems = files.flatMap((f) => crossReferenceProblems(f, readFileSync(join(root, f), "utf8")));
  expect(problems).toEqual([]);
  expect(crossReferenceProblems("docs/x.md", 'See `docs/api.md` ("No such part") and ("Nor this" in `docs/nowhere.md`).')).toEqual([
    'docs/x.md: docs/api.md has no heading or lead "No such part"',
    "docs/x.md: docs/nowhere.md does not exist",
  ]);
});

test("the scan finds a citation of an outside document, a missing docs file and a missing heading", () => {
  const bad = [
    "// As SPEC.md says, a 404 hides a page.\nconst a = 1;",
    "/**\n * The shape comes from DESIGN §4.2.\n */\nconst b = 2;",
    "const c = 3; // fixed in issue 31",
    "// See docs/nowhere.md for the rule.",
    '/** Retention (docs/decisions.md, "A heading nobody\n * wrote"). */',
    "// docs/architecture.md#no-such-anchor",
  ];
  const found = bad.map((text) => citationProblems("src/x.ts", text));
  for (const problems of found) expect(problems.length).toBeGreaterThan(0);
  expect(found[0]![0]).toContain('"SPEC.md"');
  expect(found[1]!.join()).toContain('"DESIGN"');
  expect(found[1]!.join()).toContain('"§"');
  expect(found[2]![0]).toContain('"issue 31"');
  expect(found[3]![0]).toContain("docs/nowhere.md does not exist");
  expect(found[4]![0]).toContain('no heading or lead "a heading nobody wrote"');
  expect(found[5]![0]).toContain("no heading #no-such-anchor");
});

test("the scan leaves code, strings and good citations alone", () => {
  const good = [
    'export const SPEC_URL = "/api/openapi.json"; // the document the reference page reads',
    'const s = "see issue 12 // in a string, not a comment";',
    "const r = /\\/\\/ SPEC/; // a regular expression is not a comment",
    // Built from pieces so this file itself holds no such citation: the text is the same.
    "const t = `${a}// DES" + 'IGN ${"iss' + 'ue 4"}`;',
    '/**\n * Layers (docs/architecture.md, "Layers,\n * bottom first"): imports go downwards.\n */',
    "// docs/architecture.md#seams-for-a-second-backend",
    "// README.md",
  ];
  for (const text of good) expect(citationProblems("src/x.ts", text)).toEqual([]);
  expect(citationProblems("migrations/0001_x.sql", "-- per DESIGN\nCREATE TABLE t (a);")).toHaveLength(1);
});
