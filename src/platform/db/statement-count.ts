/**
 * Counting the SQL statements this process runs, at the driver: the gate's budgets (statements
 * per request, an idle server's statements per second) read it.
 *
 * Every statement bun:sqlite runs passes one of two doors: a prepared statement's native object
 * (whose `run`, `get`, `all`, `values`, `raw` and `iterate` every `Statement` method calls, be
 * it one of ours from `sqlite.query`/`prepare` or one drizzle prepared), or `Database.exec` (the
 * same function as `Database.run`: BEGIN, COMMIT, SAVEPOINT, PRAGMA). While a counter is on,
 * those methods are wrapped on their prototypes, so statements prepared long before counting
 * began are counted too; when it stops the originals are put back. Off (always, outside the
 * gate's tests) nothing is wrapped: the cost is none at all, not merely small.
 *
 * Process-wide: every connection of the process counts (the WAL archive's too), which is what
 * a budget wants. One counter at a time.
 */
import { Database } from "bun:sqlite";

const STATEMENT_METHODS = ["run", "get", "all", "values", "raw", "iterate"] as const;
const DATABASE_METHODS = ["exec", "run"] as const;
/** Statement text kept per entry, enough to recognise it (a page's body can be bound in it). */
const TEXT_CHARS = 200;

export interface StatementCounter {
  /** Statements run since the counter started (or was reset). */
  readonly count: number;
  /** Their text (with the values bound, cut at 200 characters), when asked to keep it. */
  readonly texts: readonly string[];
  reset(): void;
  /** Runs fn without counting what it runs (the test's own look-ups). */
  aside<T>(fn: () => T): T;
  /** Puts the driver back as it was. */
  stop(): void;
}

type Method = (this: unknown, ...args: unknown[]) => unknown;

interface Patch {
  target: Record<string, unknown>;
  name: string;
  original: unknown;
}

let active: { count: number; texts: string[] | null; paused: number } | null = null;
let patches: Patch[] = [];

/** The prototype every prepared statement's native object shares. */
function nativeStatementPrototype(): Record<string, unknown> {
  const probe = new Database(":memory:");
  try {
    const statement = probe.prepare("SELECT 1");
    const prototype = Object.getPrototypeOf(statement.native);
    statement.finalize();
    return prototype;
  } finally {
    probe.close();
  }
}

function wrap(target: Record<string, unknown>, name: string, textOf: (self: unknown, args: unknown[]) => string): void {
  const original = target[name] as Method;
  if (typeof original !== "function") throw new Error(`bun:sqlite has no ${name} to count`);
  patches.push({ target, name, original });
  target[name] = function counted(this: unknown, ...args: unknown[]) {
    const c = active;
    if (!c || c.paused > 0) return original.apply(this, args);
    c.count++;
    const result = original.apply(this, args);
    // After the call: a statement's text then shows the values it was run with.
    if (c.texts) c.texts.push(textOf(this, args).slice(0, TEXT_CHARS));
    return result;
  };
}

function install(): void {
  const statement = nativeStatementPrototype();
  for (const name of STATEMENT_METHODS) wrap(statement, name, (self) => String(self));
  const database = Database.prototype as unknown as Record<string, unknown>;
  // exec and run are one function today; each name is wrapped once all the same.
  for (const name of DATABASE_METHODS) wrap(database, name, (_self, args) => String(args[0]));
}

function uninstall(): void {
  for (const p of patches.reverse()) p.target[p.name] = p.original;
  patches = [];
}

export function startCountingStatements(opts: { keepText?: boolean } = {}): StatementCounter {
  if (active) throw new Error("a statement counter is already on");
  const state = { count: 0, texts: opts.keepText ? ([] as string[]) : null, paused: 0 };
  active = state;
  install();
  return {
    get count() {
      return state.count;
    },
    get texts() {
      return state.texts ?? [];
    },
    reset() {
      state.count = 0;
      if (state.texts) state.texts = [];
    },
    aside(fn) {
      state.paused++;
      try {
        return fn();
      } finally {
        state.paused--;
      }
    },
    stop() {
      if (active !== state) return;
      uninstall();
      active = null;
    },
  };
}
