import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { problems } from "../http/schemas";
import { listBacklinks, pageTitles, TITLES_MAX } from "./links";
import { PageParams } from "./schemas";

const LinkedPage = t.Object(
  {
    id: t.String(),
    title: t.String(),
    emoji: t.Nullable(t.String()),
    spaceId: t.String(),
    spaceKey: t.String(),
    spaceName: t.String(),
  },
  { title: "LinkedPage" },
);

const detail = (summary: string) => ({ tags: ["Pages"], summary });

/** Links between pages: backlinks, and the current titles a page's links show. */
export function linksRoutes(core: Core) {
  return new Elysia()
    .get("/titles", ({ query, request }) => pageTitles(core, callerOf(request), query.ids), {
      query: t.Object({ ids: t.String({ maxLength: TITLES_MAX * 40, description: `Page ids, comma-separated, at most ${TITLES_MAX}` }) }),
      response: { 200: t.Array(LinkedPage), ...problems(400) },
      detail: detail("The current titles of pages the caller may read, out of the trash (others are left out), for showing links to them"),
    })
    .get("/:id/backlinks", ({ params, request }) => listBacklinks(core, callerOf(request), params.id), {
      params: PageParams,
      response: { 200: t.Array(LinkedPage), ...problems(404) },
      detail: detail("The published pages the caller may read whose current version links to this page, by title"),
    });
}
