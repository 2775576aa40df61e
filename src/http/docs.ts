import { openapi } from "@elysiajs/openapi";
import type { Core } from "../core";

/** GET /api/openapi.json, generated from the routes' schemas. */
export function docsRoutes(core: Core) {
  return openapi({
    path: "/api/docs",
    specPath: "/api/openapi.json",
    provider: null,
    documentation: {
      info: { title: "Cairn API", version: core.version },
    },
  });
}
