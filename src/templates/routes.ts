import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { DOCUMENT_BODY } from "../http/body";
import { callerOf } from "../http/request-state";
import { NoContent, noContent, problems } from "../http/schemas";
import { CreateTemplateBody, Template, TemplateParams, TemplateQuery, UpdateTemplateBody } from "./schemas";
import { createTemplate, deleteTemplate, listTemplates, updateTemplate } from "./service";

const detail = (summary: string) => ({ tags: ["Templates"], summary });

export function templateRoutes(core: Core) {
  return new Elysia({ prefix: "/api/templates" })
    .get("/", ({ query, request }) => listTemplates(core, callerOf(request), query.spaceId), {
      query: TemplateQuery,
      response: { 200: t.Array(Template), ...problems(401, 404) },
      detail: detail("Wiki-wide templates; with spaceId, also that space's own; by name"),
    })
    .post(
      "/",
      ({ body, request, set }) => {
        const created = createTemplate(core, callerOf(request), body);
        set.status = 201;
        return created;
      },
      {
        body: CreateTemplateBody,
        response: { 201: Template, ...problems(400, 401, 403, 404) },
        detail: { ...detail("Create a space template (Edit on the space) or a wiki-wide one (administrators only)"), ...DOCUMENT_BODY },
      },
    )
    .put("/:id", ({ params, body, request }) => updateTemplate(core, callerOf(request), params.id, body), {
      params: TemplateParams,
      body: UpdateTemplateBody,
      response: { 200: Template, ...problems(400, 401, 403, 404) },
      detail: {
        ...detail("Change a template's name, description or content (space templates: Edit on the space; wiki-wide: administrators only)"),
        ...DOCUMENT_BODY,
      },
    })
    .delete(
      "/:id",
      ({ params, request }) => {
        deleteTemplate(core, callerOf(request), params.id);
        return noContent();
      },
      {
        params: TemplateParams,
        response: { 204: NoContent, ...problems(401, 403, 404) },
        detail: detail("Delete a template (the same rights as changing it)"),
      },
    );
}
