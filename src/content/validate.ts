/**
 * The gate for page bodies: every contentJson that reaches storage passes checkContentJson, so
 * no page is saved that the editor cannot open (docs/decisions.md, "One editor schema"). Bad input
 * of any shape answers a 400 on `contentJson` whose reason names the JSON path of the problem;
 * nothing else is thrown.
 */
import { Node as PMNode } from "@tiptap/pm/model";
import { AppError, invalid } from "../platform/errors";
import { plainText } from "./plain-text";
import { contentSchema } from "./schema";
import { checkStructure } from "./structure";
import { completeTables } from "./tables";
import { MAX_CONTENT_BYTES } from "../common/limits";

export { plainText } from "./plain-text";
export { EMPTY_DOCUMENT_JSON } from "./schema";
export { MAX_DEPTH, MAX_NODES } from "./structure";
export { MAX_TABLE_CELLS } from "./tables";

export { MAX_CONTENT_BYTES };

/**
 * Checks a contentJson string from a request. Answers the normalised JSON to store (defaults
 * filled in, adjacent text with the same marks joined, ragged tables completed) and the plain
 * text for search.
 */
export function checkContentJson(text: unknown): { json: string; text: string } {
  if (typeof text !== "string") {
    throw invalid(
      "contentJson",
      `must be a string holding the document as JSON text, got ${text === null ? "null" : Array.isArray(text) ? "an array" : typeof text}`,
    );
  }
  // UTF-8 never takes fewer bytes than UTF-16 code units, so the cheap length test is safe first.
  if (text.length > MAX_CONTENT_BYTES || Buffer.byteLength(text, "utf8") > MAX_CONTENT_BYTES) {
    throw invalid("contentJson", `the document is too large (${Buffer.byteLength(text, "utf8")} bytes; at most ${MAX_CONTENT_BYTES})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalid("contentJson", `is not valid JSON (${(error as Error).message})`);
  }
  checkStructure(parsed);
  let doc: PMNode;
  try {
    doc = contentSchema.nodeFromJSON(parsed);
    // Belt and braces: the structural walk checks the same rules with better messages.
    doc.check();
    doc = completeTables(doc);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw invalid("contentJson", `the document does not fit the editor schema (${(error as Error).message})`);
  }
  const json = JSON.stringify(doc.toJSON());
  // Completing ragged tables adds cells, so the stored form is measured again.
  if (Buffer.byteLength(json, "utf8") > MAX_CONTENT_BYTES) {
    throw invalid("contentJson", `the document is too large once its tables are completed (at most ${MAX_CONTENT_BYTES} bytes)`);
  }
  return { json, text: plainText(doc) };
}
