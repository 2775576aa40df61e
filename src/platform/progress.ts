/**
 * Progress of long exports and imports, in memory: the request doing the work reports phases and
 * steps; the person who started it polls GET /api/export-progress/{id}. Ids are chosen by the
 * client (so it can start polling before the response's first byte arrives) and are private to
 * the user who started the work: anybody else, and anonymous callers, see nothing.
 */
import { AppError, invalid } from "./errors";
import { systemClock, type Clock } from "./clock";

export interface Progress {
  /** A new phase of `total` steps (the percentage moves within the phase's weight). */
  phase(name: string, total: number): void;
  /** `n` steps of the current phase done. */
  step(n?: number): void;
  done(): void;
  fail(code: string, message: string): void;
}

export interface ProgressView {
  id: string;
  phase: string;
  percent: number;
  done: boolean;
  error: { code: string; message: string } | null;
}

/** What an export or import without `?progress` reports to. */
export const NO_PROGRESS: Progress = { phase() {}, step() {}, done() {}, fail() {} };

export const PROGRESS_ID = /^[A-Za-z0-9_-]{8,64}$/;
/** How long a finished (done or failed) entry stays readable. */
export const KEEP_FINISHED_MS = 10 * 60_000;
/**
 * Live entries are not kept for ever either: one whose work stopped reporting (a client gone, a
 * crash mid-stream) is dropped after this long without a report.
 */
export const KEEP_SILENT_MS = 60 * 60_000;
export const MAX_ENTRIES = 1000;

interface Entry {
  view: ProgressView;
  finishedAt: number | null;
  touchedAt: number;
  /** Percent reached before the current phase, and the current phase's share and steps. */
  base: number;
  share: number;
  total: number;
  count: number;
  seen: Set<string>;
}

export class ProgressBoard {
  private entries = new Map<string, Entry>();

  constructor(
    private clock: Clock = systemClock,
    private max = MAX_ENTRIES,
  ) {}

  /**
   * Progress for `id` (NO_PROGRESS without one, or for an anonymous caller: nobody could read it).
   * Throws 400 naming `progress` for a malformed id, 409 `progress_in_use` when this user's work
   * under that id is still running (a finished id may be reused). Ids are per user, so one user
   * learns nothing of another's. `weights` give the named phases their shares of the bar (in any
   * unit; a phase not named moves nothing, the last named phase to begin takes what is left);
   * without weights each phase runs from where the bar is to the end.
   */
  start(id: string | undefined, ownerId: string | null, weights?: Record<string, number>): Progress {
    if (id === undefined) return NO_PROGRESS;
    if (!PROGRESS_ID.test(id)) throw invalid("progress", "must be 8 to 64 letters, digits, - or _");
    if (ownerId === null) return NO_PROGRESS;
    this.sweep();
    const key = keyOf(id, ownerId);
    const old = this.entries.get(key);
    if (old && old.finishedAt === null) {
      throw new AppError("progress_in_use", {
        field: "progress",
        detail: "progress: this id is already following work that is running; choose a new one.",
      });
    }
    this.entries.delete(key);
    this.makeRoom();
    const now = this.clock.now();
    const entry: Entry = {
      view: { id, phase: "starting", percent: 0, done: false, error: null },
      finishedAt: null,
      touchedAt: now,
      base: 0,
      share: 0,
      total: 0,
      count: 0,
      seen: new Set(),
    };
    this.entries.set(key, entry);
    return this.reporter(entry, normaliseWeights(weights));
  }

  /** What the owner sees; null for anyone else, an unknown id or a forgotten one. */
  read(id: string, ownerId: string | null): ProgressView | null {
    this.sweep();
    if (ownerId === null) return null;
    const entry = this.entries.get(keyOf(id, ownerId));
    if (!entry) return null;
    return { ...entry.view, error: entry.view.error && { ...entry.view.error } };
  }

