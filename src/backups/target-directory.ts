/**
 * A folder as a backup target: an external disk or a network mount (NFS, SMB) at an absolute
 * path. Every object is written to `.partial-<name>` beside its place, hashed as it is written,
 * fsynced, then renamed: a copy interrupted at any point leaves whole objects and at most one
 * partial file per folder, which the next copy overwrites. File I/O is asynchronous, in chunks,
 * so a large cairn.db never holds the event loop.
 */
import { mkdir, open, readFile, realpath, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { checkKey, type TargetStorage } from "./target-storage";

const PARTIAL = ".partial-";
const REFUSED = "CAIRN_FOLDER_REFUSED";

/**
 * `refused`: asked of the folder's real path before every write (its links may have been
 * changed since it was set): why copies may not go there, or null.
 */
export function directoryStorage(root: string, refused: (realPath: string) => string | null = () => null): TargetStorage {
  const pathOf = (key: string) => join(root, ...checkKey(key).split("/"));
  const partialOf = (path: string) => join(dirname(path), PARTIAL + basename(path));

  async function syncDir(dir: string) {
    // Makes the rename durable; some network file systems cannot fsync a folder (harmless there).
    const fh = await open(dir, "r").catch(() => null);
    await fh?.sync().catch(() => {});
    await fh?.close();
  }

  async function ensureRoot() {
    const s = await stat(root);
    if (!s.isDirectory()) throw Object.assign(new Error(`${root} is not a folder`), { code: "ENOTDIR" });
    const why = refused(await realpath(root));
    if (why) throw Object.assign(new Error(`${root} ${why}`), { code: REFUSED });
  }

  async function writeWhole(key: string, fill: (fh: import("node:fs/promises").FileHandle) => Promise<void>) {
    await ensureRoot();
    const path = pathOf(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const partial = partialOf(path);
    // A new file of our own: a link left under the partial's name is removed, never followed.
    await rm(partial, { force: true });
    const fh = await open(partial, "wx", 0o600);
    try {
      await fill(fh);
      await fh.sync();
    } catch (err) {
      await fh.close();
      await rm(partial, { force: true });
      throw err;
    }
    await fh.close();
    await rename(partial, path);
    await syncDir(dirname(path));
  }

  return {
    where: `the folder ${root}`,
    async putFile(key, localPath, { sha256, signal, onBytes }) {
      await writeWhole(key, async (fh) => {
        const hasher = new Bun.CryptoHasher("sha256");
        const reader = Bun.file(localPath).stream().getReader();
        for (;;) {
          const { done, value: chunk } = await reader.read();
          if (done) break;
          if (signal.aborted) {
            await reader.cancel();
            throw signal.reason ?? new Error("aborted");
          }
          hasher.update(chunk);
          let at = 0;
          while (at < chunk.byteLength) at += (await fh.write(chunk, at)).bytesWritten;
          onBytes(chunk.byteLength);
        }
        const got = hasher.digest("hex");
        if (got !== sha256)
          throw new Error(
            `${localPath} does not match its recorded hash (${sha256.slice(0, 12)}…, read ${got.slice(0, 12)}…): the local copy is damaged`,
          );
      });
    },
    async putBytes(key, bytes) {
      await writeWhole(key, async (fh) => {
        let at = 0;
        while (at < bytes.byteLength) at += (await fh.write(bytes, at)).bytesWritten;
      });
    },
    async getBytes(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw err;
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    async sizes(keys) {
      const out = new Map<string, number>();
      for (const key of keys) {
        const s = await stat(pathOf(key)).catch(() => null);
        if (s?.isFile()) out.set(key, s.size);
      }
      return out;
    },
    explain(err) {
      const code = (err as NodeJS.ErrnoException)?.code;
      switch (code) {
        case REFUSED:
          return `${(err as Error).message}. Nothing was written.`;
        case "ENOENT":
          return `The folder ${root} does not exist. Mount the disk or share, or create the folder, then test again.`;
        case "ENOTDIR":
          return `${root} is not a folder. Give the path of a folder on the external disk or mount.`;
        case "EACCES":
        case "EPERM":
          return (
            `The account Cairn runs as may not write in ${root}. Give it write ` +
            `permission there (for example chown it to that account).`
          );
        case "EROFS":
          return `${root} is on a read-only file system. Mount it writable.`;
        case "ENOSPC":
        case "EDQUOT":
          return `The disk holding ${root} is full (or over its quota). Free some space or choose another disk.`;
        case "EIO":
        case "ESTALE":
        case "ENOTCONN":
        case "EHOSTDOWN":
          return `${root} cannot be read or written (${code}): the disk or network share may have gone away. Check the mount.`;
        default:
          return `Writing to ${root} failed: ${(err as Error)?.message ?? String(err)}`;
      }
    },
  };
}
