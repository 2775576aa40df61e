import type { Server } from "bun";
import { maintenanceRefusal, type Core } from "./core";
import { finishOpening as finishOpeningInstance, openInstance } from "./instance";
import { startBackups } from "./backups/service";
import { needsOwner } from "./users/service";
import { announceSetupCode } from "./users/setup-code";
import { earlyHealth } from "./http/early-health";
import { methodsByPath } from "./http/allowed-methods";
import { pathOf } from "./http/entry";
import { identifyClient, type SocketAddress } from "./http/client";
import { blockCovering } from "./security/blocks";
import { MB } from "./http/body";
import { problemFor, problemResponse } from "./http/problem";
import type { Config } from "./platform/config";
import { collectWhenIdle } from "./platform/idle-gc";
import { jitAtNormalPolicy } from "./platform/jit-policy";
import { writePidFile } from "./platform/pidfile";
import { keptAnswerStats } from "./platform/db/kept-answers";
import { releaseCacheMemory } from "./platform/db/open";
import { catchUpNotifications } from "./notifications/schedule";
import { isCollabPath, SOCKET_SETTINGS } from "./collab/address";
import type { CollabOptions } from "./collab/start";
import type { ServerRest } from "./server-rest";
import type { RequestHandler } from "./http/app-shell";
import type { Logger } from "./platform/log";