  get size() {
    return this.entries.size;
  }

  private reporter(entry: Entry, weights: Map<string, number> | null): Progress {
    const finished = () => entry.finishedAt !== null;
    const touch = () => (entry.touchedAt = this.clock.now());
    const show = () => {
      const within = entry.total > 0 ? Math.min(1, entry.count / entry.total) : 0;
      const percent = Math.floor(entry.base + entry.share * within);
      entry.view.percent = Math.max(entry.view.percent, Math.min(99, percent));
    };
    return {
      phase: (name, total) => {
        if (finished()) return;
        touch();
        if (weights) {
          entry.base = Math.min(100, entry.base + entry.share);
          const remaining = 100 - entry.base;
          const last = !entry.seen.has(name) && isLastWeighted(weights, entry.seen, name);
          entry.share = last ? remaining : Math.min(remaining, weights.get(name) ?? 0);
        } else {
          entry.base = entry.view.percent;
          entry.share = 100 - entry.base;
        }
        entry.seen.add(name);
        entry.total = Math.max(0, total);
        entry.count = 0;
        entry.view.phase = name;
        show();
      },
      step: (n = 1) => {
        if (finished()) return;
        touch();
        entry.count += n;
        show();
      },
      done: () => {
        if (finished()) return;
        entry.finishedAt = touch();
        entry.view.percent = 100;
        entry.view.done = true;
      },
      fail: (code, message) => {
        if (finished()) return;
        entry.finishedAt = touch();
        entry.view.done = true;
        entry.view.error = { code, message };
      },
    };
  }

  /** Forget finished entries after KEEP_FINISHED_MS and silent live ones after KEEP_SILENT_MS. */
  private sweep() {
    const now = this.clock.now();
    for (const [id, e] of this.entries) {
      const expired = e.finishedAt !== null ? now - e.finishedAt >= KEEP_FINISHED_MS : now - e.touchedAt >= KEEP_SILENT_MS;
      if (expired) this.entries.delete(id);
    }
  }

  /** At most `max` entries: the oldest finished go first, then (only if all are live) the longest silent. */
  private makeRoom() {
    while (this.entries.size >= this.max) {
      let victim: [string, number] | null = null;
      for (const [id, e] of this.entries) {
        if (e.finishedAt !== null && (!victim || e.finishedAt < victim[1])) victim = [id, e.finishedAt];
      }
      if (!victim) {
        for (const [id, e] of this.entries) if (!victim || e.touchedAt < victim[1]) victim = [id, e.touchedAt];
      }
      this.entries.delete(victim![0]);
    }
  }
}

const keyOf = (id: string, ownerId: string) => `${ownerId}/${id}`;

function normaliseWeights(weights: Record<string, number> | undefined): Map<string, number> | null {
  if (!weights) return null;
  const entries = Object.entries(weights).filter(([, w]) => Number.isFinite(w) && w > 0);
  const sum = entries.reduce((s, [, w]) => s + w, 0);
  if (sum <= 0) return null;
  return new Map(entries.map(([name, w]) => [name, (w / sum) * 100]));
}

/** The last weighted phase to begin takes all that remains, so rounding never leaves the bar short of 100. */
function isLastWeighted(weights: Map<string, number>, seen: Set<string>, name: string) {
  if (!weights.has(name)) return false;
  for (const other of weights.keys()) if (other !== name && !seen.has(other)) return false;
  return true;
}

/** The process's one board. */
export const progressBoard = new ProgressBoard();

/** Throws AppError 400 (field progress) / 409 progress_in_use. ownerId null = anonymous (nothing is kept: nobody could read it). */
export function startProgress(id: string | undefined, ownerId: string | null, weights?: Record<string, number>): Progress {
  return progressBoard.start(id, ownerId, weights);
}

export function readProgress(id: string, ownerId: string | null): ProgressView | null {
  return progressBoard.read(id, ownerId);
}
