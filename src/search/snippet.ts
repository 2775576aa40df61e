import { fold } from "./segment";
import type { Term } from "./query";

const BEFORE = 60;
const AFTER = 160;

/** A rough English stem, enough to highlight "deploying" for the query "deploy" (porter). */
function stem(word: string): string {
  return word.length > 4 ? word.replace(/(ing|ed|es|s|ly)$/, "") : word;
}

function matchers(terms: Term[]): RegExp | null {
  const parts = terms
    .filter((t) => t.text)
    .map((t) => {
      const text = fold(t.text).replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+");
      // Latin words match from a word start; CJK (no word boundaries) anywhere.
      return /^[\p{Script=Latin}\p{N}]/u.test(text) ? `(?<![\\p{L}\\p{N}])${t.kind === "phrase" ? text : stem(text)}[\\p{L}\\p{N}]*` : text;
    });
  return parts.length ? new RegExp(parts.join("|"), "giu") : null;
}

/**
 * The passage of the page's text where the query matched, with the matching words in `**`.
 * Built here rather than by FTS5, because the index holds CJK text split into characters.
 * Folding keeps string length for the scripts we match, so offsets map back to the original.
 */
export function snippetFor(text: string, terms: Term[]): string {
  const re = matchers(terms);
  const folded = fold(text);
  const sameLength = folded.length === text.length;
  const first = re && sameLength ? re.exec(folded) : null;
  if (!first) return excerpt(text, 0, AFTER + BEFORE);
  let start = Math.max(0, first.index - BEFORE);
  let end = Math.min(text.length, first.index + AFTER);
  // Snap to word boundaries so the passage neither starts nor ends mid-word.
  if (start > 0) start = text.indexOf(" ", start) + 1 || start;
  if (end < text.length) end = text.lastIndexOf(" ", end) > first.index ? text.lastIndexOf(" ", end) : end;
  let out = "";
  let at = start;
  re!.lastIndex = start;
  for (const m of folded.slice(0, end).matchAll(re!)) {
    if (m.index < start) continue;
    out += text.slice(at, m.index) + "**" + text.slice(m.index, m.index + m[0].length) + "**";
    at = m.index + m[0].length;
  }
  out += text.slice(at, end);
  return (start > 0 ? "…" : "") + out.replace(/\s+/g, " ").trim() + (end < text.length ? "…" : "");
}

function excerpt(text: string, start: number, length: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= length) return flat;
  const cut = flat.lastIndexOf(" ", length);
  return flat.slice(start, cut > 40 ? cut : length) + "…";
}
