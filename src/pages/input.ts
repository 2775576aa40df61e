/** Checks of page input that do not need the database; each failure is a 400 naming its field. */
import { checkContentMarkdown } from "../content/markdown";
import { acceptAll } from "../content/tracked-changes";
import { checkContentJson, EMPTY_DOCUMENT_JSON } from "../content/validate";
import { invalid } from "../platform/errors";
import { singleLine } from "../platform/text";
import { PAGE_TITLE_MAX, VERSION_COMMENT_MAX } from "../common/limits";

export const TITLE_MAX = PAGE_TITLE_MAX;
export const COMMENT_MAX = VERSION_COMMENT_MAX;

/**
 * Titles are required, trimmed, at most 255 characters, one line without control characters
 * (platform/text.ts; docs/decisions.md, "Page titles"). A draft may stay untitled until it is
 * published.
 */
export function cleanTitle(title: string, opts: { allowBlank?: boolean } = {}): string {
  const t = singleLine("title", title).trim();
  if (!t && !opts.allowBlank) throw invalid("title", "must not be blank");
  if (t.length > TITLE_MAX) throw invalid("title", `must be at most ${TITLE_MAX} characters`);
  return t;
}

export function cleanComment(comment: string | null | undefined): string | null {
  const c = comment?.trim() ?? "";
  if (c.length > COMMENT_MAX) throw invalid("changeComment", `must be at most ${COMMENT_MAX} characters`);
  return c || null;
}

export interface CheckedContent {
  json: string;
  text: string;
}

/** Every contentJson written goes through the editor schema (src/content). */
export function checkContent(contentJson: unknown): CheckedContent {
  return checkContentJson(contentJson);
}

/**
 * The document a body sends, as contentJson or as contentMarkdown (converted with the same
 * schema and then checked exactly like contentJson), or null when it sends neither.
 */
export function contentOf(input: { contentJson?: unknown; contentMarkdown?: unknown }): CheckedContent | null {
  if (input.contentMarkdown === undefined)
    return input.contentJson === undefined ? null : withoutTrackedChanges(checkContentJson(input.contentJson));
  if (input.contentJson !== undefined)
    throw invalid("contentMarkdown", "send the document either as contentJson or as contentMarkdown, not both");
  return checkContentMarkdown(input.contentMarkdown);
}

/**
 * A version never holds tracked changes (docs/decisions.md, "Publishing from the room"): a document
 * sent with some (an editor's copy with changes still pending) is stored with them accepted, as
 * "Accept all" would.
 */
function withoutTrackedChanges(content: CheckedContent): CheckedContent {
  if (!content.json.includes('"type":"insertion"') && !content.json.includes('"type":"deletion"')) return content;
  return checkContentJson(JSON.stringify(acceptAll(JSON.parse(content.json))));
}

export const EMPTY_CONTENT: CheckedContent = { json: EMPTY_DOCUMENT_JSON, text: "" };

// Made at the first emoji, not when the module loads: ICU's break rules and their code are
// ~1 MB of an idle server's memory that only a page's emoji needs.
let graphemes: Intl.Segmenter | null = null;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const FLAG = /^\p{Regional_Indicator}{2}$/u;
const KEYCAP = /^[0-9#*]\uFE0F?\u20E3$/u;

/** One emoji (a single grapheme: flags, keycaps, skin tones and ZWJ sequences count as one) or null. */
export function cleanEmoji(emoji: string | null): string | null {
  if (emoji === null) return null;
  const e = emoji.trim();
  if (e === "") return null;
  const parts = [...(graphemes ??= new Intl.Segmenter(undefined, { granularity: "grapheme" })).segment(e)];
  if (parts.length !== 1 || !(PICTOGRAPH.test(e) || FLAG.test(e) || KEYCAP.test(e)))
    throw invalid("emoji", "must be one emoji, or null to remove it");
  return e;
}
