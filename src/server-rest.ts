import type { Server } from "bun";
import type { Core } from "./core";
import { composeStreamedRoutes, createApp, durableHandler, type RequestHandler } from "./http/app";
import { upgradeCollab } from "./collab/socket-routes";
import { startCollab, type Collab, type CollabOptions } from "./collab/start";

/** What the server loads after it listens (server.ts): collaboration and the whole HTTP app. */
export interface ServerRest {
  collab: Collab;
  handle: RequestHandler;
  upgrade(request: Request, server: Server<unknown>): Response | undefined;
}

export function startRest(core: Core, collabOptions?: CollabOptions): ServerRest {
  // Collaboration first: the whole app's routes reach rooms through the host it sets.
  const collab = startCollab(core, collabOptions);
  const app = createApp(core, { composeStreamedLater: true });
  composeStreamedRoutes(app);
  return { collab, handle: durableHandler(core, app), upgrade: (request, server) => upgradeCollab(collab, request, server) };
}
