/**
 * Preloaded into a server from source by budgets.test.ts (`bun --preload` this `src/main.ts
 * serve`): counts the SQL statements from the first line on, and when the server calls
 * Bun.serve notes the modules the loader holds (every module evaluated so far) and their bytes
 * on disk. Then, once the server has loaded the rest of itself (server.ts loads it just after
 * listening: from source that takes a while), a second's rest and then the first quiet second, it
 * counts an idle server's statements for
 * CAIRN_BUDGET_IDLE_SECONDS, writes what it found to CAIRN_BUDGET_PROBE as JSON and exits.
 */
import { statSync, writeFileSync } from "node:fs";
import { startCountingStatements } from "../src/platform/db/statement-count";

export interface ProbeFindings {
  modules: number;
  sourceBytes: number;
  /** The biggest modules, path and bytes, for a failure message. */
  biggest: Array<[string, number]>;
  startStatements: number;
  idleSeconds: number;
  idleStatements: number;
  idleTexts: string[];
}

const out = process.env.CAIRN_BUDGET_PROBE;
if (!out) throw new Error("budgets-probe: CAIRN_BUDGET_PROBE (the file to write) is not set");
const idleSeconds = Number(process.env.CAIRN_BUDGET_IDLE_SECONDS ?? 5);
const REST_MS = 1_000;

// The probe's own modules are not the server's.
const own = new Set(Object.keys(require.cache));
const counter = startCountingStatements({ keepText: true });

function loadedModules(): Array<[string, number]> {
  const found: Array<[string, number]> = [];
  for (const path of Object.keys(require.cache)) {
    if (own.has(path)) continue;
    let bytes = 0;
    try {
      bytes = statSync(path).size;
    } catch {
      // a module that is not a file (none today): counted, with no bytes
    }
    found.push([path, bytes]);
  }
  return found;
}

// Bun.serve is a plain writable property; TypeScript sees a function declaration.
const bun = Bun as unknown as { serve: (...args: unknown[]) => unknown };
const serve = bun.serve;
bun.serve = (...args: unknown[]) => {
  const modules = loadedModules();
  const startStatements = counter.count;
  const server = serve.apply(Bun, args);
  // The same module the server loads after listening (the loader evaluates it once): its
  // start-up work (collaboration, the routes, the jobs' first run) is not idling.
  const restLoaded = import("../src/server-rest");
  void restLoaded.then(() =>
    setTimeout(
      () =>
        waitForQuiet(() => {
          counter.reset();
          setTimeout(() => {
            const findings: ProbeFindings = {
              modules: modules.length,
              sourceBytes: modules.reduce((sum, [, bytes]) => sum + bytes, 0),
              biggest: [...modules].sort((a, b) => b[1] - a[1]).slice(0, 15),
              startStatements,
              idleSeconds,
              idleStatements: counter.count,
              idleTexts: [...counter.texts],
            };
            writeFileSync(out, JSON.stringify(findings));
            process.exit(0);
          }, idleSeconds * 1_000);
        }),
      REST_MS,
    ),
  );
  return server;
};

/**
 * Start-up work queued to run just after listening (the notifications' catch-up run, the first
 * jobs) takes longer on a loaded machine and could land in the idle window: idling begins at the
 * first whole second without a statement, or after QUIET_CAP_MS at the latest.
 */
const QUIET_CHECK_MS = 250;
const QUIET_CAP_MS = 15_000;
function waitForQuiet(then: () => void): void {
  const began = performance.now();
  let seen = counter.count;
  let quietSince = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (counter.count !== seen) {
      seen = counter.count;
      quietSince = now;
    }
    if (now - quietSince >= 1_000 || now - began >= QUIET_CAP_MS) {
      clearInterval(timer);
      then();
    }
  }, QUIET_CHECK_MS);
}
