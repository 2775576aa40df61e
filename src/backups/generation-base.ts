import type { Core } from "../core";
import { runningJob } from "./jobs";
import { readPolicy } from "./policy";
import { listManifests } from "./store";

/** How often the archive's generation is compared with the backups' (a few file reads). */
const CHECK_EVERY_MS = 60_000;

/**
 * Point-in-time restore replays the WAL archive onto a backup of the same generation. A new
 * generation begins whenever continuity is lost (an upgrade, an unclean stop, another process
 * folding the log): until a backup is taken in it, no moment after its start can be restored.
 * So, as Litestream takes a snapshot at each new generation, an `automatic` backup is taken as
 * soon as the current generation has none (at start and then every minute), when backups are in
 * use at all: a schedule is set or some backup is kept. Retention treats it like a scheduled one.
 */
export function keepGenerationCovered(core: Core, start: () => void): void {
  const wal = core.wal;
  if (!wal) return;
  const check = () => {
    if (core.maintenance.active() || runningJob(core, "backup")) return;
    const generation = wal.position().generation;
    const kept = listManifests(core);
    if (kept.some((m) => m.wal?.generation === generation)) return;
    if (readPolicy(core).schedule === null && kept.length === 0) return;
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
