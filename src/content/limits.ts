/**
 * A document's size limit, apart from the editor schema: the HTTP layer and route schemas need
 * the number at start, the schema (TipTap, ProseMirror) only when a document is checked.
 */
/** 2 MiB of JSON text: a long page with tables is a few hundred KB; images are attachments. */
export const MAX_CONTENT_BYTES = 2 * 1024 * 1024;
