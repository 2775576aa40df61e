import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { Id, problems } from "../http/schemas";
import { KeyParams } from "../spaces/schemas";
import { pageWatchState, setPageWatch, setSpaceWatch, spaceWatchState } from "./service";

const detail = (summary: string) => ({ tags: ["Watches"], summary });

export const WatchState = t.Object({ watching: t.Boolean({ description: "Whether you now watch it" }) }, { title: "WatchState" });

export const PageWatchState = t.Object(
  {
    watching: t.Boolean({ description: "Whether you now watch it" }),
    watcherCount: t.Integer({
      minimum: 0,
      description:
        "How many accounts watch this page directly (you included, if you do). People who watch only its space " +
        "are not counted: they hear of new pages, not of this page's edits and comments",
    }),
  },
  { title: "PageWatchState" },
);

const PageParams = t.Object({ id: Id });

/**
 * /api/pages/{id}/watch and /api/spaces/{key}/watch (the page routes name their parameter
 * `id`, the space routes `key`). POST and DELETE are idempotent and answer 200 with the state.
 */
export function watchRoutes(core: Core) {
  return new Elysia()
    .get("/api/pages/:id/watch", ({ params, request }) => pageWatchState(core, callerOf(request), params.id), {
      params: PageParams,
      response: { 200: PageWatchState, ...problems(401, 404) },
      detail: detail("Whether you watch a page (told of its updates and comments)"),
    })
    .post("/api/pages/:id/watch", ({ params, request }) => setPageWatch(core, callerOf(request), params.id, true), {
      params: PageParams,
      response: { 200: WatchState, ...problems(401, 403, 404) },
      detail: detail("Watch a page (creating or editing a page watches it automatically)"),
    })
    .delete("/api/pages/:id/watch", ({ params, request }) => setPageWatch(core, callerOf(request), params.id, false), {
      params: PageParams,
      response: { 200: WatchState, ...problems(401, 403, 404) },
      detail: detail("Stop watching a page; later edits of yours do not watch it again"),
    })
    .get("/api/spaces/:key/watch", ({ params, request }) => spaceWatchState(core, callerOf(request), params.key), {
      params: KeyParams,
      response: { 200: WatchState, ...problems(401, 404) },
      detail: detail("Whether you watch a space (told of every page created in it)"),
    })
    .post("/api/spaces/:key/watch", ({ params, request }) => setSpaceWatch(core, callerOf(request), params.key, true), {
      params: KeyParams,
      response: { 200: WatchState, ...problems(401, 403, 404) },
      detail: detail("Watch a space"),
    })
    .delete("/api/spaces/:key/watch", ({ params, request }) => setSpaceWatch(core, callerOf(request), params.key, false), {
      params: KeyParams,
      response: { 200: WatchState, ...problems(401, 403, 404) },
      detail: detail("Stop watching a space"),
    });
}
