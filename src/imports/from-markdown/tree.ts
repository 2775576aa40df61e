/**
 * The page tree of a Markdown zip, from its folders and file names alone:
 *
 * - every Markdown file is a page, under the page of its folder;
 * - a folder holding Markdown (at any depth) is a page too. Its body is a same-named file
 *   beside it (`Guides.md` next to `Guides/`: Notion, Outline), else its `index.md` or
 *   `README.md`, else a same-named file inside (`Guides/Guides.md`: Obsidian's folder notes);
 *   without one it is a page with an empty body holding its children;
 * - folders without Markdown (`images/`, `attachments/`) are not pages: their files are read
 *   when a page links to them;
 * - siblings are ordered by name, numbers compared as numbers ("2 Setup" before "10 Deploy").
 */
import { baseName, folderOf, naturalOrder, type ZipFile } from "./files";

export interface PlannedPage {
  ref: string;
  parent: string | null;
  position: number;
  /** The title the name gives (front matter or a first heading may replace it). */
  nameTitle: string;
  /** The Markdown file holding the body, or null for a folder without one. */
  file: ZipFile | null;
  /** A zip path (of the Markdown file, else of the folder) for messages. */
  sourcePath: string;
  /** The folder whose files belong to this page when nothing links to them, or null. */
  folder: string | null;
}

export const isMarkdownPath = (path: string) => /\.(md|markdown|mdown|mkd)$/i.test(path);

/** Notion appends the page's 32-hex id to every exported name: "Meeting notes 1a2b…". */
export function titleFromName(name: string): string {
  const bare = name.replace(/\.(md|markdown|mdown|mkd)$/i, "");
  return bare.replace(/\s+[0-9a-f]{32}$/i, "").trim() || bare;
}

const FOLDER_BODY_NAMES = ["index", "readme"];

/**
 * Plans the pages of `files` (zip paths relative to the content's top, hidden files already
 * left out). `logical(file)` is the path a file is planned under.
 */
export function planTree(files: ZipFile[], logical: (file: ZipFile) => string, nextRef: () => string): PlannedPage[] {
  const markdown = new Map<string, ZipFile>();
  for (const file of files) if (isMarkdownPath(logical(file))) markdown.set(logical(file), file);

  // Folders holding Markdown at any depth, with their direct children.
  const folders = new Map<string, { subfolders: Set<string>; files: string[] }>([["", { subfolders: new Set(), files: [] }]]);
  const folder = (path: string) => {
    let entry = folders.get(path);
    if (!entry) folders.set(path, (entry = { subfolders: new Set(), files: [] }));
    return entry;
  };
  for (const path of markdown.keys()) {
    let dir = folderOf(path);
    folder(dir).files.push(path);
    while (dir !== "") {
      const parent = folderOf(dir);
      folder(parent).subfolders.add(dir);
      dir = parent;
    }
  }

  const bodyOf = new Map<string, string>(); // folder → its body file
  const usedAsBody = new Set<string>();
  for (const dir of folders.keys()) {
    if (dir === "") continue;
    const name = baseName(dir).toLowerCase();
    const beside = folder(folderOf(dir)).files.find((f) => stem(f) === name);
    const inside = folder(dir).files;
    const body =
      beside ?? FOLDER_BODY_NAMES.map((n) => inside.find((f) => stem(f) === n)).find(Boolean) ?? inside.find((f) => stem(f) === name);
    if (body) {
      bodyOf.set(dir, body);
      usedAsBody.add(body);
    }
  }

  const sortedChildren = (dir: string) => {
    const entry = folder(dir);
    const children: { name: string; file?: string; folder?: string }[] = [
      ...entry.files.filter((f) => !usedAsBody.has(f)).map((f) => ({ name: baseName(f).replace(/\.[^.]+$/, ""), file: f })),
      ...[...entry.subfolders].map((f) => ({ name: baseName(f), folder: f })),
    ];
    return children.sort((a, b) => naturalOrder(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  };

  // Depth first without recursion: a zip path may nest folders thousands deep.
  const pages: PlannedPage[] = [];
  const stack = [{ parent: null as string | null, children: sortedChildren(""), next: 0 }];
  while (stack.length) {
    const frame = stack.at(-1)!;
    if (frame.next === frame.children.length) {
      stack.pop();
      continue;
    }
    const position = frame.next++;
    const child = frame.children[position];
    const ref = nextRef();
    const bodyPath = child.folder !== undefined ? bodyOf.get(child.folder) : child.file;
    pages.push({
      ref,
      parent: frame.parent,
      position,
      nameTitle: titleFromName(child.name),
      file: bodyPath ? markdown.get(bodyPath)! : null,
      sourcePath: bodyPath ?? `${child.folder}/`,
      folder: child.folder ?? null,
    });
    if (child.folder !== undefined) stack.push({ parent: ref, children: sortedChildren(child.folder), next: 0 });
  }
  return pages;
}

function stem(path: string): string {
  return baseName(path)
    .replace(/\.[^.]+$/, "")
    .toLowerCase();
}
