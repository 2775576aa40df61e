/**
 * A document from elsewhere made to fit the schema by giving up only what does not fit: each node
 * the check (validate.ts) names is replaced by its text, each mark it names is dropped (its text
 * stays), and the check runs again, until it passes. Used where a whole page must not be lost
 * for one construct (imports: markdown-lenient.ts, and every imported version in plan.ts); the
 * pages API refuses instead. Limits of the whole document (too large, too many nodes) are not
 * repaired: they throw the check's 400 (on `field`).
 */
import type { JSONContent } from "@tiptap/core";
import { AppError, invalid } from "../platform/errors";
import { checkContentJson } from "./validate";

/** Repairs of one document before giving up on it. */
const MAX_REPAIRS = 200;

export class NotRepairable extends Error {}

/**
 * Answers the document fitted; `notes` gets one line per construct given up ('"excerpt" (why)').
 * Throws NotRepairable when the check names no place to repair (or too many).
 */
export function repairToSchema(doc: JSONContent, notes: string[], field = "contentMarkdown"): JSONContent {
  return checkRepairing(doc, notes, field).doc;
}

/** repairToSchema, answering also what checkContentJson answers for the fitted document. */
export function checkRepairing(doc: JSONContent, notes: string[], field: string): { doc: JSONContent; json: string; text: string } {
  // A path named twice climbs to the parent (a paragraph may not be allowed where the node was).
  let last = "";
  for (let round = 0; round <= MAX_REPAIRS; round++) {
    let reason: string;
    try {
      return { doc, ...checkContentJson(JSON.stringify(doc)) };
    } catch (error) {
      if (!(error instanceof AppError) || error.extras.field !== "contentJson") throw error;
      reason = error.extras.errors?.contentJson?.[0] ?? error.message;
      const path = /^content\[\d+\](?:\.content\[\d+\])*/.exec(reason)?.[0];
      if (!path || round === MAX_REPAIRS) {
        if (/^the document (is too large|has too many)/.test(reason))
          throw invalid(field, `converts to a document the editor cannot hold: ${reason}`);
        throw new NotRepairable(reason);
      }
      const indices = [...path.matchAll(/content\[(\d+)\]/g)].map((m) => Number(m[1]));
      const why = reason.slice(path.length).replace(/^[.:]\s*/, "");
      const said = why.replace(/^(marks\[\d+\]\.)?attrs\./, "");
      const mark = /^marks\[(\d+)\]/.exec(why);
      if (path === last && !mark) indices.pop();
      last = path;
      if (!indices.length) throw new NotRepairable(reason);
      doc = replaceAt(doc, indices, (node) => {
        if (mark) {
          notes.push(
            `"${excerpt(textOf(node))}" (${said}): the ${node.marks?.[Number(mark[1])]?.type ?? "mark"} is dropped, the text kept`,
          );
          const marks = (node.marks ?? []).filter((_, i) => i !== Number(mark[1]));
          return [{ ...node, marks: marks.length ? marks : undefined }];
        }
        const text = textOf(node);
        notes.push(`"${excerpt(text || node.type || "")}" (${said || reason})`);
        if (node.type === "text" || isInlineNode(node)) return text ? [{ type: "text", text }] : [];
        return [{ type: "paragraph", content: text ? [{ type: "text", text }] : [] }];
      });
    }
  }
  throw new NotRepairable("too many repairs");
}

function isInlineNode(node: JSONContent): boolean {
  return ["mention", "hardBreak", "text"].includes(node.type ?? "");
}

function replaceAt(node: JSONContent, indices: number[], replace: (node: JSONContent) => JSONContent[]): JSONContent {
  const [i, ...rest] = indices;
  const content = [...(node.content ?? [])];
  if (i >= content.length) throw new NotRepairable("no such node");
  content.splice(i, 1, ...(rest.length ? [replaceAt(content[i], rest, replace)] : replace(content[i])));
  return { ...node, content };
}

/** The text a node shows (a mention its name), blocks separated by a space. */
function textOf(node: JSONContent): string {
  if (node.type === "text") return node.text ?? "";
  if (node.type === "mention") return `@${String(node.attrs?.label ?? node.attrs?.id ?? "")}`;
  if (node.type === "hardBreak") return " ";
  return (node.content ?? [])
    .map(textOf)
    .join(node.content?.some((c) => c.type !== "text" && !isInlineNode(c)) ? " " : "")
    .trim();
}

function excerpt(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 60)}…` : line;
}
