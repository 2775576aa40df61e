import { and, getTableName, isNull } from "drizzle-orm";
import { readableSpaceFilter, spaceCapabilities, requireAdminSpace, requireReadableSpace, spaceArchived } from "../access/spaces";
import { OPERATION } from "../access/tables";
import { requireUser, type Caller } from "../identity/caller";
import type { Core } from "../core";
import { keptUntilWrite } from "../platform/db/kept-answers";
import { recordEvent } from "../events/outbox";
import { iso } from "../platform/clock";
import { invalid } from "../platform/errors";
import { multiLine, singleLine } from "../platform/text";
import { spaceRowById, spaceRowByKey, spaceRowsWhere, updateSpaceRow } from "./store";
import { spaces, type SpaceRow } from "./tables";
import { SPACE_DESCRIPTION_MAX, SPACE_KEY_MAX, SPACE_NAME_MAX } from "../common/limits";

export const KEY_MAX = SPACE_KEY_MAX;
export const SPACE_KEY_RULE = `2 to ${KEY_MAX} letters and digits, starting with a letter`;
const KEY_PATTERN = new RegExp(`^[A-Za-z][A-Za-z0-9]{1,${KEY_MAX - 1}}$`);
/** Name and description limits, also the schemas' (schemas.ts). */
export const NAME_MAX = SPACE_NAME_MAX;
export const DESCRIPTION_MAX = SPACE_DESCRIPTION_MAX;

/** Keys are compared and stored upper-case, so "docs" and "DOCS" are the same space. */
export function normaliseKey(key: string): string {
  const k = key.trim();
  if (!KEY_PATTERN.test(k)) throw invalid("key", `must be ${SPACE_KEY_RULE}`);
  return k.toUpperCase();
}

/** A space as the API answers it (docs/api.md, "Response shapes"). */
export function toSpace(row: SpaceRow) {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    description: row.description,
    isPublic: row.isPublic,
    publicComments: row.publicComments,
    archived: row.archivedAt !== null,
    archivedAt: row.archivedAt,
    iconKind: row.iconKind,
    iconValue: row.iconValue,
    iconColor: row.iconColor,
    treeStyle: row.treeStyle,
    exports: { markdown: row.exportMarkdown, html: row.exportHtml, pdf: row.exportPdf, site: row.exportSite, pack: row.exportPack },
    homepageId: row.homepageId,
    createdById: row.createdById,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The space's own fields, the same for every caller (the instance admin's list uses these). */
export type SpaceMetadata = ReturnType<typeof toSpace>;

/**
 * What the caller may do in the space, so clients need not probe admin-only endpoints. Decided
 * by access/spaces.ts; pages cannot be changed in an archived space, as for a page's canEdit.
 * Never kept (kept-answers): the grants it reads are cached there, per caller, until a write.
 */
/** The Space the API answers: its fields and what the caller may do in it. */
export function spaceFor(core: Core, caller: Caller, row: SpaceRow) {
  return { ...toSpace(row), ...spaceCapabilities(core, caller, row) };
}

export type Space = ReturnType<typeof spaceFor>;

/**
 * Space rows found, kept until the spaces table changes (platform/db/table-stamps.ts): every
 * tree, page and search request names its space, and spaces are seldom written. A space not
 * found is not kept (a client trying names would only fill the cache). Shared between
 * requests: read them, never change them.
 */
const keptSpaces = keptUntilWrite<SpaceRow | undefined>("spaces", 2_000, undefined, { tables: [{ table: getTableName(spaces) }] });

export function findSpaceByKey(core: Core, key: string): SpaceRow | undefined {
  // A malformed key cannot exist: answer "not found" rather than a 400 on a path segment.
  if (!KEY_PATTERN.test(key)) return undefined;
  const upper = key.toUpperCase();
  return keptSpaces(core.stamp, `key:${upper}`, () => spaceRowByKey(core, upper));
}

export function findSpaceById(core: Core, id: string): SpaceRow | undefined {
  return keptSpaces(core.stamp, `id:${id}`, () => spaceRowById(core, id));
}

/**
 * A space named by a request (`spaceId` in a query or body): its id, or its key in any case,
 * as in /api/spaces/{key}. The two cannot be confused: ids are UUIDs (with hyphens), keys
 * letters and digits only. Every route that takes a space goes through here.
 */
export function findSpaceByIdOrKey(core: Core, idOrKey: string): SpaceRow | undefined {
  return findSpaceById(core, idOrKey) ?? findSpaceByKey(core, idOrKey);
}

/** GET /api/spaces: visible spaces by name (one query); archived ones only when asked for. */
export function listSpaces(core: Core, caller: Caller, includeArchived: boolean): Space[] {
  return spaceRowsWhere(
    core,
    and(includeArchived ? undefined : isNull(spaces.archivedAt), readableSpaceFilter(core, caller, spaces.id)),
  ).map((row) => spaceFor(core, caller, row));
}

export function getSpace(core: Core, caller: Caller, key: string): Space {
  return spaceFor(core, caller, requireReadableSpace(core, caller, findSpaceByKey(core, key)));
}

