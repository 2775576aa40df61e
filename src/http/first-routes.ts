import type { Core } from "../core";
import { authRoutes } from "../auth/routes";
import { systemRoutes } from "../system/routes";

/**
 * The route groups the server composes first, at the first request that needs them (a health
 * check is answered before, by early-health.ts): what a first look at the instance and signing
 * in ask for. Every other group (and these again) is in the whole app (app.ts), loaded just
 * after listening or by the first request it is needed for (server.ts); keep this list to
 * groups that load no editor, collaboration or export code.
 */
export function firstRoutes(core: Core) {
  return [systemRoutes(core), authRoutes(core)];
}