/** Work that can wait for the first requests (a health check, a first look) is done this much after listening. */
const AFTER_LISTENING_MS = 250;
/** Start-up's JIT policy (platform/jit-policy.ts) ends by then even on a server never quiet. */
const JIT_NORMAL_AT_THE_LATEST_MS = 5_000;

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
  // The WAL archive's first look at the log (on a new directory: a generation begun, the
  // schema's frames copied, four fsyncs), the built-in rows and the webhooks' catch-up wait
  // until just after listening, or the first request other than a health check, whichever
  // comes first (finishOpening).
  const core = openInstance(config, { groupCommits: true, log: opts.log, archiveWal: true, archiveStartsLater: true, finishLater: true });
  let opened = false;
  const finishOpening = () => {
    if (opened) return;
    core.wal?.begin();
    finishOpeningInstance(core);
    opened = true;
    // Half-written backups of a process that died are removed; the backup schedule is armed.
    startBackups(core);
  };
  // A first run reachable from other machines: the owner needs the code this prints.
  announceSetupCode(core, !needsOwner(core));
  // Only the first routes are composed before listening; the rest (every other domain, the
  // API reference, collaboration) loads just after, or as soon as a request needs it: such a
  // request waits for it, so no route that exists ever answers 404 (docs/decisions.md, "Start-up").
  // A task of the scheduler: stopped with the rest of the background work at close.
  const idle = collectWhenIdle(core.scheduler);
  let stopping: Promise<void> | null = null;
  // The first routes' app is composed once a request needs it (the health check is answered
  // without it: http/early-health.ts), so Elysia is not evaluated before listening.
  const answerHealth = earlyHealth(core);
  let loadingFirst: Promise<{ handle: RequestHandler; answers: (path: string) => string[] }> | null = null;
  const loadFirst = () => (
    finishOpening(),
    (loadingFirst ??= Promise.all([import("./http/app-shell"), import("./http/first-routes")]).then(([shell, routes]) => {
      const first = shell.composeApp(core, routes.firstRoutes(core));
      return { handle: shell.durableHandler(core, first), answers: methodsByPath(first.routes) };
    }))
  );
  let rest: ServerRest | null = null;
  let loadingRest: Promise<ServerRest> | null = null;
  const loadRest = () => (
    finishOpening(),
    (loadingRest ??= import("./server-rest").then(({ startRest }) => {
      rest = startRest(core, opts.collab);
      core.log.info("ready: every route and collaboration loaded", { msAfterListening: Math.round(performance.now() - listeningAt) });
      // Loading it leaves garbage (the modules' evaluation, the routes' composing): collected once quiet.
      idle.touch();
      // Loaded while stopping (a request waited for it): it answers, and no room stays open.
      if (stopping) rest.collab.stop();
      return rest;
    }))
  );
  // Sockets open only once collaboration has loaded (an upgrade waits for it), so this handler
  // always finds it; Bun takes the handler and its settings when it listens.
  const websocket: Bun.WebSocketHandler<unknown> = {
    ...SOCKET_SETTINGS,
    open: (ws) => rest!.collab.websocket.open?.(ws as never),
    message: (ws, message) => rest!.collab.websocket.message?.(ws as never, message),
    close: (ws, code, reason) => rest!.collab.websocket.close?.(ws as never, code, reason),
    drain: (ws) => rest!.collab.websocket.drain?.(ws as never),
  };
  let listeningAt = 0;
  const server = Bun.serve({
    hostname: config.host,
    port: config.port,
    // Per-route limits are enforced in the pipeline; this is the hard ceiling (wiki packs).
    maxRequestBodySize: 500 * MB,
    fetch: (request, bun) => {
      idle.touch();
      // A read's address is asked only if needed (http/client.ts); a write's at once, since its
      // handler runs once the body has come, when its client may have gone.
      const method = request.method;
      const socketIp: SocketAddress =
        method === "GET" || method === "HEAD" ? () => bun.requestIP(request)?.address ?? null : (bun.requestIP(request)?.address ?? null);
      if (isCollabPath(pathOf(request))) {
        // A blocked address opens no editing socket either (the app refuses it everything else).
        if (blockCovering(core, identifyClient(request, socketIp, config.trustedProxies).ip)) return problemFor("address_blocked");
        // No editing while a restore replaces the data (rooms were closed when it began).
        if (core.maintenance.active()) return problemResponse(maintenanceRefusal(core.maintenance));
        if (rest) return rest.upgrade(request, bun);
        return loadRest().then((loaded) => loaded.upgrade(request, bun));
      }
      if (rest) return rest.handle(request, socketIp);
      const early = answerHealth(request, socketIp);
      if (early) return early;
      return loadFirst().then((first) => {
        if (rest) return rest.handle(request, socketIp);
        if (first.answers(pathOf(request)).includes(request.method)) return first.handle(request, socketIp);
        return loadRest().then((loaded) => loaded.handle(request, socketIp));
      });
    },
    websocket,
    // Whatever escapes the handler still answers a problem document with the security headers.
    // (Bun answers requests it cannot parse at all, 400/431/505, before any of our code runs.)
    error(err) {
      core.log.error("server error", { error: err.stack ?? err.message });
      return problemFor("internal_error");
    },
  });
  listeningAt = performance.now();
  // Just after listening, not before, so the first answers do not wait for them: the rest of
  // the server, then background jobs (they run here, in the server, never in a command opened
  // beside it; a job enqueued meanwhile waits in its row).
  const afterListening = setTimeout(() => {
    try {
      finishOpening();
    } catch (err) {
      core.log.error("the instance could not finish opening", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    }
    loadRest().then(
      () => {
        if (stopping) return;
        catchUpNotifications(core);
        core.jobs.start();
        // An import a crash cut short left a staged space nobody sees: removed now, slice by
        // slice (loaded here, not at start: nearly every start finds none).
        void import("./imports/staged")
          .then(({ removeLeftoverStages }) => removeLeftoverStages(core))
          // Start-up's reads filled SQLite's page cache (~2.5 MB at 20,000 pages): given back.
          .then(() => stopping || releaseCacheMemory(core));
      },
      (err) =>
        core.log.error("the server's routes could not be loaded", {
          error: err instanceof Error ? (err.stack ?? err.message) : String(err),
        }),
    );
  }, AFTER_LISTENING_MS);
  afterListening.unref?.();
  // Start-up's JIT policy ends by then at the latest (platform/jit-policy.ts).
  const jitAtTheLatest = setTimeout(jitAtNormalPolicy, JIT_NORMAL_AT_THE_LATEST_MS);
  jitAtTheLatest.unref?.();
  core.onClose(() => clearTimeout(jitAtTheLatest));
  core.onClose(() => clearTimeout(afterListening));
  // Tells `cairn restore` a server has this data directory (platform/pidfile.ts).
  core.onClose(writePidFile(core.data.root));
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`;
  return {
    core,
    server,
    url,
    stop() {
      // 1. stop accepting connections and let in-flight requests finish;
      // 2. then flush pending writes, checkpoint the WAL and close the database.
      // Editors are told to reconnect (1012) and every room is saved before the database closes.
      rest?.collab.stop();
      stopping ??= server.stop(false).then(() => {
        // How often the kept answers answered, for whoever tunes them (and the bench).
        core.log.info("kept answers", { caches: keptAnswerStats() });
        core.close();
      });
      return stopping;
    },
  };
}
