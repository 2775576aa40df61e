import { getSchema } from "@tiptap/core";
import type { Schema } from "@tiptap/pm/model";
import { contentExtensions } from "./extensions";

/** The ProseMirror schema of a page body, built once from the shared extension list. */
export const contentSchema: Schema = getSchema(contentExtensions);

/** A new page: one empty paragraph (a doc needs at least one block). */
export function emptyDocument(): { type: "doc"; content: { type: "paragraph" }[] } {
  return { type: "doc", content: [{ type: "paragraph" }] };
}

/** The same, as the normalised contentJson text that checkContentJson would store. */
export const EMPTY_DOCUMENT_JSON = JSON.stringify(emptyDocument());
