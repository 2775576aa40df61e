/**
 * Who a page document mentions: the `id` of every `mention` node (content/attrs.ts), each once.
 * Runs inside every page create and update, so a document without the word "mention" anywhere
 * is answered without parsing it.
 */
export function contentMentionIds(contentJson: string): string[] {
  if (!contentJson.includes('"mention"')) return [];
  const ids = new Set<string>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    const n = node as { type?: unknown; attrs?: { id?: unknown }; content?: unknown };
    if (n.type === "mention" && typeof n.attrs?.id === "string") ids.add(n.attrs.id);
    if (Array.isArray(n.content)) for (const child of n.content) walk(child);
  };
  try {
    walk(JSON.parse(contentJson));
  } catch {
    // Stored documents passed the editor schema check; an unreadable one mentions nobody.
  }
  return [...ids];
}

/** A comment body for a notification: mentions as "@Name", whitespace folded, at most 200 characters. */
export function commentExcerpt(body: string): string {
  const text = body
    .replace(/@\[([^\]\n]{1,200})\]\([A-Za-z0-9-]{1,100}\)/g, "@$1")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
