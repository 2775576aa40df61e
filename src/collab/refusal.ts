/**
 * Update (publishing a room) refused by the content check: the check names a JSON path
 * ("content[3].content[0].marks[0].attrs.href: scheme …"), which means nothing to the person
 * at the editor. This turns it into what they can act on: which link, image or passage, why, and
 * what to do, with the link's text and address (`extra.link`) so the editor can take them to it.
 */
import type { JSONContent } from "@tiptap/core";
import { AppError } from "../platform/errors";

/** The refusal reworded for the editor; any other error is answered as it is. */
export function explainRefusal(err: unknown, doc: JSONContent): unknown {
  if (!(err instanceof AppError) || err.problemCode !== "validation_failed" || err.extras.field !== "contentJson") return err;
  const reason = err.extras.errors?.contentJson?.[0] ?? "";
  const path = /^content\[\d+\](?:\.content\[\d+\])*/.exec(reason)?.[0];
  if (!path) return err;
  const indices = [...path.matchAll(/content\[(\d+)\]/g)].map((m) => Number(m[1]));
  const nodes = walk(doc, indices);
  const node = nodes[nodes.length - 1];
  if (!node) return err;
  const rest = reason.slice(path.length).replace(/^[.:]\s*/, "");
  const why = rest.replace(/^(marks\[\d+\]\.)?attrs\.\w+:\s*/, "").replace(/^marks\[\d+\]:\s*/, "");
  const markIndex = /^marks\[(\d+)\]/.exec(rest)?.[1];
  const mark = markIndex === undefined ? undefined : node.marks?.[Number(markIndex)];
  const text = excerpt(textOf(node));
  let detail: string;
  let link: { text: string; href: string } | undefined;
  if (mark?.type === "link") {
    const href = String(mark.attrs?.href ?? "");
    link = { text: node.text ?? "", href };
    detail =
      `The link “${text}” to ${quoteUrl(href)} cannot be published: ${addressWhy(why)}. Select the ` +
      `link and change its address (or remove the link), then Update again.`;
  } else if (node.type === "image") {
    const src = String(node.attrs?.src ?? "");
    detail =
      `The image from ${quoteUrl(src)} cannot be published: ${addressWhy(why)}. Remove ` +
      `the image or upload the picture instead, then Update again.`;
  } else {
    const block = [...nodes].reverse().find((n) => textOf(n).trim()) ?? node;
    detail =
      `Part of the page cannot be published${textOf(block).trim() ? `, near “${excerpt(textOf(block))}”` : ""}: ` +
      `${rest || reason}. Change or remove it, then Update again.`;
  }
  return new AppError("validation_failed", {
    field: "contentJson",
    detail,
    errors: err.extras.errors,
    ...(link ? { extra: { link } } : {}),
  });
}

/** The nodes along the path, outermost first (fewer when the path leads nowhere). */
function walk(doc: JSONContent, indices: number[]): JSONContent[] {
  const out: JSONContent[] = [];
  let at: JSONContent | undefined = doc;
  for (const i of indices) {
    at = at?.content?.[i];
    if (!at) break;
    out.push(at);
  }
  return out;
}

function textOf(node: JSONContent): string {
  if (node.type === "text") return node.text ?? "";
  return (node.content ?? []).map(textOf).join(" ");
}

function excerpt(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 60)}…` : line;
}

/** "must be …" reads as the address's; "scheme … is not allowed" as it is. */
function addressWhy(why: string): string {
  return /^must\b/.test(why) ? `its address ${why}` : why;
}

function quoteUrl(url: string): string {
  return `“${url.length > 80 ? `${url.slice(0, 80)}…` : url}”`;
}
