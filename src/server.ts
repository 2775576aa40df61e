import type { Server } from "bun";
import { maintenanceRefusal, type Core } from "./core";
import { openInstance } from "./instance";
import { startBackups } from "./backups/service";
import { needsOwner } from "./users/service";
import { announceSetupCode } from "./users/setup-code";
import { composeStreamedRoutes, createApp, durableHandler } from "./http/app";
import { pathOf } from "./http/entry";
import { identifyClient } from "./http/client";
import { blockCovering } from "./security/blocks";
import { MB } from "./http/body";
import { problemFor, problemResponse } from "./http/problem";
import type { Config } from "./platform/config";
import { collectWhenIdle } from "./platform/idle-gc";
import { writePidFile } from "./platform/pidfile";
import { keptAnswerStats } from "./platform/db/kept-answers";
import { catchUpNotifications } from "./notifications/schedule";
import { isCollabPath } from "./collab/socket";
import { upgradeCollab } from "./collab/socket-routes";
import { startCollab, type CollabOptions } from "./collab/start";
import type { Logger } from "./platform/log";

/** Work that can wait for the first requests (a health check, a first page) is done this much after listening. */
const AFTER_LISTENING_MS = 250;

export interface RunningServer {
  core: Core;
  server: Server<unknown>;
  url: string;
  stop(): Promise<void>;
}

/** Opens the data directory and serves the app; stop() is the clean shutdown. */
export interface ServerOptions {
  log?: Logger;
  /** Collaboration's timings and flood limits (tests shorten them). */
  collab?: CollabOptions;
}

export function startServer(config: Config, opts: ServerOptions = {}): RunningServer {
  const core = openInstance(config, { groupCommits: true, log: opts.log, archiveWal: true });
  // Half-written backups of a process that died are removed; the backup schedule is armed.
  startBackups(core);
  // A first run reachable from other machines: the owner needs the code this prints.
  announceSetupCode(core, !needsOwner(core));
  const app = createApp(core, { composeStreamedLater: true });
  const handle = durableHandler(core, app);
  const idle = collectWhenIdle();
  core.onClose(idle.stop);
  // Real-time collaboration: its WebSocket runs on Bun's own handler, beside the HTTP pipeline.
  const collab = startCollab(core, opts.collab);
  const server = Bun.serve({
    hostname: config.host,
    port: config.port,
    // Per-route limits are enforced in the pipeline; this is the hard ceiling (wiki packs).
    maxRequestBodySize: 500 * MB,
    fetch: (request, bun) => {
      idle.touch();
      const socketIp = bun.requestIP(request)?.address ?? null;
      if (isCollabPath(pathOf(request))) {
        // A blocked address opens no editing socket either (the app refuses it everything else).
        if (blockCovering(core, identifyClient(request, socketIp, config.trustedProxies).ip)) return problemFor("address_blocked");
        // No editing while a restore replaces the data (rooms were closed when it began).
        if (core.maintenance.active()) return problemResponse(maintenanceRefusal(core.maintenance));
        return upgradeCollab(collab, request, bun);
      }
      return handle(request, socketIp);
    },
    websocket: collab.websocket as Bun.WebSocketHandler<unknown>,
    // Whatever escapes the handler still answers a problem document with the security headers.
    // (Bun answers requests it cannot parse at all, 400/431/505, before any of our code runs.)
    error(err) {
      core.log.error("server error", { error: err.stack ?? err.message });
      return problemFor("internal_error");
    },
  });
  // Just after listening, not before, so the first answers do not wait for them: background
  // jobs (they run here, in the server, never in a command opened beside it; a job enqueued
  // meanwhile waits in its row) and the streamed routes' composing (app.ts says why at all).
  const afterListening = setTimeout(() => {
    catchUpNotifications(core);
    core.jobs.start();
    composeStreamedRoutes(app);
    // An import a crash cut short left a staged space nobody sees: removed now, slice by slice
    // (loaded here, not at start: nearly every start finds none).
    void import("./imports/staged").then(({ removeLeftoverStages }) => removeLeftoverStages(core));
  }, AFTER_LISTENING_MS);
  afterListening.unref?.();
  core.onClose(() => clearTimeout(afterListening));
  // Tells `cairn restore` a server has this data directory (platform/pidfile.ts).
  core.onClose(writePidFile(core.data.root));
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`;
  let stopping: Promise<void> | null = null;
  return {
    core,
    server,
    url,
    stop() {
      // 1. stop accepting connections and let in-flight requests finish;
      // 2. then flush pending writes, checkpoint the WAL and close the database.
      // Editors are told to reconnect (1012) and every room is saved before the database closes.
      collab.stop();
      stopping ??= server.stop(false).then(() => {
        // How often the kept answers answered, for whoever tunes them (and the bench).
        core.log.info("kept answers", { caches: keptAnswerStats() });
        core.close();
      });
      return stopping;
    },
  };
}
