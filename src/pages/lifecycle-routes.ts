import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { DOCUMENT_BODY } from "../http/body";
import { callerOf } from "../http/request-state";
import { NoContent, noContent, problems } from "../http/schemas";
import { createDraft, discardDraft, publishDraft } from "./drafts";
import { DraftBody, Page, PageParams, PublishBody, TrashEntry, TrashQuery } from "./schemas";
import { purgePage } from "../commands/purge-page";
import { listTrash, restorePage, trashPage } from "./trash";

const detail = (summary: string) => ({ tags: ["Pages"], summary });

/** Drafts and the trash. */
export function lifecycleRoutes(core: Core) {
  return new Elysia()
    .post(
      "/draft",
      ({ body, request, set }) => {
        const page = createDraft(core, callerOf(request), body);
        set.status = 201;
        return page;
      },
      {
        body: DraftBody,
        response: { 201: Page, ...problems(400, 401, 403, 404) },
        detail: detail("Start a draft, visible only to you until published"),
      },
    )
    .post("/:id/publish", ({ params, body, request }) => publishDraft(core, callerOf(request), params.id, body), {
      params: PageParams,
      body: PublishBody,
      response: { 200: Page, ...problems(400, 401, 403, 404, 409) },
      detail: { ...detail("Publish a draft with its title and document (fires page.created)"), ...DOCUMENT_BODY },
    })
    .delete(
      "/:id/draft",
      ({ params, request }) => {
        discardDraft(core, callerOf(request), params.id);
        return noContent();
      },
      { params: PageParams, response: { 204: NoContent, ...problems(401, 403, 404, 409) }, detail: detail("Throw a draft away for good") },
    )
    .get("/trash", ({ query, request }) => listTrash(core, callerOf(request), query.spaceId), {
      query: TrashQuery,
      response: { 200: t.Array(TrashEntry), ...problems(400, 404) },
      detail: detail("Pages in the trash (the roots of what was deleted together), newest first"),
    })
    .delete(
      "/:id",
      ({ params, request }) => {
        trashPage(core, callerOf(request), params.id);
        return noContent();
      },
      {
        params: PageParams,
        response: { 204: NoContent, ...problems(401, 403, 404, 409) },
        detail: detail("Move a page and its subtree to the trash"),
      },
    )
    .post("/:id/restore", ({ params, request }) => restorePage(core, callerOf(request), params.id), {
      params: PageParams,
      response: { 200: Page, ...problems(401, 403, 404, 409) },
      detail: detail("Bring a page and its subtree back from the trash (to the top level if its parent is gone)"),
    })
    .delete(
      "/:id/purge",
      ({ params, request }) => {
        purgePage(core, callerOf(request), params.id);
        return noContent();
      },
      {
        params: PageParams,
        response: { 204: NoContent, ...problems(401, 403, 404, 409) },
        detail: detail(
          "Delete a trashed page and its subtree for good; pages others created need a space admin or the right " +
            "pages.delete_any; needs a recent password confirmation (tokens: 403 reauth_required)",
        ),
      },
    );
}
