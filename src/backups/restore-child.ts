/**
 * Heavy reads of whole database files (a restore's checks, a preview's counts) run in a child
 * process of Cairn's own executable, so the server's event loop never waits on them: one SQLite
 * statement such as PRAGMA integrity_check holds the thread that runs it for seconds on a large
 * file, and cannot be split. The child is `cairn __restore-check MODE ARGS…` (a hidden command,
 * src/main.ts) answering one JSON line. The compiled binary runs itself; from source it is bun
 * with src/main.ts. (A Worker would need its own entry point in the compiled binary.)
 */
import { resolve } from "node:path";
import { rowsOnlyInMain, withAttached } from "../platform/db/compare";
import { describeCopy } from "./queries";
import { checkCopy } from "./restore-test";
import { CHILD_COMMAND } from "./child-command";

export { CHILD_COMMAND };

export interface Losses {
  pages: number;
  versions: number;
  comments: number;
  files: number;
  people: number;
}

/** The rows only the live data has: what a restore would take away. */
export function countLosses(livePath: string, copyPath: string): Losses {
  return withAttached(livePath, copyPath, (db) => ({
    pages: rowsOnlyInMain(db, "pages", ["id"]),
    versions: rowsOnlyInMain(db, "page_versions", ["page_id", "version_number"]),
    comments: rowsOnlyInMain(db, "comments", ["id"]),
    files: rowsOnlyInMain(db, "attachments", ["id"]),
    people: rowsOnlyInMain(db, "users", ["id"]),
  }));
}

/** How this executable runs one of its own commands. */
export function selfCommand(args: string[]): string[] {
  const compiled = import.meta.path.startsWith("/$bunfs/") || import.meta.path.includes("~BUN");
  return compiled ? [process.execPath, ...args] : [process.execPath, resolve(import.meta.dir, "../main.ts"), ...args];
}

/** Runs `__restore-check …args` and answers its JSON; abort kills the child. */
export async function runInChild<T>(args: string[], signal?: AbortSignal): Promise<T> {
  const child = Bun.spawn(selfCommand([CHILD_COMMAND, ...args]), { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const kill = () => child.kill();
  signal?.addEventListener("abort", kill, { once: true });
  try {
    const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    signal?.throwIfAborted();
    const line = out.trim().split("\n").at(-1) ?? "";
    if (code !== 0 || !line.startsWith("{"))
      throw new Error(`the restore's child process stopped (exit ${code}): ${(err.trim() || out.trim()).slice(0, 500)}`);
    return JSON.parse(line) as T;
  } finally {
    signal?.removeEventListener("abort", kill);
  }
}

/** The hidden command: `check COPY FILES_DIR`, `preview LIVE COPY` or `describe COPY`; prints one JSON line. */
export async function restoreChildCommand(argv: string[]): Promise<string> {
  const [mode, a, b] = argv;
  if (mode === "check" && a && b) return JSON.stringify(await checkCopy(a, b, Date.now()));
  if (mode === "preview" && a && b) return JSON.stringify(countLosses(a, b));
  // A new backup's manifest (backups/service.ts): counts, audit head, files of a large copy.
  if (mode === "describe" && a) return JSON.stringify(describeCopy(a));
  throw new Error(`usage: cairn ${CHILD_COMMAND} check COPY FILES_DIR | preview LIVE COPY | describe COPY`);
}
