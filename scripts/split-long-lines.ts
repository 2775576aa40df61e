/**
 * Splits the lines Biome leaves over 140 characters, the width `tests/format.test.ts` holds every
 * code file to (docs/decisions.md, "Formatting"): `bun scripts/split-long-lines.ts <file…>`, then
 * `bun run format`. Biome breaks code but never a string, a comment or a CSS rule (its CSS
 * formatter is off); this does, without changing a value:
 *
 * - a string or untagged template literal becomes pieces joined with `+` (split at a space, `|` or
 *   `,` where it can, never inside an escape or a `${…}`), in parentheses where `+` would bind wrongly;
 * - a `//` line or a JSDoc line is re-wrapped, its rest joined to the next line of the same comment
 *   when that fits; a comment at the end of a code line moves above it;
 * - a one-line CSS rule becomes one declaration a line.
 *
 * What it cannot split (a key, a type, an import path, a regular expression) it lists, to do by hand.
 */
import { readFileSync, writeFileSync } from "node:fs";
import ts from "typescript";
import { expandCssLine, isLong, WIDTH } from "./split-css-rules";
/** Room left for the indentation Biome adds to a `+` chain's operands and the ` +` after each. */
const CHAIN_ROOM = 8;

/** The raw text cut into pieces no break may fall inside: an escape, a `${…}`, one code point. */
function atoms(raw: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; ) {
    if (raw[i] === "\\") {
      const m = /^\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S])/.exec(raw.slice(i));
      out.push(m?.[0] ?? raw[i]);
      i += out[out.length - 1].length;
    } else if (raw[i] === "$" && raw[i + 1] === "{") {
      let depth = 0;
      let j = i + 1;
      for (; j < raw.length; j++) {
        if (raw[j] === "{") depth++;
        else if (raw[j] === "}" && --depth === 0) break;
      }
      out.push(raw.slice(i, j + 1));
      i = j + 1;
    } else {
      const cp = String.fromCodePoint(raw.codePointAt(i) ?? 0);
      out.push(cp);
      i += cp.length;
    }
  }
  return out;
}

/** Pieces of about equal length, at most `max` characters (an atom longer stands alone), broken after a preferred character. */
export function pieces(raw: string, max: number): string[] {
  const all = atoms(raw);
  const total = all.reduce((n, a) => n + a.length, 0);
  const count = Math.ceil(total / max);
  for (const slack of [12, 24]) {
    const even = greedy(all, Math.min(max, Math.ceil(total / count) + slack));
    if (even.length <= count) return even;
  }
  return greedy(all, max);
}

function greedy(all: string[], max: number): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < all.length) {
    let len = 0;
    let end = start;
    let lastBreak = -1;
    while (end < all.length && (len + all[end].length <= max || end === start)) {
      len += all[end].length;
      if ((all[end] === " " || (/^[|,]$/.test(all[end]) && all[end + 1] !== " ")) && end + 1 < all.length) lastBreak = end + 1;
      end++;
    }
    if (end < all.length && lastBreak > start + 10) end = lastBreak;
    out.push(all.slice(start, end).join(""));
    start = end;
  }
  return out;
}

/** Parents under which `a + b` may stand without parentheses. */
const PLAIN = new Set([
  ts.SyntaxKind.CallExpression,
  ts.SyntaxKind.NewExpression,
  ts.SyntaxKind.PropertyAssignment,
  ts.SyntaxKind.ArrayLiteralExpression,
  ts.SyntaxKind.VariableDeclaration,
  ts.SyntaxKind.ReturnStatement,
  ts.SyntaxKind.ParenthesizedExpression,
  ts.SyntaxKind.TemplateSpan,
  ts.SyntaxKind.JsxExpression,
  ts.SyntaxKind.PropertyDeclaration,
  ts.SyntaxKind.ExpressionStatement,
  ts.SyntaxKind.ThrowStatement,
  ts.SyntaxKind.ArrowFunction,
]);
/** Parents where a literal cannot become an expression: keys, types, module names, directives, tags. */
const FIXED = new Set([
  ts.SyntaxKind.ImportDeclaration,
  ts.SyntaxKind.ExportDeclaration,
  ts.SyntaxKind.ExternalModuleReference,
  ts.SyntaxKind.LiteralType,
  ts.SyntaxKind.TaggedTemplateExpression,
  ts.SyntaxKind.ModuleDeclaration,
  ts.SyntaxKind.ImportType,
  ts.SyntaxKind.ElementAccessExpression,
]);

