/**
 * The word-level diff inside one pair of text blocks. Text is cut into words, runs of spaces and
 * single punctuation signs (each Chinese/Japanese character on its own, as they are written
 * without spaces); a token's identity is its text and its formatting marks, so a word that was
 * made bold shows as the plain word deleted and the bold one inserted. Inline atoms (mentions,
 * hard breaks) are tokens too, and carry the marks like text does.
 */
import { diffArrays } from "diff";
import { Fragment, type Mark, type Node as PMNode } from "@tiptap/pm/model";
import { isTrackedMark } from "./tracked-resolve";

interface Token {
  node: PMNode;
  key: string;
  /** Whitespace only: not worth keeping as common ground between two changes. */
  blank: boolean;
  /** Deleted by an earlier change still pending: not part of the diff, kept where it is. */
  gone: boolean;
  /** Inserted by an earlier change still pending: if the incoming version drops it, it just goes. */
  pending: boolean;
}

/** A word: letters and digits, or one Chinese/Japanese character. */
const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}\p{M}_]+/u;
const TOKEN = new RegExp(`\\s+|${WORD.source}|.`, "gsu");

/** The distinct words of a text, lower-cased (for how alike two blocks are). */
export function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(new RegExp(WORD.source, "gu")) ?? []);
}

function tokens(block: PMNode): Token[] {
  const out: Token[] = [];
  block.forEach((child) => {
    const base = child.marks.filter((m) => !isTrackedMark(m));
    const gone = child.marks.some((m) => m.type.name === "deletion");
    const pending = child.marks.some((m) => m.type.name === "insertion");
    if (child.isText) {
      const marks = JSON.stringify(base.map((m) => m.toJSON()));
      for (const piece of child.text!.match(TOKEN) ?? []) {
        out.push({ node: child.type.schema.text(piece, child.marks), key: `${marks}\u0000${piece}`, blank: !piece.trim(), gone, pending });
      }
    } else {
      out.push({ node: child, key: JSON.stringify(child.mark(base).toJSON()), blank: false, gone, pending });
    }
  });
  return out;
}

type Op = { kind: "same" | "removed"; w: Token; i?: Token } | { kind: "added"; i: Token } | { kind: "old"; w: Token };

function diffTokens(ws: Token[], is: Token[], whole: boolean): Op[] {
  const ops: Op[] = [];
  let wAt = 0;
  let iAt = 0;
  const nextLive = () => {
    while (ws[wAt].gone) ops.push({ kind: "old", w: ws[wAt++] });
    return ws[wAt++];
  };
  const live = ws.filter((t) => !t.gone);
  const parts = whole
    ? [
        { removed: true, added: false, count: live.length },
        { removed: false, added: true, count: is.length },
      ]
    : diffArrays(
        live.map((t) => t.key),
        is.map((t) => t.key),
      );
  for (const part of parts) {
    for (let n = 0; n < part.count; n++) {
      if (part.added) ops.push({ kind: "added", i: is[iAt++] });
      else if (part.removed) ops.push({ kind: "removed", w: nextLive() });
      else ops.push({ kind: "same", w: nextLive(), i: is[iAt++] });
    }
  }
  while (wAt < ws.length) ops.push({ kind: "old", w: ws[wAt++] });
  return ops;
}

/** Spaces left in common between two changes would cut one edit in two: they join the change. */
function joinAcrossSpaces(ops: Op[]): Op[] {
  const out: Op[] = [];
  const changed = (op: Op) => op.kind === "added" || op.kind === "removed";
  for (let n = 0; n < ops.length; n++) {
    const op = ops[n];
    if (op.kind !== "same" || !op.w.blank) {
      out.push(op);
      continue;
    }
    let end = n;
    while (end < ops.length && (ops[end].kind === "old" || (ops[end].kind === "same" && (ops[end] as { w: Token }).w.blank))) end++;
    const before = out.findLast((o) => o.kind !== "old");
    if (before && changed(before) && end < ops.length && changed(ops[end])) {
      for (const o of ops.slice(n, end)) {
        if (o.kind === "same") out.push({ kind: "removed", w: o.w }, { kind: "added", i: o.i! });
        else out.push(o);
      }
    } else out.push(...ops.slice(n, end));
    n = end - 1;
  }
  return out;
}

/** The merged content of a working and an incoming text block, the changes marked; `whole`: all replaced. */
export function tokenDiff(w: PMNode, i: PMNode, newHunk: () => { mark(name: "insertion" | "deletion"): Mark }, whole = false): Fragment {
  const ops = joinAcrossSpaces(diffTokens(tokens(w), tokens(i), whole));
  const out: PMNode[] = [];
  for (let n = 0; n < ops.length; ) {
    if (ops[n].kind === "same") {
      out.push((ops[n++] as { w: Token }).w.node);
      continue;
    }
    // A run of changes: what went (in the working order), then what came, under one id.
    let end = n;
    while (end < ops.length && ops[end].kind !== "same") end++;
    const run = ops.slice(n, end);
    const hunk = newHunk();
    for (const op of run) {
      if (op.kind === "old") out.push(op.w.node);
      else if (op.kind === "removed" && !op.w.pending) out.push(op.w.node.mark(hunk.mark("deletion").addToSet(op.w.node.marks)));
    }
    for (const op of run) if (op.kind === "added") out.push(op.i.node.mark(hunk.mark("insertion").addToSet(op.i.node.marks)));
    n = end;
  }
  return Fragment.fromArray(out);
}
