/**
 * The gate's budgets: deterministic figures that catch the regressions timings on a shared
 * machine cannot (issue 30). budgets.test.ts and e2e/binary-size.test.ts check them.
 *
 * THE RULE: a budget moves only with a reason written beside it, in `why`: what the change
 * that needed it bought, or what lowered it. Lower a budget as soon as work lowers the figure,
 * so the next addition has to be argued for. A count may fall below its budget; when it rises
 * above it, the test fails naming the request, the budget, the count and the statements run.
 */

export interface Budget {
  limit: number;
  why: string;
}

const START = "issue 30: the figure measured when the gate was added (before that issue's speed work)";

/**
 * SQL statements per request, counted at the driver (src/platform/db/statement-count.ts), as
 * the owner's API token (the bench's requests). "steady": the request repeated (kept answers
 * warm); "after a write": the first one after another page changed (kept answers dropped).
 * Counted until the process is quiet again, so work a request leaves for just after its answer
 * (search catch-up, webhook deliveries) is its own; the smallest of a few runs is taken, so a
 * timer that batches many requests' bookkeeping (token use every 5 s) is left out.
 */
export const STATEMENTS_PER_REQUEST: Record<string, Budget> = {
  "GET /api/auth/me": { limit: 4, why: START },
  "GET /api/auth/me, after a write": { limit: 10, why: START },
  "GET /api/pages/{id}": { limit: 7, why: START },
  "GET /api/pages/{id}, after a write": { limit: 22, why: START },
  "GET /api/pages/{id}, a page not read before": { limit: 14, why: START },
  "GET /api/pages/tree (1,000 pages)": { limit: 9, why: START },
  "GET /api/pages/tree (1,000 pages), after a write": { limit: 19, why: START },
  "GET /api/search, asked before": { limit: 6, why: START },
  "GET /api/search, never asked": { limit: 18, why: START },
  "GET /api/search, two words, never asked": { limit: 40, why: START },
  "GET /api/search, after a write": { limit: 27, why: START },
  // Some runs count 49: two of the search's "anything dirty?" checks can fall together.
  "PUT /api/pages/{id} (a new version)": { limit: 51, why: START },
  "PUT /api/pages/{id}, 20 watchers, 3 webhooks (with its deliveries)": { limit: 76, why: START },
};

/** A server from source (`bun src/main.ts serve`) on an empty data directory, up to listening. */
export const START_UP: Record<"modules" | "sourceBytes" | "statements", Budget> = {
  // Modules in the loader's registry when Bun.serve is called (ours and node_modules').
  modules: { limit: 971, why: START },
  // The bytes of those modules' files as they are on disk (source, before transpiling).
  sourceBytes: { limit: 10_439_632, why: START },
  // Migrations, built-in roles and groups, the first reads: what an empty directory costs.
  statements: { limit: 220, why: START },
};

/**
 * That server, idle (no request since it listened), over IDLE_SECONDS after a second's rest:
 * the jobs poll's empty write transaction every second (7 statements) and the search catch-up
 * check it arms, a webhook sweep every 5 s. The aim: none.
 */
export const IDLE_STATEMENTS_PER_SECOND: Budget = { limit: 8.2, why: START };

/** The built binary (the browser tests build it once per run: tests/e2e/harness.ts). */
export const BINARY_BYTES: Budget = { limit: 144_373_936, why: `${START}; 137.7 MB, playwright-core 14.7 MB of it` };

/**
 * The leak check: objects still reachable (bun:jsc heapStats().objectCount after a full
 * collection) gained between the 100th and the 1,000th request of one kind, per request.
 * A leak keeps something per request (a closure, a map entry, a response) and shows as one
 * or more per request; what a warm server keeps is made in the first hundred.
 */
export const RETAINED_OBJECTS_PER_REQUEST: Budget = {
  limit: 2,
  why: "issue 30: measured -4.9 to +0.04 across the six kinds (a full collection leaves some noise); 2 leaves room for it and still fails anything kept per request (a closure and what it holds are more)",
};
