import type { Core } from "../core";
import { runningJob } from "./jobs";
import { listManifests } from "./store";

/** How often the archive's generation is compared with the backups' (a few file reads). */
const CHECK_EVERY_MS = 60_000;

/**
 * Point-in-time restore replays the WAL archive onto a backup of the same generation. A new
 * generation begins whenever continuity is lost (an upgrade, an unclean stop, another process
 * folding the log): until a backup is taken in it, no moment after its start can be restored.
 * So, as Litestream takes a snapshot at each new generation, an `automatic` backup is taken as
 * soon as the current generation has none (at start and then every minute), once backups are in
 * use: some backup is kept. Before the first backup there is no moment to go back to anyway
 * (restores reach back to the oldest backup), and a new instance gets no backup it did not ask
 * for. Retention treats it like a scheduled one.
 */
export function keepGenerationCovered(core: Core, start: () => void): void {
  const wal = core.wal;
  if (!wal) return;
  const check = () => {
    if (core.maintenance.active() || runningJob(core, "backup")) return;
    const generation = wal.position().generation;
    const kept = listManifests(core);
    if (kept.length === 0 || kept.some((m) => m.wal?.generation === generation)) return;
    try {
      start();
    } catch (err) {
      core.log.warn("automatic backup for the new WAL generation not started", { error: (err as Error).message });
    }
  };
  check();
  const timer = setInterval(check, CHECK_EVERY_MS);
  timer.unref?.();
  core.onClose(() => clearInterval(timer));
}
