/**
 * The accessible name of a task item's box: the task's own words (its nested task lists left
 * out), or "Done" / "Not done" for an empty task. Shared by the reading view (React) and the
 * server's HTML, which must draw the same markup. Imports nothing, so the reading bundle may
 * take it without TipTap.
 */
interface Node {
  type?: string;
  text?: string;
  content?: unknown[];
}

/** A task's own words, its nested task lists left out (the server finds a task again by them). */
export function taskWords(node: unknown): string {
  return words(node as Node);
}

function words(node: Node): string {
  if (node.type === "text") return node.text ?? "";
  return (node.content ?? [])
    .filter((c) => (c as Node).type !== "taskList")
    .map((c) => words(c as Node))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
}

export function taskName(node: unknown, checked: boolean): string {
  return words(node as Node) || (checked ? "Done" : "Not done");
}
