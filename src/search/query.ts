import { segmentCjk } from "./segment";

/**
 * What a person typed, understood the way search boxes usually are: `"quoted phrases"`,
 * `prefix*`, `-excluded` words, and everything else plain words that must all appear. Nothing
 * typed reaches FTS5 unquoted, so no input can be an FTS5 syntax error.
 */
export interface Term {
  kind: "word" | "prefix" | "phrase";
  text: string;
  /** Words accepted in its place (near spellings, fuzzy.ts): the term matches any of them. */
  alternatives?: string[];
}

export interface ParsedQuery {
  must: Term[];
  not: Term[];
}

export const MAX_TERMS = 16;

export function parseQuery(input: string): ParsedQuery {
  const must: Term[] = [];
  const not: Term[] = [];
  const pattern = /(-?)"([^"]*)"?|(\S+)/g;
  for (const m of input.matchAll(pattern)) {
    if (must.length + not.length >= MAX_TERMS) break;
    let negated: boolean;
    let term: Term;
    if (m[2] !== undefined) {
      negated = m[1] === "-";
      term = { kind: "phrase", text: m[2].trim() };
    } else {
      let raw = m[3];
      negated = raw.length > 1 && raw.startsWith("-");
      if (negated) raw = raw.slice(1);
      const prefix = /[^*]\*+$/.test(raw);
      raw = raw.replace(/\*+$/, "");
      term = { kind: prefix ? "prefix" : "word", text: raw };
    }
    // Terms with nothing the tokenizer keeps (punctuation only) would match nothing or everything.
    if (!/[\p{L}\p{N}]/u.test(term.text)) continue;
    (negated ? not : must).push(term);
  }
  return { must, not };
}

function quote(text: string): string {
  return `"${segmentCjk(text).trim().replace(/\s+/g, " ").replace(/"/g, '""')}"`;
}

function ftsTerm(term: Term): string {
  if (term.alternatives?.length) return `(${[term.text, ...term.alternatives].map(quote).join(" OR ")})`;
  return term.kind === "prefix" ? `${quote(term.text)}*` : quote(term.text);
}

/** The word-index query; null when nothing positive is left to search for. */
export function toWordQuery(q: ParsedQuery): string | null {
  if (q.must.length === 0) return null;
  const positive = q.must.map(ftsTerm).join(" AND ");
  return q.not.length ? `(${positive})${q.not.map((t) => ` NOT ${ftsTerm(t)}`).join("")}` : positive;
}

/** Any excluded term, for leaving word-index matches of it out of the fragment results. */
export function toExclusionQuery(q: ParsedQuery): string | null {
  return q.not.length ? q.not.map(ftsTerm).join(" OR ") : null;
}

/**
 * The title-fragment query for the trigram index: every positive term of three or more
 * characters must appear somewhere in the title (e.g. "onfig" finds "Configuration").
 */
export function toFragmentQuery(q: ParsedQuery): string | null {
  if (q.must.length === 0 || q.must.some((t) => [...t.text].length < 3)) return null;
  return q.must.map((t) => `"${t.text.replace(/"/g, '""')}"`).join(" AND ");
}