/** One line: control characters are refused as sent (platform/text.ts), then spaces collapse. */
export function cleanName(name: string): string {
  const n = singleLine("name", name).trim().replace(/\s+/g, " ");
  if (!n) throw invalid("name", "must not be blank");
  if (n.length > NAME_MAX) throw invalid("name", `must be at most ${NAME_MAX} characters`);
  return n;
}

/** Several lines of prose: tab and line feed are the only controls allowed. */
export function cleanDescription(description: string): string {
  const d = multiLine("description", description).trim();
  if (d.length > DESCRIPTION_MAX) throw invalid("description", `must be at most ${DESCRIPTION_MAX} characters`);
  return d;
}

export interface CreateSpaceInput {
  key: string;
  name: string;
  description?: string;
}

/**
 * Who can see a new space, for its creator (docs/decisions.md, "New spaces say who can see
 * them"): the defaults are open, and nothing else says so.
 */
export function newSpaceAccess(key: string) {
  return {
    everyone: OPERATION.Edit as number | null,
    summary:
      `Everyone signed in can view and edit ${key}: the built-in Everyone group has Edit, and you have Admin. ` +
      `To choose who can see it, change the space's permissions (GET ` +
      `/api/spaces/${key}/permissions); removing the Everyone grant makes it private.`,
  };
}

export interface UpdateSpaceInput {
  name?: string;
  description?: string;
  iconKind?: number;
  iconValue?: string | null;
  iconColor?: string | null;
  treeStyle?: number;
}

/** PUT /api/spaces/{key}: changes only the fields sent. Space administrators only. */
export function updateSpace(core: Core, caller: Caller, key: string, input: UpdateSpaceInput): Space {
  const user = requireUser(caller);
  const changes: Partial<SpaceRow> = {};
  if (input.name !== undefined) changes.name = cleanName(input.name);
  if (input.description !== undefined) changes.description = cleanDescription(input.description);
  if (input.iconKind !== undefined) changes.iconKind = input.iconKind;
  if (input.iconValue !== undefined)
    changes.iconValue = input.iconValue === null || input.iconValue.trim() === "" ? null : input.iconValue.trim();
  if (input.iconColor !== undefined) {
    if (input.iconColor !== null && !/^#[0-9a-fA-F]{6}$/.test(input.iconColor))
      throw invalid("iconColor", "must be a colour such as #3366ff, or null");
    changes.iconColor = input.iconColor?.toLowerCase() ?? null;
  }
  if (input.treeStyle !== undefined) changes.treeStyle = input.treeStyle;
  return changeSpace(core, user, key, changes, { fields: Object.keys(changes) });
}

export interface ExportSwitches {
  markdown?: boolean;
  html?: boolean;
  pdf?: boolean;
  site?: boolean;
  pack?: boolean;
}

/** PUT /api/spaces/{key}/exports: the switches sent; the others keep their value. */
export function setExports(core: Core, caller: Caller, key: string, input: ExportSwitches): Space {
  const user = requireUser(caller);
  const changes: Partial<SpaceRow> = {};
  if (input.markdown !== undefined) changes.exportMarkdown = input.markdown;
  if (input.html !== undefined) changes.exportHtml = input.html;
  if (input.pdf !== undefined) changes.exportPdf = input.pdf;
  if (input.site !== undefined) changes.exportSite = input.site;
  if (input.pack !== undefined) changes.exportPack = input.pack;
  return changeSpace(core, user, key, changes, { exports: input });
}

/** Settings changes share this: admin only, refused while archived, one space.updated event. */
function changeSpace(
  core: Core,
  caller: Caller & { kind: "user" },
  key: string,
  changes: Partial<SpaceRow>,
  data: Record<string, unknown>,
): Space {
  return core.tx(() => {
    const space = requireAdminSpace(core, caller, findSpaceByKey(core, key));
    if (space.archivedAt) throw spaceArchived();
    updateSpaceRow(core, space.id, { ...changes, updatedAt: iso(core.clock.now()) });
    recordEvent(core, {
      type: "space.updated",
      targetType: "space",
      targetId: space.id,
      spaceId: space.id,
      actorId: caller.user.id,
      ip: caller.ip,
      data,
    });
    return spaceFor(core, caller, findSpaceById(core, space.id)!);
  });
}

/** POST /archive and /unarchive. Asking for the state the space is already in changes nothing. */
export function setArchived(core: Core, caller: Caller, key: string, archived: boolean): Space {
  const user = requireUser(caller);
  return core.tx(() => {
    const space = requireAdminSpace(core, user, findSpaceByKey(core, key));
    if ((space.archivedAt !== null) === archived) return spaceFor(core, user, space);
    const now = iso(core.clock.now());
    updateSpaceRow(core, space.id, { archivedAt: archived ? now : null, updatedAt: now });
    recordEvent(core, {
      type: archived ? "space.archived" : "space.unarchived",
      targetType: "space",
      targetId: space.id,
      spaceId: space.id,
      actorId: user.user.id,
      ip: user.ip,
    });
    return spaceFor(core, user, findSpaceById(core, space.id)!);
  });
}
