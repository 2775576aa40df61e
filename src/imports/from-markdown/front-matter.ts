/**
 * YAML front matter (`---` … `---` at the very top, as Obsidian, Jekyll, Hugo and most static
 * site generators write it). What a page can hold is taken: `title`, `tags` or `labels` (a list
 * or a comma-separated line) and the creation and update dates; the rest is dropped with the
 * block. Front matter that is not valid YAML is dropped too (it is metadata, never body text).
 */

export interface FrontMatter {
  title: string | null;
  labels: string[];
  createdAt: string | undefined;
  updatedAt: string | undefined;
}

const MAX_FRONT_MATTER = 64 * 1024;
const BLOCK = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

export function splitFrontMatter(markdown: string): { body: string; meta: FrontMatter } {
  const meta: FrontMatter = { title: null, labels: [], createdAt: undefined, updatedAt: undefined };
  const match = BLOCK.exec(markdown);
  if (!match) return { body: markdown.replace(/^\uFEFF/, ""), meta };
  const body = markdown.slice(match[0].length);
  // Metadata is a few lines; a block larger than this is not front matter worth parsing.
  if (match[1].length > MAX_FRONT_MATTER) return { body, meta };
  let data: unknown;
  try {
    data = Bun.YAML.parse(match[1]);
  } catch {
    return { body, meta };
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) return { body, meta };
  const fields = data as Record<string, unknown>;
  const title = fields.title;
  if (typeof title === "string" || typeof title === "number") meta.title = String(title).trim() || null;
  meta.labels = labelsOf(fields.tags ?? fields.labels ?? fields.tag);
  meta.createdAt = dateOf(fields.created ?? fields.date ?? fields.created_at ?? fields.createdAt);
  meta.updatedAt = dateOf(fields.updated ?? fields.modified ?? fields.lastmod ?? fields.updated_at ?? fields.updatedAt);
  return { body, meta };
}

function labelsOf(value: unknown): string[] {
  const raw = Array.isArray(value) ? value : typeof value === "string" ? value.split(/[,\s]+/) : [];
  const names = raw
    .filter((v): v is string | number => typeof v === "string" || typeof v === "number")
    .map((v) => String(v).trim().replace(/^#/, ""))
    .filter(Boolean);
  return [...new Set(names)];
}

function dateOf(value: unknown): string | undefined {
  const date = value instanceof Date ? value : typeof value === "string" || typeof value === "number" ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
}
