/**
 * Mentions in comment bodies. Bodies are plain text; a mention is written
 *
 *     @[Display Name](userId)
 *
 * (the name as it was when written, for readers of the raw text; the id is what counts). The
 * editor inserts this form; anything else that looks like a mention ("@ann") is just text.
 */
const MENTION = /@\[([^\]\n]{1,200})\]\(([A-Za-z0-9-]{1,100})\)/g;

/** The ids mentioned in a body, each once, in order of first appearance. */
export function mentionedIds(body: string): string[] {
  const ids = new Set<string>();
  for (const m of body.matchAll(MENTION)) ids.add(m[2]);
  return [...ids];
}