/** The literal as what it evaluates to: cooked text with each `${…}` by its source, so a split can be checked. */
function valueOf(node: ts.Node, sf: ts.SourceFile): string {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return node.head.text + node.templateSpans.map((s) => `\0${s.expression.getText(sf)}\0${s.literal.text}`).join("");
  if (ts.isParenthesizedExpression(node)) return valueOf(node.expression, sf);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken)
    return valueOf(node.left, sf) + valueOf(node.right, sf);
  return `\0?${node.getText(sf)}`;
}

function splitLiteral(node: ts.Node, sf: ts.SourceFile, indent: number): string | null {
  const parent = node.parent;
  if (FIXED.has(parent.kind) || (parent as { name?: ts.Node }).name === node) return null;
  if (ts.isExpressionStatement(parent) && ts.isSourceFile(parent.parent)) return null; // a directive
  const raw = node.getText(sf);
  const quote = raw[0];
  const body = raw.slice(1, -1);
  const max = Math.max(40, WIDTH - indent - CHAIN_ROOM - 2);
  let parts = pieces(body, max);
  // A literal that fits alone on a line but not beside its key or call: two halves.
  if (parts.length < 2) parts = pieces(body, Math.ceil(body.length / 2) + 12);
  // A `${…}` too long for a line, or a scrap of a word beside one, is for a hand (a named constant).
  if (parts.length < 2 || parts.some((p) => p.length > max) || parts.slice(0, -1).some((p) => p.length < 16)) return null;
  const joined = parts.map((p) => quote + p + quote).join(" +\n");
  const check = ts.createSourceFile("check.ts", `(${joined});`, ts.ScriptTarget.Latest, true);
  const statement = check.statements[0];
  if (check.statements.length !== 1 || !ts.isExpressionStatement(statement) || valueOf(statement.expression, check) !== valueOf(node, sf))
    return null;
  if (ts.isJsxAttribute(parent)) return `{${joined}}`;
  const plus = ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.PlusToken;
  const plain = PLAIN.has(parent.kind) || plus || (ts.isConditionalExpression(parent) && parent.condition !== node);
  return plain ? joined : `(${joined})`;
}

function literalsOnLongLines(text: string, file: string): { edits: Array<[number, number, string]>; stuck: string[] } {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const lines = text.split("\n");
  const longest = new Map<number, ts.Node>();
  const visit = (node: ts.Node) => {
    const literal = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node);
    if (literal && !ts.isTaggedTemplateExpression(node.parent)) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      for (let l = first; l <= last; l++) {
        const had = longest.get(l);
        if (isLong(lines[l]) && (!had || node.getWidth(sf) > had.getWidth(sf))) longest.set(l, node);
      }
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const edits: Array<[number, number, string]> = [];
  const stuck: string[] = [];
  const done = new Set<ts.Node>();
  for (const [line, node] of longest) {
    if (done.has(node)) continue;
    done.add(node);
    const indent = /^\s*/.exec(lines[line])?.[0].length ?? 0;
    const replacement = node.getWidth(sf) > 30 ? splitLiteral(node, sf, indent) : null;
    if (replacement) edits.push([node.getStart(sf), node.getEnd(), replacement]);
    else stuck.push(`${file}:${line + 1}`);
  }
  return { edits: edits.sort((a, b) => b[0] - a[0]), stuck };
}

const scriptKind = (file: string) => (file.endsWith("x") ? ts.ScriptKind.TSX : file.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS);

/** Every comment of the file, as [start, end) offsets, found through the parser (never inside a string). */
function commentRanges(text: string, file: string): ts.CommentRange[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const found = new Map<number, ts.CommentRange>();
  const visit = (node: ts.Node) => {
    for (const r of [...(ts.getLeadingCommentRanges(text, node.pos) ?? []), ...(ts.getTrailingCommentRanges(text, node.end) ?? [])])
      found.set(r.pos, r);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return [...found.values()];
}

const LIST_ITEM = /^(-|\*|•|\d+[.)]|@|$)/;

/** Re-wraps long `//` and JSDoc lines and lifts a trailing comment above its code, one change at a time. */
export function rewrapComments(text: string, file: string): string {
  for (let changed: string | null = text; changed !== null; changed = rewrapFirst(text, file)) text = changed;
  return text;
}

