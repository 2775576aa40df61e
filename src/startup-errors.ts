import { ConfigError } from "./platform/config";
import { SchemaTooNewError } from "./platform/db/migrate";
import { errorCode } from "./platform/errors";

/**
 * One line a person can act on for each way a start can fail: what happened and what to do.
 * A stack trace helps nobody who runs the binary; `--debug` still prints it.
 */
export function explainStartupError(err: unknown, where: { dataDir: string; host: string; port: number }): string {
  if (err instanceof ConfigError || err instanceof SchemaTooNewError) return err.message;
  const e = err as { message?: string; path?: string };
  const dir = where.dataDir;
  switch (errorCode(err)) {
    case "EADDRINUSE":
      return `Port ${where.port} on ${where.host} is already in use by another program. Stop it, or start Cairn with another --port.`;
    case "EADDRNOTAVAIL":
      return `This machine has no address ${where.host} to listen on. Use --host 127.0.0.1, or 0.0.0.0 for every address.`;
    case "EACCES":
    case "EPERM":
      return (
        `Cairn may not use ${e.path ?? dir}${e.path ? "" : " (the data directory)"}: permission denied. Give ` +
        `the account that runs Cairn write access to ${dir}, or choose another with --data.`
      );
    case "EROFS":
      return `The data directory ${dir} is on a read-only file system. Choose a writable place with --data.`;
    case "ENOSPC":
    case "EDQUOT":
    case "SQLITE_FULL":
      return `The disk holding the data directory ${dir} is full. Free some space there and start Cairn again.`;
    case "EEXIST":
    case "ENOTDIR":
      return (
        `The data directory ${dir} (or a folder inside it) is a file, not a ` +
        `directory. Choose another with --data, or move the file away.`
      );
    case "SQLITE_READONLY":
    case "SQLITE_CANTOPEN":
      return (
        `Cairn cannot open ${dir}/cairn.db for writing. Check that the file and its ` +
        `folder are writable by the account that runs Cairn.`
      );
    case "SQLITE_CORRUPT":
    case "SQLITE_NOTADB":
      return (
        `${dir}/cairn.db is damaged or is not a Cairn database. Restore it from a ` +
        `backup (backups/ in the data directory holds the snapshots).`
      );
    case "EIO":
    case "SQLITE_IOERR":
      return `The disk holding ${dir} reported an input/output error. Check the disk, then start Cairn again.`;
  }
  return `Cairn could not start: ${e.message ?? String(err)}. Run again with --debug for the details.`;
}
