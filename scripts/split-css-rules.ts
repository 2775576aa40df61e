/**
 * The CSS half of scripts/split-long-lines.ts: a rule written on one line that is over the width
 * becomes one declaration a line (Biome's CSS formatter is off: docs/decisions.md, "Formatting").
 */
export const WIDTH = 140;

/** Over the width, counted in characters (code points) as tests/format.test.ts counts them. */
export const isLong = (line: string) => [...line].length > WIDTH;

/** Splits `s` at `sep` outside parentheses, brackets and quotes. */
function topLevel(s: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) quote = c === quote && s[i - 1] !== "\\" ? "" : quote;
    else if (c === '"' || c === "'") quote = c;
    else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (c === sep && depth === 0) {
      out.push(s.slice(from, i));
      from = i + 1;
    }
  }
  out.push(s.slice(from));
  return out.map((p) => p.trim()).filter(Boolean);
}

/** One long CSS line `selector { a: b; c: d }` (or a block nesting such rules) as one declaration a line. */
export function expandCssLine(line: string): string[] {
  const m = /^(\s*)([^{}]+?)\s*\{\s*(.*)\s*\}\s*$/.exec(line);
  if (!m || line.trim().startsWith("/*")) return [line];
  const [, indent, selector, body] = m;
  const inner = indent + "  ";
  const head = isLong(`${indent}${selector} {`)
    ? topLevel(selector, ",").map((s, i, all) => indent + s + (i < all.length - 1 ? "," : " {"))
    : [`${indent}${selector} {`];
  const out = [...head];
  if (body.includes("{")) {
    for (const rule of body.match(/[^{}]+\{[^{}]*\}/g) ?? [])
      out.push(...expandCssLine(inner + rule.trim()).flatMap((l) => (isLong(l) ? expandCssLine(l) : [l])));
  } else {
    for (const decl of topLevel(body, ";")) {
      const full = `${inner}${decl};`;
      if (!isLong(full)) out.push(full);
      else {
        const parts = topLevel(decl, ",");
        out.push(...parts.map((p, i) => (i === 0 ? inner : `${inner}  `) + p + (i < parts.length - 1 ? "," : ";")));
      }
    }
  }
  out.push(`${indent}}`);
  return out;
}
