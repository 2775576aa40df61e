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
 *
 * Single-line fields (titles and names) also refuse characters that show as nothing, so that two
 * names which read the same are the same text and no name reads as blank: the zero-width space
 * U+200B, word joiner U+2060, invisible operators U+2061–U+2064, the deprecated format controls
 * U+206A–U+206F, the byte-order mark U+FEFF, the Mongolian vowel separator U+180E, the soft
 * hyphen U+00AD, the combining grapheme joiner U+034F, the Hangul fillers (U+115F, U+1160,
 * U+3164, U+FFA0), the braille blank U+2800 and the language tag U+E0001. The two joiners are
 * kept only where they do something visible: ZWJ (U+200D) between two emoji (👩‍💻) and
 * ZWJ or ZWNJ (U+200C) between two letters of a script that joins or forms conjuncts (Persian
 * می‌خواهم, Hindi, Malayalam…). Anywhere else, between Latin letters, at either end, they are
 * refused. Variation selectors stay allowed (❤️ needs U+FE0F).
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

const INVISIBLE = /[\u00AD\u034F\u115F\u1160\u180E\u200B\u2060-\u2064\u206A-\u206F\u2800\u3164\uFEFF\uFFA0\u{E0001}]/u;
const JOINERS = /[\u200C\u200D]/gu;
const EMOJI_BEFORE = /\p{Extended_Pictographic}[\u{1F3FB}-\u{1F3FF}\uFE0F\u20E3]*$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;
/** Scripts in which a joiner between two letters changes how they are drawn. */
const JOINING_SCRIPTS = [
  "Arabic",
  "Syriac",
  "Nko",
  "Mongolian",
  "Devanagari",
  "Bengali",
  "Gurmukhi",
  "Gujarati",
  "Oriya",
  "Tamil",
  "Telugu",
  "Kannada",
  "Malayalam",
  "Sinhala",
  "Khmer",
  "Myanmar",
  "Tibetan",
];
const SCRIPT_CLASS = JOINING_SCRIPTS.map((s) => `\\p{Script_Extensions=${s}}`).join("");
const LETTER_BEFORE = new RegExp(`[${SCRIPT_CLASS}]$`, "u");
const LETTER_AFTER = new RegExp(`^[${SCRIPT_CLASS}]`, "u");

/** The first character a title or name may not hold because it shows as nothing, as "U+200B", or null. */
export function findInvisible(text: string): string | null {
  const m = INVISIBLE.exec(text);
  let first = m ? m.index : -1;
  for (const j of text.matchAll(JOINERS)) {
    if (first >= 0 && j.index > first) break;
    const before = text.slice(0, j.index);
    const after = text.slice(j.index + 1);
    const betweenEmoji = j[0] === "\u200D" && EMOJI_BEFORE.test(before) && EMOJI_AFTER.test(after);
    const betweenLetters = LETTER_BEFORE.test(before) && LETTER_AFTER.test(after);
    if (!betweenEmoji && !betweenLetters) {
      first = j.index;
      break;
    }
  }
  return first >= 0 ? codePoint(text.slice(first, first + 2)) : null;
}

/** Whether the joiner at `index` of `text` does something visible (see findInvisible). */
function joinerShows(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 16), index);
  const after = text.slice(index + 1, index + 17);
  const betweenEmoji = text[index] === "\u200D" && EMOJI_BEFORE.test(before) && EMOJI_AFTER.test(after);
  return betweenEmoji || (LETTER_BEFORE.test(before) && LETTER_AFTER.test(after));
}

/**
 * A title or name that came from elsewhere (an imported archive) made to pass `singleLine`
 * rather than refused: controls and bidi overrides become spaces, characters that show as
 * nothing go, spaces collapse, and it is cut to `max` characters (code points). Blank: "".
 */
export function tidySingleLine(text: string, max: number): string {
  const spaced = [...text.slice(0, max * 4)]
    .join("")
    .replace(new RegExp(SINGLE_LINE.source, "gu"), " ")
    .replace(new RegExp(INVISIBLE.source, "gu"), "");
  let kept = "";
  let from = 0;
  for (const j of spaced.matchAll(JOINERS)) {
    kept += spaced.slice(from, j.index) + (joinerShows(spaced, j.index) ? j[0] : "");
    from = j.index + 1;
  }
  kept += spaced.slice(from);
  return [...kept.replace(/\s+/g, " ").trim()].slice(0, max).join("").trim();
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
  const invisible = findInvisible(text);
  if (invisible) throw invalid(field, `must not contain invisible characters such as zero-width spaces or joiners (found ${invisible})`);
  return text;
}

/** A multi-line field: newlines normalised, then tab and line feed are the only controls allowed. */
export function multiLine(field: string, text: string): string {
  const normalised = normaliseNewlines(text);
  const found = findControl(normalised, "multi-line");
  if (found) throw invalid(field, `must not contain control characters other than tab and line feed (found ${found})`);
  return normalised;
}
