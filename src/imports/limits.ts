import { IMPORT_MAX_BYTES, MB } from "../common/limits";

export { IMPORT_MAX_BYTES };
export const IMPORT_LIMIT_WHY = `Imported archives may be at most ${IMPORT_MAX_BYTES / MB} MB.`;

/**
 * One Confluence page, bounded while it is read (the Markdown path has its own bounds in
 * content/markdown-lexer.ts). A stored page holds at most 2 MB of JSON and 50,000 nodes, and
 * Confluence's HTML is no larger than the document it draws plus ~20 KB of page chrome, so these
 * refuse no page that could be stored, and they hold one page's parsed tree to ~40 MB (parse5
 * takes ~240 bytes a node) and its conversion to a few seconds, whatever the archive holds.
 */
export const CONFLUENCE_PAGE_MAX_BYTES = 8 * MB;
/** Elements, text and comments of one page's HTML: three for each node a page may hold. */
export const CONFLUENCE_PAGE_MAX_NODES = 150_000;
/**
 * 5 s plus 2 s per MB of HTML, for the parse and the conversion together: the densest markup
 * (one-letter paragraphs) parses at ~2.4 MB a second here and the node limit stops it within
 * ~0.4 s, so this is a backstop against a pathological parse, with room for a loaded machine.
 */
export const confluencePageTimeBudget = (bytes: number) => 5000 + Math.round((2000 * bytes) / MB);
