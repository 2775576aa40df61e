import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { problems } from "../http/schemas";
import { copyPage } from "./copy";
import { movePage } from "./move";
import { CopyBody, MoveBody, Page, PageParams, SpaceQuery, TreeNode } from "./schemas";
import { pageTree } from "./tree";

const detail = (summary: string) => ({ tags: ["Pages"], summary });

/** Where pages sit: the tree, moving and copying. */
export function structureRoutes(core: Core) {
  return new Elysia()
    // Elysia infers a TypeBox Recursive's children as never[], hence the cast; the schema still
    // checks the answer at run time and describes it in the OpenAPI document.
    .get("/tree", ({ query, request }) => pageTree(core, callerOf(request), query.spaceId) as never, {
      query: SpaceQuery,
      response: { 200: t.Array(TreeNode), ...problems(400, 404) },
      detail: detail("The published pages of a space, nested, ordered by position then title"),
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
    );
}