function rewrapFirst(text: string, file: string): string | null {
  const lines = text.split("\n");
  const starts: number[] = [];
  for (let i = 0, at = 0; i < lines.length; at += lines[i].length + 1, i++) starts.push(at);
  const ranges = commentRanges(text, file);
  const inComment = (line: number, col: number) => ranges.find((r) => r.pos <= starts[line] + col && starts[line] + col < r.end);
  const change = (i: number, count: number, ...replacement: string[]) => {
    lines.splice(i, count, ...replacement);
    return lines.join("\n");
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!isLong(line)) continue;
    const code = /^\s*/.exec(line)?.[0].length ?? 0;
    const own = inComment(i, code);
    if (!own) {
      const end = starts[i] + line.length;
      const trailing = ranges.find((r) => r.kind === ts.SyntaxKind.SingleLineCommentTrivia && r.pos > starts[i] + code && r.pos < end);
      const note = trailing && text.slice(trailing.pos, trailing.end);
      if (note && !/@ts-|biome-ignore/.test(note))
        return change(i, 1, line.slice(0, code) + note, line.slice(0, trailing.pos - starts[i]).trimEnd());
      continue;
    }
    const oneLineDoc = /^(\s*)\/\*\*\s(.*?)\s*\*\/$/.exec(line);
    if (oneLineDoc) return change(i, 1, `${oneLineDoc[1]}/**`, `${oneLineDoc[1]} * ${oneLineDoc[2]}`, `${oneLineDoc[1]} */`);
    const prefix = /^(\s*(?:\/\/+|\*)\s?)(?=\S)/.exec(line)?.[1];
    if (!prefix) continue; // not a line of prose (an indented example): left as it is
    // The paragraph around the long line: lines of the same comment with the same prefix, up to a
    // blank line, a list item or an indented line.
    const prose = (j: number) => {
      const range = lines[j]?.startsWith(prefix) ? inComment(j, prefix.length - 1) : undefined;
      const same = range === own || (range?.kind === ts.SyntaxKind.SingleLineCommentTrivia && own.kind === range.kind);
      const rest = lines[j].slice(prefix.length);
      return same && rest.length > 0 && !/^\s/.test(rest) && !rest.startsWith("*/");
    };
    let up = i;
    while (!LIST_ITEM.test(lines[up].slice(prefix.length)) && up > 0 && prose(up - 1)) up--;
    let down = i;
    while (down + 1 < lines.length && prose(down + 1) && !LIST_ITEM.test(lines[down + 1].slice(prefix.length))) down++;
    const others = lines.slice(up, down + 1).filter((l, j) => up + j !== i && !isLong(l));
    const width = Math.max(100, ...others.map((l) => l.length));
    const words = lines
      .slice(up, down + 1)
      .map((l) => l.slice(prefix.length).trim())
      .join(" ")
      .split(" ");
    const filled: string[] = [];
    for (const word of words) {
      const last = filled.length - 1;
      if (last >= 0 && filled[last].length + 1 + word.length <= width) filled[last] += ` ${word}`;
      else filled.push(prefix + word);
    }
    const result = change(up, down - up + 1, ...filled);
    if (result !== text) return result;
    lines.splice(up, filled.length, ...text.split("\n").slice(up, down + 1)); // already as filled as it gets (a word too long)
  }
  return null;
}

function splitFile(file: string): string[] {
  const text = readFileSync(file, "utf8");
  if (file.endsWith(".css")) {
    const out = text.split("\n").flatMap((l) => (isLong(l) ? expandCssLine(l) : [l]));
    writeFileSync(file, out.join("\n"));
    return [];
  }
  const { edits, stuck } = literalsOnLongLines(text, file);
  let next = text;
  for (const [from, to, replacement] of edits) next = next.slice(0, from) + replacement + next.slice(to);
  next = rewrapComments(next, file);
  if (next !== text) writeFileSync(file, next);
  return stuck;
}

if (import.meta.main) {
  const files = process.argv.slice(2);
  const stuck = files.flatMap(splitFile);
  const js = files.filter((f) => !f.endsWith(".css"));
  if (js.length) Bun.spawnSync(["bunx", "biome", "format", "--write", ...js], { stdout: "ignore", stderr: "inherit" });
  const left = files.flatMap((f) =>
    readFileSync(f, "utf8")
      .split("\n")
      .flatMap((l, i) => (isLong(l) ? [`${f}:${i + 1}`] : [])),
  );
  if (left.length) console.log(`Still over ${WIDTH} characters (split by hand):\n  ${left.join("\n  ")}`);
  if (stuck.length) console.log(`${stuck.length} literal(s) not split (a key, a type, a module name or too short).`);
}
