/**
 * Where each page of a static site export lives: folders mirroring the tree, named from the
 * titles (`guides/install/index.html`), unique among siblings, the space's front page at the
 * root. Everything links relatively with an explicit `index.html`, because a browser opening
 * files from disk does not look for an index in a folder.
 */

/** A page of the tree as the export needs it (pages/tree.ts's TreeNode, nested). */
export interface TreeInput {
  id: string;
  title: string;
  emoji: string | null;
  children: TreeInput[];
}

export interface SitePage {
  /** Its place in tree order (depth first, siblings by position): the id the client scripts use. */
  index: number;
  id: string;
  title: string;
  emoji: string | null;
  /** The parent's index, or -1 at the top level. */
  parent: number;
  depth: number;
  /** Its folder, relative to the root, with a trailing slash: "guides/install/". */
  dir: string;
  children: number[];
}

const NAME_MAX = 48;
/**
 * Folders deeper down get shorter names so a path stays under ~200 characters (Windows refuses
 * paths past 260 with the folder it is unpacked into), never shorter than SHORTEST.
 */
const DIR_BUDGET = 200;
const SHORTEST = 8;
// Names Windows will not create as files or folders, whatever the extension.
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/;

/**
 * A folder name from a title: letters and digits of any script, lower case, accents dropped, runs of
 * anything else as one "-", at most `max` characters (48; fewer deep down, see DIR_BUDGET).
 * Never starts with "_", so the site's own `_site/` and `_files/` cannot be taken.
 */
export function folderName(title: string, max = NAME_MAX): string {
  const slug = Array.from(
    title
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, "-")
      .replace(/^-+|-+$/g, ""),
  )
    .slice(0, max)
    .join("")
    .replace(/-+$/, "")
    .normalize("NFC");
  if (slug === "") return "page";
  return RESERVED.test(slug) ? `${slug}-page` : slug;
}

/** The pages in tree order with their folders; names taken twice among siblings get "-2", "-3"… */
export function planSite(roots: TreeInput[]): SitePage[] {
  const out: SitePage[] = [];
  const visit = (nodes: TreeInput[], parent: SitePage | null) => {
    const taken = new Set<string>();
    for (const node of nodes) {
      const base = folderName(node.title, Math.max(SHORTEST, Math.min(NAME_MAX, DIR_BUDGET - (parent?.dir.length ?? 0) - 4)));
      let name = base;
      for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
      taken.add(name);
      const page: SitePage = {
        index: out.length,
        id: node.id,
        title: node.title,
        emoji: node.emoji,
        parent: parent?.index ?? -1,
        depth: parent ? parent.depth + 1 : 1,
        dir: `${parent?.dir ?? ""}${name}/`,
        children: [],
      };
      out.push(page);
      parent?.children.push(page.index);
      visit(node.children, page);
    }
  };
  visit(roots, null);
  return out;
}

/** "../" once per folder between a page at `depth` and the root ("" at the root itself). */
export const rootPrefix = (depth: number) => "../".repeat(depth);

/** A folder path as a URL path: each segment percent-encoded (titles may hold any letter). */
export const encodeDir = (dir: string) =>
  dir
    .split("/")
    .map((segment) => encodeURIComponent(segment))
    .join("/");

/** The href from a page at `fromDepth` to the page whose folder is `dir` ("" = the front page). */
export const hrefTo = (fromDepth: number, dir: string) => `${rootPrefix(fromDepth)}${encodeDir(dir)}index.html`;

// Characters Windows refuses in names, and what a name may not end with there.
const UNSAFE_FILE = /[<>:"/\\|?*\u0000-\u001f\u007f]/g;

/** An attachment's filename made safe as a file name on every system (already cleaned at upload). */
export function fileName(name: string): string {
  const safe = name
    .normalize("NFC")
    .replace(UNSAFE_FILE, "_")
    .replace(/[. ]+$/, "");
  if (safe === "" || /^\.+$/.test(safe)) return "file";
  const stem = safe.split(".")[0]!.toLowerCase();
  return RESERVED.test(stem) ? `_${safe}` : safe;
}
