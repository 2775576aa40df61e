import type { Server } from "bun";
import type { Core } from "./core";
import { openInstance } from "./instance";
import { createApp, durableHandler } from "./http/app";
import { MB } from "./http/body";
import { problemFor } from "./http/problem";
import type { Config } from "./platform/config";
import { collectWhenIdle } from "./platform/idle-gc";
import { keptAnswerStats } from "./platform/db/kept-answers";
import { catchUpNotifications } from "./notifications/schedule";

export interface RunningServer {
  core: Core;
  server: Server<unknown>;
  url: string;
  stop(): Promise<void>;
}

/** Opens the data directory and serves the app; stop() is the clean shutdown. */
export function startServer(config: Config): RunningServer {
  const core = openInstance(config, { groupCommits: true });
  // Background jobs run here, in the server, never in a command opened beside it.
  catchUpNotifications(core);
  core.jobs.start();
  const app = createApp(core);
  const handle = durableHandler(core, app);
  const idle = collectWhenIdle();
  core.onClose(idle.stop);
  const server = Bun.serve({
    hostname: config.host,
    port: config.port,
    // Per-route limits are enforced in the pipeline; this is the hard ceiling (wiki packs).
    maxRequestBodySize: 500 * MB,
    fetch: (request, bun) => {
      idle.touch();
      return handle(request, bun.requestIP(request)?.address ?? null);
    },
    // Whatever escapes the handler still answers a problem document with the security headers.
    // (Bun answers requests it cannot parse at all, 400/431/505, before any of our code runs.)
    error(err) {
      core.log.error("server error", { error: err.stack ?? err.message });
      return problemFor("internal_error");
    },
  });
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`;
  let stopping: Promise<void> | null = null;
  return {
    core,
    server,
    url,
    stop() {
      // 1. stop accepting connections and let in-flight requests finish;
      // 2. then flush pending writes, checkpoint the WAL and close the database.
      stopping ??= server.stop(false).then(() => {
        // How often the kept answers answered, for whoever tunes them (and the bench).
        core.log.info("kept answers", { caches: keptAnswerStats() });
        core.close();
      });
      return stopping;
    },
  };
}
