/**
 * `cairn backup [--data DIR]`: takes a backup (kind manual) of the data directory, what a
 * person does over SSH before touching a server; `cairn backup list [--data DIR]` lists them.
 * Meant for a stopped server. Beside a running one the copy is still consistent (it is read under
 * a read transaction), but this process keeps no WAL archive: it folds the log first, so the
 * server's archive begins a new generation and point-in-time restore cannot reach across that
 * moment. With the server running, POST /api/admin/backups/run (or the admin screen) is the way.
 * Progress goes to standard error, the one line to standard output. Retention runs after it.
 */
import { applyRetention } from "../backups/retention";
import { takeBackup } from "../backups/service";
import { listManifests } from "../backups/store";
import { parseArgv } from "../platform/argv";
import type { Logger } from "../platform/log";
import { CommandError } from "./command-error";
import { openExistingDataDir } from "./open-data-dir";
import { BACKUP_USAGE } from "./usage";
export { BACKUP_USAGE };

export interface BackupIo {
  env: Record<string, string | undefined>;
  log: Logger;
  /** Where progress lines go (standard error): one per tenth copied. */
  progress(line: string): void;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function backupCommand(argv: string[], io: BackupIo): Promise<string> {
  const args = parseArgv(
    argv,
    ["--data"],
    ({ kind, name }) =>
      new CommandError(`${kind === "unknown_option" ? `Unknown option ${name}` : `Option ${name} needs a value`}. Usage: ${BACKUP_USAGE}`),
  );
  const [word, ...extra] = args.positional;
  if (extra.length || (word !== undefined && word !== "list"))
    throw new CommandError(`Unexpected ${JSON.stringify(extra[0] ?? word)}. Usage: ${BACKUP_USAGE}`);
  const core = openExistingDataDir(args.values["--data"] ?? (io.env.CAIRN_DATA || "./data"), io.log);
  try {
    if (word === "list") {
      const all = listManifests(core);
      if (all.length === 0) return `No backups in ${core.data.backupsDir}.`;
      return all
        .map(
          (m) =>
            `${m.label}  ${m.kind.padEnd(13)} ${mb(m.bytes).padStart(10)}  ${m.counts.pages} pages, ` +
            `${m.counts.versions} versions, ${m.counts.attachments} attachments`,
        )
        .join("\n");
    }
    let shown = -1;
    const m = await takeBackup(core, "manual", {
      onProgress(done, total) {
        const percent = total > 0 ? Math.floor((done / total) * 10) * 10 : 100;
        if (percent === shown) return;
        shown = percent;
        io.progress(`copying ${mb(done)} of ${mb(total)} (${percent} %)`);
      },
    });
    const removed = applyRetention(core);
    const retention = removed.length ? `; retention removed ${removed.map((r) => r.label).join(", ")}` : "";
    return (
      `Backup ${m.label} taken: ${mb(m.bytes)}, ${m.counts.pages} pages, ${m.counts.versions} versions, ` +
      `${m.files.length} files named (kept in files/), in ${core.data.backupsDir}/${m.label}${retention}.`
    );
  } finally {
    core.close();
  }
}
