/**
 * A comment is stored with its mentions as `@[Name](userId)` (the form the API reads), but is
 * written as people read it: "@Ada Lovelace". The comment box holds the readable text and the
 * people picked from its list; the stored form is made from both when the comment is sent, and
 * taken apart again when a comment is edited.
 */

export interface Mentioned {
  id: string;
  name: string;
}

const STORED = /@\[([^\]\n]{1,200})\]\(([A-Za-z0-9-]{1,100})\)/g;

/** The readable text of a stored body, and the people it mentions. */
export function fromStored(body: string): { text: string; mentioned: Mentioned[] } {
  const mentioned: Mentioned[] = [];
  const text = body.replace(STORED, (_, name: string, id: string) => {
    mentioned.push({ id, name });
    return `@${name}`;
  });
  return { text, mentioned };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * "@Name" for any of these names, as a word of its own (not inside an address or a longer name),
 * longer names first; the name is the pattern's one group.
 */
export function mentionPattern(names: Iterable<string>, flags = "gu"): RegExp | null {
  const list = [...new Set(names)].filter((n) => n && !/[\]\n]/.test(n)).sort((a, b) => b.length - a.length);
  if (!list.length) return null;
  return new RegExp(`(?<![\\p{L}\\p{N}_@\\]])@(${list.map(escape).join("|")})(?![\\p{L}\\p{N}_])`, flags);
}

/**
 * The stored form of what was written: every "@Name" of someone picked, standing as a word of its
 * own, becomes their mention. Longer names are matched first ("@Ada Lovelace" before "@Ada"); a
 * name typed by hand without picking stays text. Two people picked under the same name are told
 * apart by the order they were picked in: the n-th "@Name" is the n-th picked (the last one picked
 * covers any more).
 */
export function toStored(text: string, mentioned: Mentioned[]): string {
  const byName = new Map<string, string[]>();
  for (const m of mentioned) byName.set(m.name, [...(byName.get(m.name) ?? []), m.id]);
  const pattern = mentionPattern(byName.keys());
  if (!pattern) return text;
  const seen = new Map<string, number>();
  return text.replace(pattern, (_, name: string) => {
    const ids = byName.get(name)!;
    const n = seen.get(name) ?? 0;
    seen.set(name, n + 1);
    return `@[${name}](${ids[Math.min(n, ids.length - 1)]})`;
  });
}
