/**
 * The structural check of a parsed contentJson document, before ProseMirror sees it. ProseMirror's
 * own Node.fromJSON/check() would also refuse bad documents, but its errors say neither where nor
 * why in words a caller can act on ("Invalid content for node tableRow: <…>"), it drops unknown
 * attributes silently, and it recurses without a depth limit. This walk checks the same rules
 * (node and mark names, content expressions, allowed marks, mark combinations, attributes) and
 * reports the JSON path of the first problem, e.g. `content[3].content[0]: unknown node type "blink"`.
 */
import type { ContentMatch, Mark, MarkType, NodeType } from "@tiptap/pm/model";
import { invalid } from "../platform/errors";
import { ATTR_RULES } from "./attrs";
import { contentSchema } from "./schema";

/** Levels of nodes below the doc, text included (text in a list in a table cell is at level 7). */
export const MAX_DEPTH = 40;
// A long page with a big table is a few thousand nodes; 2 MiB of JSON could otherwise hold ~100,000.
export const MAX_NODES = 50_000;
/** Marks on one node; bounds the pairwise combination check. */
export const MAX_MARKS = 32;

const NODE_KEYS = new Set(["type", "attrs", "content", "marks", "text"]);
const MARK_KEYS = new Set(["type", "attrs"]);

function fail(path: string, reason: string): never {
  throw invalid("contentJson", path ? `${path}: ${reason}` : reason);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value)}`;
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

function quoted(name: string): string {
  return JSON.stringify(name.length > 60 ? name.slice(0, 60) + "…" : name);
}

/** Names other editors use for our types (snake_case ones are matched without this). */
const ALIASES = new Map(
  Object.entries({
    expand: "details",
    summary: "detailsSummary",
    hr: "horizontalRule",
    br: "hardBreak",
    strong: "bold",
    em: "italic",
    strikethrough: "strike",
    mark: "highlight",
    ins: "insertion",
    del: "deletion",
  }),
);

/** ` (did you mean "bulletList"?)` for "bullet_list", or nothing. */
function suggestion(name: string, known: Record<string, unknown>): string {
  const plain = name.toLowerCase().replace(/[_\s-]/g, "");
  const match = Object.keys(known).find((k) => k.toLowerCase() === plain) ?? ALIASES.get(plain);
  return match && Object.hasOwn(known, match) ? ` (did you mean ${quoted(match)}?)` : "";
}

/** Checks the document tree; throws invalid("contentJson", …) at the first problem. */
export function checkStructure(json: unknown): void {
  if (!isObject(json) || json.type !== "doc") {
    const got = !isObject(json)
      ? describe(json)
      : typeof json.type === "string"
        ? `type ${quoted(json.type)}`
        : `type ${describe(json.type)}`;
    fail("", `the document must be an object with "type": "doc" (got ${got})`);
  }
  const counter = { nodes: 0 };
  checkNode(json, contentSchema.topNodeType, ROOT, 0, null, counter);
}

/**
 * Where a node sits, as a chain of child indexes: the JSON path text ("content[3].content[0]")
 * is only made when something fails. Every page save walks every node, and building each
 * node's path and quoted name up front was a third of the whole check.
 */
interface At {
  parent: At | null;
  index: number;
}
const ROOT: At = { parent: null, index: -1 };

function pathOf(at: At): string {
  const parts: string[] = [];
  for (let a: At | null = at; a && a.parent; a = a.parent) parts.push(`content[${a.index}]`);
  return parts.reverse().join(".");
}

/** The node type named by `json.type`, after checking that `json` looks like a node. */
function nodeTypeOf(json: unknown, at: At): NodeType {
  if (!isObject(json)) fail(pathOf(at), `expected a node object, got ${describe(json)}`);
  const name = json.type;
  if (typeof name !== "string") fail(pathOf(at), `a node needs a "type" string, got ${describe(name)}`);
  if (!Object.hasOwn(contentSchema.nodes, name))
    fail(pathOf(at), `unknown node type ${quoted(name)}${suggestion(name, contentSchema.nodes)}`);
  return contentSchema.nodes[name];
}

function checkNode(
  json: Record<string, unknown>,
  type: NodeType,
  at: At,
  depth: number,
  parent: NodeType | null,
  counter: { nodes: number },
): void {
  if (depth > MAX_DEPTH) fail(pathOf(at), `the document is nested too deeply (at most ${MAX_DEPTH} levels)`);
  if (++counter.nodes > MAX_NODES) fail(pathOf(at), `the document has too many nodes (at most ${MAX_NODES})`);
  for (const key in json) {
    if (!NODE_KEYS.has(key) && Object.hasOwn(json, key))
      fail(pathOf(at), `unknown key ${quoted(key)} on ${quoted(type.name)} (a node has type, attrs, content, marks, text)`);
  }

  if (type.isText) {
    if (typeof json.text !== "string" || json.text === "") fail(pathOf(at), `a text node needs a non-empty "text" string`);
    if (json.content !== undefined) fail(pathOf(at), "a text node cannot have content");
  } else if (json.text !== undefined) {
    fail(pathOf(at), `only text nodes have "text"; ${quoted(type.name)} does not`);
  }
  // Most nodes (text, paragraphs, list items) have no attributes and no rules: nothing to check.
  if (json.attrs !== undefined || type.spec.attrs) checkAttrs(json.attrs, type.name, type.spec.attrs ?? {}, () => pathOf(at));
  if (json.marks !== undefined) checkMarks(json.marks, parent, at);

  const content = json.content;
  if (content === undefined) return checkEnd(type.contentMatch, type, at);
  if (!Array.isArray(content)) fail(pathOf(at), `"content" must be an array, got ${describe(content)}`);
  if (type.isLeaf && content.length > 0) fail(pathOf(at), `${quoted(type.name)} cannot have content`);
  let match: ContentMatch = type.contentMatch;
  for (let i = 0; i < content.length; i++) {
    const child: unknown = content[i];
    const childAt: At = { parent: at, index: i };
    const childType = nodeTypeOf(child, childAt);
    const next = match.matchType(childType);
    if (!next) fail(pathOf(childAt), notAllowed(childType, type, match));
    match = next;
    checkNode(child as Record<string, unknown>, childType, childAt, depth + 1, type, counter);
  }
  checkEnd(match, type, at);
}

function expected(match: ContentMatch): string {
  const names = Array.from({ length: match.edgeCount }, (_, i) => match.edge(i).type.name);
  const shown = names.length > 10 ? [...names.slice(0, 10), "…"] : names;
  return shown.join(", ");
}

function notAllowed(child: NodeType, parent: NodeType, match: ContentMatch): string {
  const what = `${quoted(child.name)} is not allowed inside ${quoted(parent.name)}`;
  if (parent.isLeaf) return `${quoted(parent.name)} cannot have content`;
  if (child.isInline && !parent.inlineContent) return `${what}: text and inline nodes must sit in a paragraph, heading or other text block`;
  if (child.isBlock && parent.inlineContent)
    return `${what}: it holds only text${parent.spec.content === "text*" ? "" : " and inline nodes"}`;
  return match.edgeCount ? `${what} here (expected ${expected(match)})` : `${what} here (nothing more may follow)`;
}

function checkEnd(match: ContentMatch, type: NodeType, at: At): void {
  if (match.validEnd) return;
  const needs = expected(match);
  if (type === contentSchema.topNodeType) fail(pathOf(at), "the document is empty: it needs at least one block (e.g. a paragraph)");
  fail(pathOf(at), `${quoted(type.name)} is incomplete: it needs ${match.edgeCount > 1 ? `one of ${needs}` : needs} at the end`);
}

/** `where`: the path of the node or mark, worked out only for a message. */
function checkAttrs(attrs: unknown, typeName: string, known: Record<string, { default?: unknown }>, where: () => string): void {
  const here = () => `${where() ? where() + "." : ""}attrs`;
  if (attrs !== undefined && attrs !== null && !isObject(attrs)) fail(here(), `must be an object, got ${describe(attrs)}`);
  const given = (attrs ?? {}) as Record<string, unknown>;
  const rules = ATTR_RULES[typeName] ?? {};
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(rules, key) || !Object.hasOwn(known, key)) {
      const names = Object.keys(rules);
      fail(
        here(),
        `unknown attribute ${quoted(key)} for ${quoted(typeName)} ` +
          `(${names.length ? `known: ${names.join(", ")}` : "it has no attributes"})`,
      );
    }
  }
  for (const key in rules) {
    if (!Object.hasOwn(known, key)) continue;
    const missing = given[key] === undefined;
    const problem = rules[key](missing ? known[key].default : given[key]);
    if (problem) fail(`${here()}.${key}`, missing ? `is required (${problem})` : problem);
  }
}

function checkMarks(marks: unknown, parent: NodeType | null, at: At): void {
  const here = () => `${pathOf(at) ? pathOf(at) + "." : ""}marks`;
  if (!Array.isArray(marks)) fail(here(), `must be an array, got ${describe(marks)}`);
  if (marks.length > MAX_MARKS) fail(here(), `at most ${MAX_MARKS} marks on one node`);
  const built: Mark[] = [];
  for (let i = 0; i < marks.length; i++) {
    const json: unknown = marks[i];
    const markPath = () => `${here()}[${i}]`;
    if (!isObject(json)) fail(markPath(), `expected a mark object, got ${describe(json)}`);
    for (const key of Object.keys(json)) {
      if (!MARK_KEYS.has(key)) fail(markPath(), `unknown key ${quoted(key)} (a mark has type and attrs)`);
    }
    if (typeof json.type !== "string") fail(markPath(), `a mark needs a "type" string, got ${describe(json.type)}`);
    if (!Object.hasOwn(contentSchema.marks, json.type))
      fail(markPath(), `unknown mark type ${quoted(json.type)}${suggestion(json.type, contentSchema.marks)}`);
    const type: MarkType = contentSchema.marks[json.type];
    if (!parent || !parent.allowsMarkType(type)) {
      fail(markPath(), `mark ${quoted(type.name)} is not allowed ${parent ? `inside ${quoted(parent.name)}` : "on the document"}`);
    }
    checkAttrs(json.attrs, type.name, type.spec.attrs ?? {}, markPath);
    const mark = type.create(json.attrs as Record<string, unknown> | undefined);
    for (const other of built) {
      if (other.eq(mark)) fail(markPath(), `duplicate mark ${quoted(type.name)}`);
      if (other.type === type && type.excludes(type)) fail(markPath(), `mark ${quoted(type.name)} appears twice with different attributes`);
      if (other.type !== type && (type.excludes(other.type) || other.type.excludes(type))) {
        fail(markPath(), `mark ${quoted(type.name)} cannot be combined with ${quoted(other.type.name)}`);
      }
    }
    built.push(mark);
  }
}
