/**
 * Random edits of a page, as someone editing through the API would make them, for the property
 * tests of tracked changes. Only what the schema can mark is edited (no code block text, no
 * attributes, no text block emptied), so accept all / reject all must give back either side exactly.
 */
import { seededRandom, type SampleNode } from "./sample";
import { contentSchema } from "./schema";

const WORDS = ["alpha", "beta", "release", "the", "管理", "plan", "x", "deploy", "review", "mountain"];

/** Arrays of sibling blocks (the doc's, a list's, a list item's) and the text nodes of text blocks. */
function parts(doc: SampleNode) {
  const blockLists: SampleNode[][] = [];
  const texts: SampleNode[] = [];
  const walk = (node: SampleNode) => {
    if (node.type === "codeBlock") return;
    if (node.type === "text") texts.push(node);
    // Tables and details have a fixed shape: their rows, cells and parts are not moved about.
    else if (node.content && !["paragraph", "heading", "detailsSummary", "details", "table", "tableRow"].includes(node.type))
      blockLists.push(node.content);
    node.content?.forEach(walk);
  };
  walk(doc);
  return { blockLists, texts };
}

/** Blocks the schema cannot mark (code, atoms) are left where they are. */
const fixed = (node: SampleNode) =>
  ["codeBlock", "image", "attachment", "horizontalRule"].includes(node.type) || JSON.stringify(node).includes('"codeBlock"');

/**
 * `count` random edits of a copy of `doc`. With `untracked`, some edit what the schema cannot
 * mark: code, atoms, attributes, emptied text blocks.
 */
export function randomEdits<T extends object>(doc: T, seed: number, count: number, opts: { untracked?: boolean } = {}): T {
  let out = structuredClone(doc) as SampleNode;
  const rnd = seededRandom(seed);
  for (let n = 0; n < count; n++) {
    const before = structuredClone(out);
    if (opts.untracked && rnd() < 0.4) untrackedEdit(out, rnd);
    else edit(out, rnd);
    // An edit that breaks the schema (a list item must start with a paragraph) is taken back.
    try {
      contentSchema.nodeFromJSON(out).check();
    } catch {
      out = before;
    }
  }
  return out as T;
}

function edit(out: SampleNode, rnd: () => number): void {
  const pick = <U>(list: readonly U[]): U => list[Math.floor(rnd() * list.length)];
  const word = () => pick(WORDS);
  const { blockLists, texts } = parts(out);
  const node = pick(texts);
  const words = node.text!.split(" ");
  const at = Math.floor(rnd() * words.length);
  const list = pick(blockLists);
  const index = Math.floor(rnd() * list.length);
  const movable = list.length > 1 && !fixed(list[index]);
  switch (Math.floor(rnd() * 8)) {
    case 0: // replace a word
      words[at] = word();
      node.text = words.join(" ");
      break;
    case 1: // add words
      words.splice(at, 0, word(), ...(rnd() < 0.5 ? [word()] : []));
      node.text = words.join(" ");
      break;
    case 2: // delete a word, keeping some text
      if (words.length > 1) words.splice(at, 1);
      node.text = words.join(" ") || "x";
      break;
    case 3: // delete a block (a list keeps one item)
      if (movable) list.splice(index, 1);
      break;
    case 4: // add a paragraph
      list.splice(Math.floor(rnd() * (list.length + 1)), 0, {
        type: "paragraph",
        content: [{ type: "text", text: `${word()} ${word()} ${word()}` }],
      });
      break;
    case 5: // make a word bold (code excludes bold)
      if (!node.marks?.some((m) => m.type === "code" || m.type === "bold")) node.marks = [...(node.marks ?? []), { type: "bold" }];
      break;
    case 6: {
      // move a block
      if (movable) {
        const [moved] = list.splice(index, 1);
        const to = Math.floor(rnd() * (list.length + 1));
        list.splice(to, 0, moved);
      }
      break;
    }
    default: // duplicate a block
      if (!fixed(list[index])) list.splice(index, 0, structuredClone(list[index]));
  }
}

function untrackedEdit(out: SampleNode, rnd: () => number): void {
  const nodes: SampleNode[] = [];
  const lists: SampleNode[][] = [];
  const walk = (node: SampleNode) => {
    nodes.push(node);
    if (node.content && !["paragraph", "heading", "codeBlock", "detailsSummary", "details", "table", "tableRow"].includes(node.type))
      lists.push(node.content);
    node.content?.forEach(walk);
  };
  walk(out);
  const pick = <U>(list: readonly U[]): U => list[Math.floor(rnd() * list.length)];
  const of = (type: string) => nodes.filter((n) => n.type === type);
  const list = pick(lists);
  switch (Math.floor(rnd() * 6)) {
    case 0: // a heading's level
      for (const h of of("heading").slice(0, 1)) h.attrs = { level: 1 + Math.floor(rnd() * 6) };
      break;
    case 1: // code
      for (const c of of("codeBlock").slice(0, 1)) c.content = [{ type: "text", text: `changed(${Math.floor(rnd() * 100)})` }];
      break;
    case 2: // remove any block, code and atoms included
      if (list.length > 1) list.splice(Math.floor(rnd() * list.length), 1);
      break;
    case 3: // add an atom
      list.splice(
        Math.floor(rnd() * (list.length + 1)),
        0,
        pick<SampleNode>([
          { type: "horizontalRule" },
          { type: "image", attrs: { src: "https://example.com/a.png" } },
          { type: "codeBlock", attrs: { language: "sql" }, content: [{ type: "text", text: "select 1" }] },
        ]),
      );
      break;
    case 4: // empty a paragraph
      delete pick(of("paragraph")).content;
      break;
    default: // a task ticked, a list renumbered
      for (const t of of("taskItem")) t.attrs = { checked: rnd() < 0.5 };
      for (const o of of("orderedList")) o.attrs = { start: Math.floor(rnd() * 9), type: null };
  }
}
