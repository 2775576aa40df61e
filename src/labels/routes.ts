import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { Id, NoContent, noContent, problems } from "../http/schemas";
import { Label, LabelBody, LabelledPage, LabelNameParams, LabelWithCount, PageLabelParams } from "./schemas";
import { addLabel, labelPages, listLabels, pageLabelList, removeLabel } from "./service";

const detail = (summary: string) => ({ tags: ["Labels"], summary });

/** /api/labels and /api/pages/{id}/labels (the page routes name their parameter `id`). */
export function labelRoutes(core: Core) {
  return new Elysia()
    .get("/api/labels", ({ request }) => listLabels(core, callerOf(request)), {
      response: { 200: t.Array(LabelWithCount) },
      detail: detail("Every label on a page you can see, by name, with how many such pages carry it"),
    })
    .get("/api/labels/:name/pages", ({ params, request }) => labelPages(core, callerOf(request), params.name), {
      params: LabelNameParams,
      response: { 200: t.Array(LabelledPage), ...problems(400) },
      detail: detail("The pages you can see that carry a label, by title (an unknown label answers an empty list)"),
    })
    .get("/api/pages/:id/labels", ({ params, request }) => pageLabelList(core, callerOf(request), params.id), {
      params: t.Object({ id: Id }),
      response: { 200: t.Array(Label), ...problems(404) },
      detail: detail("A page's labels, by name"),
    })
    .post(
      "/api/pages/:id/labels",
      ({ params, body, request, set }) => {
        const { label, added } = addLabel(core, callerOf(request), params.id, body.name);
        set.status = added ? 201 : 200;
        return label;
      },
      {
        params: t.Object({ id: Id }),
        body: LabelBody,
        response: { 200: Label, 201: Label, ...problems(400, 401, 403, 404, 409) },
        detail: detail("Put a label on a page (201; 200 when it already has it, changing nothing); fires label.added"),
      },
    )
    .delete(
      "/api/pages/:id/labels/:name",
      ({ params, request }) => {
        removeLabel(core, callerOf(request), params.id, params.name);
        return noContent();
      },
      {
        params: PageLabelParams,
        response: { 204: NoContent, ...problems(400, 401, 403, 404, 409) },
        detail: detail("Take a label off a page; fires label.removed"),
      },
    );
}
