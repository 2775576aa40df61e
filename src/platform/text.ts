/**
 * The one check for control characters in text people type and others read back: titles,
 * names, descriptions, display names, comment bodies.
 *
 * Why each is refused:
 *   - C0 controls, DEL and C1 controls: NUL cuts strings short in C-based tools, ESC (and C1
 *     CSI, U+009B, which some terminals read as ESC [) rewrites the terminal that prints a log
 *     or an export, and none of them shows as anything on a page;
 *   - bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they make a name
 *     read differently from what it is ("Trojan Source"); the plain marks LRM/RLM stay allowed,
 *     right-to-left text needs them;
 *   - lone surrogates: not Unicode at all, they turn into U+FFFD (or fail) wherever the text
 *     is encoded next.
 *
 * Single-line fields refuse every one of them, tab and line feed included. Multi-line fields
 * allow tab and line feed, after CR LF and lone CR have become LF.
 */
import { invalid } from "./errors";

// With the u flag, \uD800-\uDFFF matches only surrogates that are not half of a pair.
const SINGLE_LINE = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uD800-\uDFFF]/u;
const MULTI_LINE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uD800-\uDFFF]/u;

export type TextKind = "single-line" | "multi-line";

const codePoint = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** The first character the kind of field does not allow, as "U+001B", or null. */
export function findControl(text: string, kind: TextKind): string | null {
  const m = (kind === "single-line" ? SINGLE_LINE : MULTI_LINE).exec(text);
  return m ? codePoint(m[0]) : null;
}

/** CR LF and lone CR become LF (what browsers send from a textarea varies). */
export function normaliseNewlines(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/**
 * A single-line field as sent (before any trimming, so a trailing tab or newline is refused
 * too, not silently dropped): answers it unchanged or throws a 400 naming the field.
 */
export function singleLine(field: string, text: string): string {
  const found = findControl(text, "single-line");
  if (found) throw invalid(field, `must not contain control characters (found ${found})`);
  return text;
}

/** A multi-line field: newlines normalised, then tab and line feed are the only controls allowed. */
export function multiLine(field: string, text: string): string {
  const normalised = normaliseNewlines(text);
  const found = findControl(normalised, "multi-line");
  if (found) throw invalid(field, `must not contain control characters other than tab and line feed (found ${found})`);
  return normalised;
}
