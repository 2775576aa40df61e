import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { problems } from "../http/schemas";
import { readyJsonVarying } from "../platform/security-headers";
import { copyPage } from "../commands/copy-page";
import { movePage } from "./move";
import { listRecentPages } from "./recent";
import { CopyBody, MoveBody, Page, PageParams, RecentPage, RecentQuery, SpaceQuery, TreeNode } from "./schemas";
import { pageTreeBody } from "./tree";

const detail = (summary: string) => ({ tags: ["Pages"], summary });

/** Where pages sit: the tree, moving and copying. */
export function structureRoutes(core: Core) {
  return (
    new Elysia()
      // Ready JSON bytes, kept between requests (tree.ts); checking it against the recursive
      // schema cost more than building it (≈1 ms for 1,000 pages). Tree tests check the shape.
      // Gzipped for a client that takes it: at 120 KB the bytes, not the server, set the pace.
      .get(
        "/tree",
        ({ query, request, set }) => {
          const { body, gzipped } = pageTreeBody(core, callerOf(request), query.spaceId, request.headers.get("accept-encoding"));
          return readyJsonVarying(body, gzipped, set);
        },
        {
          query: SpaceQuery,
          response: { 200: t.Array(TreeNode), ...problems(400, 404) },
          detail: detail("The published pages of a space, nested, ordered by position then title"),
        },
      )
      .get("/recent", ({ query, request }) => listRecentPages(core, callerOf(request), query.spaceId, query.limit), {
        query: RecentQuery,
        response: { 200: t.Array(RecentPage), ...problems(400, 404) },
        detail: detail("A space's recently updated pages, newest first, with who changed each last"),
      })
      .put("/:id/move", ({ params, body, request }) => movePage(core, callerOf(request), params.id, body), {
        params: PageParams,
        body: MoveBody,
        response: { 200: Page, ...problems(400, 401, 403, 404, 409) },
        detail: detail("Move a page (with its subtree) under another parent, to a position among its siblings, or to another space"),
      })
      .post(
        "/:id/copy",
        ({ params, body, request, set }) => {
          const page = copyPage(core, callerOf(request), params.id, body);
          set.status = 201;
          return page;
        },
        {
          params: PageParams,
          body: CopyBody,
          response: { 201: Page, ...problems(400, 401, 403, 404, 409) },
          detail: detail("Copy a page (optionally with its children) with a fresh history; answers the new page"),
        },
      )
  );
}
