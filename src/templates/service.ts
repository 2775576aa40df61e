/**
 * Page templates: of one space (Edit on the space to make or change them) or wiki-wide
 * (instance administrators only: access/templates.ts). Their content passes the same editor
 * schema check as page bodies. A space is named by its id or its key.
 */
import { requireWikiTemplateManager } from "../access/templates";
import { requireEditableSpace, requireReadableSpace } from "../access/spaces";
import { requireUser, type Caller, type UserCaller } from "../identity/caller";
import { checkContentJson, EMPTY_DOCUMENT_JSON } from "../content/validate";
import type { Core } from "../core";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { invalid, notFound } from "../platform/errors";
import { multiLine, singleLine } from "../platform/text";
import { findSpaceById, findSpaceByIdOrKey } from "../spaces/service";
import { deleteTemplateRow, insertTemplate, templateById, templatesFor, updateTemplateRow } from "./store";
import type { TemplateRow } from "./tables";
import { TEMPLATE_DESCRIPTION_MAX, TEMPLATE_NAME_MAX } from "../common/limits";

export const NAME_MAX = TEMPLATE_NAME_MAX;
export const DESCRIPTION_MAX = TEMPLATE_DESCRIPTION_MAX;

/** A template as the API answers it, plus updatedAt (docs/api.md, "Response shapes"). */
export function toTemplate(row: TemplateRow) {
  return {
    id: row.id,
    spaceId: row.spaceId,
    name: row.name,
    description: row.description,
    contentJson: row.contentJson,
    createdById: row.createdById,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export type Template = ReturnType<typeof toTemplate>;

/** One line without control characters (platform/text.ts), as sent. */
function checkName(name: string): string {
  const n = singleLine("name", name).trim();
  if (!n) throw invalid("name", "must not be blank");
  if (n.length > NAME_MAX) throw invalid("name", `must be at most ${NAME_MAX} characters`);
  return n;
}

/** Several lines: tab and line feed are the only controls allowed. */
function checkDescription(description: string | undefined): string {
  const d = multiLine("description", description ?? "").trim();
  if (d.length > DESCRIPTION_MAX) throw invalid("description", `must be at most ${DESCRIPTION_MAX} characters`);
  return d;
}

/**
 * GET /api/templates: without spaceId the wiki-wide templates; with it (an id or key), those
 * and the space's own (the space must be readable: 404 otherwise). By name.
 */
export function listTemplates(core: Core, caller: Caller, spaceRef: string | undefined): Template[] {
  requireUser(caller);
  const spaceId = spaceRef === undefined ? undefined : requireReadableSpace(core, caller, findSpaceByIdOrKey(core, spaceRef)).id;
  return templatesFor(core, spaceId).map(toTemplate);
}

export interface NewTemplate {
  spaceId?: string | null;
  name: string;
  description?: string;
  contentJson?: string;
}

/** POST /api/templates: a space template (Edit on the space) or a wiki-wide one (administrators). */
export function createTemplate(core: Core, caller: Caller, input: NewTemplate): Template {
  const user = requireUser(caller);
  const name = checkName(input.name);
  const description = checkDescription(input.description);
  const contentJson = input.contentJson === undefined ? EMPTY_DOCUMENT_JSON : checkContentJson(input.contentJson).json;
  return core.tx(() => {
    let spaceId: string | null = null;
    if (input.spaceId) spaceId = requireEditableSpace(core, user, findSpaceByIdOrKey(core, input.spaceId)).id;
    else requireWikiTemplateManager(user);
    const now = iso(core.clock.now());
    const row = insertTemplate(core, {
      id: newId(),
      spaceId,
      name,
      description,
      contentJson,
      createdById: user.user.id,
      createdAt: now,
      updatedAt: now,
    });
    return toTemplate(row);
  });
}

/** A template as the caller may change it: visible (404), then Edit on its space or an administrator (403). */
function changeableTemplate(core: Core, caller: UserCaller, id: string): TemplateRow {
  const row = templateById(core, id);
  if (!row) throw notFound("Template not found");
  if (row.spaceId) requireEditableSpace(core, caller, findSpaceById(core, row.spaceId));
  else requireWikiTemplateManager(caller);
  return row;
}

export interface TemplateChange {
  name?: string;
  description?: string;
  contentJson?: string;
}

/** PUT /api/templates/{id}: name, description and (Cairn's addition) contentJson; what is left out stays. */
export function updateTemplate(core: Core, caller: Caller, id: string, input: TemplateChange): Template {
  const user = requireUser(caller);
  if (input.name === undefined && input.description === undefined && input.contentJson === undefined)
    throw invalid("name", "send a name, a description or a contentJson");
  const set: Partial<TemplateRow> = {};
  if (input.name !== undefined) set.name = checkName(input.name);
  if (input.description !== undefined) set.description = checkDescription(input.description);
  if (input.contentJson !== undefined) set.contentJson = checkContentJson(input.contentJson).json;
  return core.tx(() => {
    const row = changeableTemplate(core, user, id);
    return toTemplate(updateTemplateRow(core, row.id, { ...set, updatedAt: iso(core.clock.now()) }));
  });
}

/**
 * DELETE /api/templates/{id}: the same rights as changing it; no re-authentication
 * (docs/permissions.md, "Re-authentication").
 */
export function deleteTemplate(core: Core, caller: Caller, id: string): void {
  const user = requireUser(caller);
  core.tx(() => {
    const row = changeableTemplate(core, user, id);
    deleteTemplateRow(core, row.id);
  });
}
