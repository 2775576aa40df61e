/**
 * Inline comment anchors as text quotes (the W3C TextQuoteSelector): the passage, with a few
 * characters either side to tell repeats apart. Reading a page cannot add a `comment` mark to
 * its document (that would be an edit, and a commenter may not edit), so the passage is found
 * again in the drawn page each time; a comment whose words were edited away is "detached".
 * Anchors written by the editor (a `comment` mark, drawn as span[data-comment-id]) come first.
 */
export interface TextAnchor {
  quote: string;
  prefix?: string;
  suffix?: string;
}

const CONTEXT = 24;

export function parseAnchor(json: string | null): TextAnchor | null {
  if (!json) return null;
  try {
    const a = JSON.parse(json) as Partial<TextAnchor>;
    return typeof a.quote === "string" && a.quote
      ? { quote: a.quote, prefix: typeof a.prefix === "string" ? a.prefix : "", suffix: typeof a.suffix === "string" ? a.suffix : "" }
      : null;
  } catch {
    return null;
  }
}

function textNodes(root: Node): Text[] {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const out: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) out.push(n as Text);
  return out;
}

/** The anchor of a selection inside `root`, or null when it is empty or reaches outside. */
export function anchorOfSelection(root: HTMLElement, range: Range): TextAnchor | null {
  if (range.collapsed || !root.contains(range.commonAncestorContainer)) return null;
  const quote = range.toString();
  if (!quote.trim()) return null;
  const before = document.createRange();
  before.setStart(root, 0);
  before.setEnd(range.startContainer, range.startOffset);
  const after = document.createRange();
  after.setStart(range.endContainer, range.endOffset);
  after.setEnd(root, root.childNodes.length);
  return { quote: quote.slice(0, 2000), prefix: before.toString().slice(-CONTEXT), suffix: after.toString().slice(0, CONTEXT) };
}

/** The passage in `root` now, or null when it is gone (the comment is then detached). */
export function locate(root: HTMLElement, anchor: TextAnchor, commentId: string): Range | null {
  const marked = root.querySelectorAll(`[data-comment-id="${CSS.escape(commentId)}"]`);
  if (marked.length) {
    const r = document.createRange();
    r.setStartBefore(marked[0]!);
    r.setEndAfter(marked[marked.length - 1]!);
    return r;
  }
  const nodes = textNodes(root);
  const text = nodes.map((n) => n.data).join("");
  const withContext = (anchor.prefix ?? "") + anchor.quote + (anchor.suffix ?? "");
  let at = text.indexOf(withContext);
  if (at >= 0) at += (anchor.prefix ?? "").length;
  else at = text.indexOf(anchor.quote);
  if (at < 0) return null;
  return rangeAt(nodes, at, at + anchor.quote.length);
}

function rangeAt(nodes: Text[], start: number, end: number): Range {
  const r = document.createRange();
  let pos = 0;
  let started = false;
  for (const n of nodes) {
    const next = pos + n.data.length;
    if (!started && start < next) {
      r.setStart(n, start - pos);
      started = true;
    }
    if (started && end <= next) {
      r.setEnd(n, end - pos);
      break;
    }
    pos = next;
  }
  return r;
}
