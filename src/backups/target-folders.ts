/**
 * Which folders may receive backup copies. A copy holds every page and every password hash, and
 * the folder target writes where it is told, as the account Cairn runs as (often root in a
 * container): a folder of the system, of Cairn's own binary or of its data is refused, by the
 * path given and by the real path its symbolic links lead to.
 *
 * - Refused with everything inside them: the system's own folders (configuration, programs,
 *   libraries, kernel and device files, boot, runtime state, root's home) and the folder of
 *   the running binary. /run/media is the exception: desktops mount removable disks there.
 * - Refused themselves, not what is inside them: /, and the folders where disks, homes and
 *   services live (/mnt/usb-disk/cairn is the usual answer; /mnt alone would scatter copies
 *   among every mount).
 * - Refused: Cairn's data directory, anything inside it, and any folder holding it (a copy
 *   there is lost with the data, or mixes with its files).
 */
import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";

const SYSTEM_TREES = [
  "/etc",
  "/root",
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/proc",
  "/sys",
  "/dev",
  "/boot",
  "/run",
  "/var/run",
  "/var/lock",
];
const TREE_EXCEPTIONS = ["/run/media"];
const SYSTEM_FOLDERS = ["/", "/home", "/mnt", "/media", "/srv", "/opt", "/var", "/var/lib", "/tmp", "/var/tmp", "/run/media"];

/** Control characters (C0, DEL, C1) and the invisible ones that make a path read as another. */
export const UNSEEN_IN_PATH = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

const inside = (path: string, tree: string) => path === tree || path.startsWith(tree === "/" ? "/" : tree + sep);

/** The path with its symbolic links followed, as far as it exists (the rest appended as given). */
export function realPathOf(path: string): string {
  let head = resolve(path);
  const rest: string[] = [];
  while (!existsSync(head) && head !== dirname(head)) {
    rest.unshift(basename(head));
    head = dirname(head);
  }
  try {
    return join(realpathSync(head), ...rest);
  } catch {
    return resolve(path);
  }
}

/** The folder of the running binary (bun's own when run from source), links followed. */
export function binaryFolder(): string {
  return realPathOf(dirname(process.execPath));
}

/** Why copies may not go to this absolute, resolved path (in words that end a sentence), or null. */
function refusedAsIs(path: string, dataDir: string): string | null {
  const tree = SYSTEM_TREES.find((t) => inside(path, t));
  if (tree && !TREE_EXCEPTIONS.some((e) => path !== e && inside(path, e)))
    return (
      `is the system folder ${tree}${path === tree ? "" : " or inside it"}: choose a folder of ` +
      `its own on an external disk or mount, such as /mnt/backup-disk/cairn`
    );
  if (SYSTEM_FOLDERS.includes(path))
    return (
      `is the system folder ${path} itself: choose a folder of its own inside it, such ` +
      `as ${path === "/" ? "/mnt/backup-disk" : path}/cairn-backups`
    );
  if (inside(path, dataDir))
    return `is inside Cairn's data directory (${dataDir}); a copy there is lost with it: choose an external disk or mount`;
  if (inside(dataDir, path))
    return (
      `holds Cairn's data directory (${dataDir}); copies there would mix with the data's own ` +
      `files: choose a folder of its own on an external disk or mount`
    );
  // A binary at the root of the file system (a container image of one file) leaves only / itself.
  const binary = binaryFolder();
  if (binary !== "/" && inside(path, binary))
    return `is the folder of Cairn's program (${binary}) or inside it: choose a folder of its own on an external disk or mount`;
  return null;
}

/**
 * Why copies may not go to `path` (absolute), by the path given and by where its links lead;
 * null when they may. `dataDir` is Cairn's data directory.
 */
export function refusedFolder(path: string, dataDir: string): string | null {
  const given = resolve(path);
  const data = realPathOf(dataDir);
  const why = refusedAsIs(given, resolve(dataDir)) ?? refusedAsIs(given, data);
  if (why) return why;
  const real = realPathOf(given);
  if (real === given) return null;
  const followed = refusedAsIs(real, data);
  return followed && `is a symbolic link (or inside one) to ${real}, which ${followed}`;
}
