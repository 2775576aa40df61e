/**
 * `cairn restore LABEL [--at TIME] [--data DIR]`: what a person does at 3 a.m. over SSH, with
 * the server stopped. The same restore as the admin screen's (backups/restore-service.ts): a
 * safety backup of the current data first, the restored copy and its checks, then the swap;
 * progress on standard error, the one line on standard output. `cairn restore undo` puts the
 * last restore's safety copy back.
 *
 * Refused while a server runs on the data directory (its pid file, platform/pidfile.ts, names
 * a live process): a restore under a server that does not know of it would leave that server's
 * collaboration rooms and caches describing data that is gone, and its writes would land on
 * the restored data. Stop it, restore, start it.
 */
import { getJob, settled } from "../backups/jobs";
import { parseAt } from "../backups/restore-preview";
import { recoverInterruptedRestore, startRestore, startUndo } from "../backups/restore-service";
import { parseArgv } from "../platform/argv";
import type { Logger } from "../platform/log";
import { runningServerPid } from "../platform/pidfile";
import { CommandError } from "./command-error";
import { openExistingDataDir } from "./open-data-dir";
import { RESTORE_USAGE } from "./usage";
export { RESTORE_USAGE };

export interface RestoreIo {
  env: Record<string, string | undefined>;
  log: Logger;
  /** Where progress lines go (standard error). */
  progress(line: string): void;
}

const PHASES: Record<string, string> = {
  "safety-backup": "taking a safety backup of the current data",
  copying: "making the restored copy",
  checking: "checking the restored copy (integrity, migrations, foreign keys, audit chain, files)",
  swapping: "replacing the data",
};

export async function restoreCommand(argv: string[], io: RestoreIo): Promise<string> {
  const args = parseArgv(
    argv,
    ["--data", "--at"],
    ({ kind, name }) =>
      new CommandError(`${kind === "unknown_option" ? `Unknown option ${name}` : `Option ${name} needs a value`}. Usage: ${RESTORE_USAGE}`),
  );
  if (args.positional.length !== 1)
    throw new CommandError(`Give the backup's label (cairn backup list shows them), or "undo". Usage: ${RESTORE_USAGE}`);
  const [label] = args.positional;
  const at = parseAt(args.values["--at"]);
  if (at === "invalid")
    throw new CommandError(
      "--at must be an ISO 8601 date and time with its zone (2026-11-24T14:03:00Z) or ms since the epoch. Nothing was changed.",
    );
  const dataDir = args.values["--data"] ?? (io.env.CAIRN_DATA || "./data");
  const pid = runningServerPid(dataDir);
  if (pid !== null)
    throw new CommandError(
      `A Cairn server (process ${pid}) is running on ${dataDir}: stop it first, then ` +
        `restore (or restore from its admin screen). Nothing was changed.`,
    );
  const core = openExistingDataDir(dataDir, io.log);
  try {
    recoverInterruptedRestore(core);
    const by = { actorId: null, ip: null };
    const started = label === "undo" ? startUndo(core, by) : startRestore(core, label, at, by);
    let last = "";
    const timer = setInterval(() => {
      const now = getJob(core, started.id);
      if (!now || now.state !== "running") return;
      const tenth = now.progress && now.progress.total > 0 ? Math.floor((now.progress.done / now.progress.total) * 10) * 10 : null;
      const line = `${PHASES[now.phase] ?? now.phase}${tenth === null ? "" : ` (${tenth} %)`}`;
      if (line !== last) io.progress((last = line));
    }, 10);
    const job = await settled(core, started.id).finally(() => clearInterval(timer));
    if (!job || job.state !== "succeeded")
      throw new CommandError(
        `The ${label === "undo" ? "undo" : "restore"} ${job?.state ?? "stopped"}: ${job?.error?.message ?? "unknown error"}` +
          `${job?.error?.message?.includes("nothing was replaced") ? "" : " The data was not replaced."}`,
      );
    const r = job.result as { label: string; safetyLabel: string | null; rows: number; swapMs: number };
    if (label === "undo")
      return (
        `Undone: the data the last restore replaced (safety backup ${r.label}) is ` +
        `back; ${r.rows} rows in ${(r.swapMs / 1000).toFixed(1)} s.`
      );
    return (
      `Restored ${r.label}${at === null ? "" : ` at ${new Date(at).toISOString()}`}: ${r.rows} rows in ` +
      `${(r.swapMs / 1000).toFixed(1)} s. The replaced data is kept as safety backup ${r.safetyLabel} (cairn restore undo puts it ` +
      `back).`
    );
  } finally {
    core.close();
  }
}
