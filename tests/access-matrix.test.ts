/**
 * The access matrix: every route that takes a space or a page, called by every kind of caller, each
 * with the status the rules of docs/permissions.md give. Built once (tests/access-fixtures.ts);
 * rows that change or destroy what they touch get a fresh target of their own (a fresh space is
 * shared by the callers such a row refuses).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { strToU8, zipSync } from "fflate";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PNG } from "../src/attachments/testing";
import { GROUP_ID } from "../src/identity/builtin-groups";
import { buildWorld, CALLERS, deleteSpaceBody, freshMaker, type CallerName, type World } from "./access-fixtures";
import { call, makeEnv, type TestEnv, type Who } from "./harness";

let env: TestEnv;
let w: World;
let fresh: ReturnType<typeof freshMaker>;
/**
 * A fresh space costs seven requests (the space and its six grants). A caller a row refuses
 * changes nothing by its call, so the row's refused callers share one fresh space; each caller it
 * lets through still gets one of its own. Set while a case runs: the row, if its caller is refused.
 */
let refusedRow: Row | null = null;
const refusedSpaces = new Map<Row, Promise<string>>();
beforeAll(async () => {
  env = makeEnv();
  w = await buildWorld(env);
  const made = freshMaker(env, w);
  fresh = {
    ...made,
    space: () => {
      if (!refusedRow) return made.space();
      let shared = refusedSpaces.get(refusedRow);
      if (!shared) refusedSpaces.set(refusedRow, (shared = made.space()));
      return shared;
    },
  };
});
afterAll(() => env.close());

/** A fresh page of MAIN with one task to tick. */
async function checklist(): Promise<string> {
  const contentJson = JSON.stringify({
    type: "doc",
    content: [{ type: "taskList", content: [{ type: "taskItem", attrs: { checked: false }, content: [{ type: "paragraph" }] }] }],
  });
  return (await call(env, "POST", "/api/pages", { as: w.who.spaceAdmin, body: { spaceId: w.main.id, title: "Checklist", contentJson } }))
    .body.id;
}

interface Ctx {
  name: CallerName;
  who: Who;
}
type Lazy<T> = (c: Ctx) => T | Promise<T>;

interface Row {
  /** The route as the app registers it, e.g. "PUT /api/pages/:id". */
  route: string;
  target: string;
  /** Expected status per caller, in CALLERS order; "ok" is the route's success status. */
  expect: string;
  ok: number;
  path: Lazy<string>;
  body?: Lazy<unknown>;
}

// Caller order: anonymous readOnly everyone viewer editor groupMember spaceAdmin instanceAdmin
// owner shutOut limited
const P = {
  anyone: "ok ok ok ok ok ok ok ok ok ok ok",
  signedIn: "401 ok ok ok ok ok ok ok ok ok ok",
  read: "404 ok ok ok ok ok ok ok ok ok ok",
  readSignedIn: "401 ok ok ok ok ok ok ok ok ok ok",
  comment: "401 403 ok ok ok ok ok ok ok ok ok",
  edit: "401 403 403 403 ok ok ok 403 403 ok ok",
  // Routes that look the page up before asking for an account: anonymous callers who cannot see it
  // get 404.
  editVisibleFirst: "404 403 403 403 ok ok ok 403 403 ok ok",
  admin: "401 403 403 403 403 403 ok 403 403 403 403",
  adminRead: "404 ok 403 403 403 403 ok 403 403 403 403",
  adminReadSignedIn: "401 ok 403 403 403 403 ok 403 403 403 403",
  hiddenRead: "404 ok 404 ok ok ok ok 404 404 404 ok",
  hiddenEdit: "401 403 404 403 ok ok ok 404 404 404 ok",
  guardedEdit: "401 403 403 403 ok ok ok 403 403 ok 403",
  privRead: "404 ok 404 404 ok 404 ok 404 404 404 404",
  privEdit: "401 403 404 404 ok 404 ok 404 404 404 404",
  privAdmin: "401 403 404 404 403 404 ok 404 404 404 404",
  editorsDraft: "401 403 404 404 ok 404 404 404 404 404 404",
  author: "401 403 403 403 ok 403 403 403 403 403 403",
  authorOrAdmin: "401 403 403 403 ok 403 ok 403 403 403 403",
  // Edit on the page, or the viewer who wrote it.
  editOrViewerAuthor: "401 403 403 ok ok ok ok 403 403 ok ok",
  instanceRight: "401 403 403 403 403 403 403 ok ok 403 403",
  // A role of the Admin or Owner tier (no right names it): the same callers as instanceRight here.
  adminTier: "401 403 403 403 403 403 403 ok ok 403 403",
  createSpace: "401 403 ok ok ok ok ok ok ok ok ok",
  // A question the same callers may ask (a read-only token too: it changes nothing).
  createSpaceQuestion: "401 ok ok ok ok ok ok ok ok ok ok",
};

let seq = 0;
const uniq = () => `${Date.now().toString(36)}${++seq}`;
const file = () => {
  const fd = new FormData();
  fd.append("file", new File(["matrix"], "m.txt", { type: "text/plain" }));
  return fd;
};

/** An import's form: the new space's key and a zip of one Markdown page. */
const markdownZip = (key: string) => {
  const fd = new FormData();
  fd.append("key", key);
  fd.append("file", new File([zipSync({ "Home.md": strToU8("# Home\n") })], "notes.zip", { type: "application/zip" }));
  return fd;
};

/** A small picture for the space-icon rows. */
const picture = () => {
  const fd = new FormData();
  fd.append("file", new File([PNG], "icon.png", { type: "image/png" }));
  return fd;
};
/** The space (key) with an icon uploaded by its administrator, once. */
const iconsMade = new Map<string, Promise<string>>();
function withIcon(key: string): Promise<string> {
  let made = iconsMade.get(key);
  if (!made) {
    made = call(env, "PUT", `/api/media/space-icons/${key}`, { as: w.who.spaceAdmin, body: picture() }).then((res) => {
      if (res.status !== 200) throw new Error(`icon for ${key}: ${res.status} ${res.text}`);
      return key;
    });
    iconsMade.set(key, made);
  }
  return made;
}

function rows(route: string, target: string, expect: string, ok: number, path: Lazy<string>, body?: Lazy<unknown>): Row {
  return { route, target, expect, ok, path, body };
}

const ROWS: Row[] = [
  // Spaces
  rows("GET /api/spaces", "list", P.anyone, 200, () => "/api/spaces"),
  rows(
    "POST /api/spaces",
    "new",
    P.createSpace,
    201,
    () => "/api/spaces",
    () => ({ key: `S${uniq()}`, name: "New" }),
  ),
  rows(
    "POST /api/spaces/import",
    "new",
    P.createSpace,
    201,
    () => "/api/spaces/import",
    () => markdownZip(`I${uniq()}`),
  ),
  rows("GET /api/spaces/free-key", "new", P.createSpaceQuestion, 200, () => "/api/spaces/free-key?key=PUB"),
  rows("GET /api/spaces/:key", "MAIN", P.read, 200, () => "/api/spaces/MAIN"),
  rows("GET /api/spaces/:key", "PRIV", P.privRead, 200, () => "/api/spaces/PRIV"),
  rows(
    "PUT /api/spaces/:key",
    "MAIN",
    P.admin,
    200,
    () => "/api/spaces/MAIN",
    () => ({ description: "Main space" }),
  ),
  rows(
    "PUT /api/spaces/:key",
    "PRIV",
    P.privAdmin,
    200,
    () => "/api/spaces/PRIV",
    () => ({ description: "Private" }),
  ),
  rows(
    "DELETE /api/spaces/:key",
    "fresh",
    P.admin,
    204,
    async () => `/api/spaces/${(ctxKey = await fresh.space())}`,
    () => deleteSpaceBody(ctxKey),
  ),
  rows("POST /api/spaces/:key/archive", "fresh", P.admin, 200, async () => `/api/spaces/${await fresh.space()}/archive`),
  rows("POST /api/spaces/:key/unarchive", "fresh", P.admin, 200, async () => `/api/spaces/${await fresh.space()}/unarchive`),
  rows("GET /api/spaces/:key/deletion-preview", "MAIN", P.adminRead, 200, () => "/api/spaces/MAIN/deletion-preview"),
  rows(
    "PUT /api/spaces/:key/exports",
    "MAIN",
    P.admin,
    200,
    () => "/api/spaces/MAIN/exports",
    () => ({ pdf: true }),
  ),
  rows("GET /api/spaces/:key/export/pack", "MAIN", P.read, 200, () => "/api/spaces/MAIN/export/pack"),
  rows("GET /api/spaces/:key/export/pack", "PRIV", P.privRead, 200, () => "/api/spaces/PRIV/export/pack"),
  rows("GET /api/spaces/:key/export/site", "MAIN", P.read, 200, () => "/api/spaces/MAIN/export/site"),
  rows("GET /api/spaces/:key/export/site", "PRIV", P.privRead, 200, () => "/api/spaces/PRIV/export/site"),
  rows("GET /api/spaces/:key/permissions", "MAIN", P.adminRead, 200, () => "/api/spaces/MAIN/permissions"),
  rows("GET /api/spaces/:key/permissions", "PRIV", "404 ok 404 404 403 404 ok 404 404 404 404", 200, () => "/api/spaces/PRIV/permissions"),
  rows(
    "POST /api/spaces/:key/permissions",
    "fresh",
    P.admin,
    201,
    async () => `/api/spaces/${await fresh.space()}/permissions`,
    () => ({ principalType: 0, principalId: w.ids.owner, operation: 0 }),
  ),
  rows("DELETE /api/spaces/:key/permissions", "fresh", P.admin, 204, async () => `/api/spaces/${await fresh.space()}/permissions`),
  rows("DELETE /api/spaces/:key/permissions/:id", "fresh", P.admin, 204, async () => {
    const key = await fresh.space();
    return `/api/spaces/${key}/permissions/${await fresh.grantId(key)}`;
  }),
  rows("GET /api/spaces/:key/watch", "MAIN", P.readSignedIn, 200, () => "/api/spaces/MAIN/watch"),
  rows("POST /api/spaces/:key/watch", "MAIN", P.comment, 200, () => "/api/spaces/MAIN/watch"),
  rows("DELETE /api/spaces/:key/watch", "MAIN", P.comment, 200, () => "/api/spaces/MAIN/watch"),
  rows("GET /api/spaces/:key/watch", "PRIV", "401 ok 404 404 ok 404 ok 404 404 404 404", 200, () => "/api/spaces/PRIV/watch"),
  rows("GET /api/spaces/:key/webhooks", "MAIN", P.adminReadSignedIn, 200, () => "/api/spaces/MAIN/webhooks"),
  rows(
    "POST /api/spaces/:key/webhooks",
    "fresh",
    P.admin,
    201,
    async () => `/api/spaces/${await fresh.space()}/webhooks`,
    () => ({ url: "https://hooks.example.com/m", events: ["page.created"] }),
  ),
  rows("DELETE /api/spaces/:key/webhooks/:id", "fresh", P.admin, 204, async () => {
    const key = await fresh.space();
    return `/api/spaces/${key}/webhooks/${await fresh.webhook(key)}`;
  }),
  rows(
    "PUT /api/spaces/:key/webhooks/:id",
    "fresh",
    P.admin,
    200,
    async () => {
      const key = await fresh.space();
      return `/api/spaces/${key}/webhooks/${await fresh.webhook(key)}`;
    },
    () => ({ enabled: false }),
  ),
  rows("POST /api/spaces/:key/webhooks/:id/deliveries/:deliveryId/redeliver", "fresh", P.admin, 201, async () => {
    const key = await fresh.space();
    const made = await call(env, "POST", `/api/spaces/${key}/webhooks`, {
      as: w.who.spaceAdmin,
      body: { url: "https://hooks.example.com/r", events: ["space.updated"] },
    });
    const hook = made.body.id;
    // A change of the space queues a delivery to the hook (whether it arrives does not matter
    // here).
    await call(env, "PUT", `/api/spaces/${key}`, { as: w.who.spaceAdmin, body: { description: uniq() } });
    const [delivery] = (await call(env, "GET", `/api/spaces/${key}/webhooks/${hook}/deliveries`, { as: w.who.spaceAdmin })).body;
    return `/api/spaces/${key}/webhooks/${hook}/deliveries/${delivery.id}/redeliver`;
  }),
  rows("GET /api/spaces/:key/webhooks/:id/deliveries", "fresh", P.adminReadSignedIn, 200, async () => {
    const key = await fresh.space();
    return `/api/spaces/${key}/webhooks/${await fresh.webhook(key)}/deliveries`;
  }),
  // Administration of spaces
  rows("GET /api/admin/spaces", "all", P.instanceRight, 200, () => "/api/admin/spaces"),
  rows(
    "PUT /api/admin/spaces/:key/public",
    "fresh",
    P.instanceRight,
    200,
    async () => `/api/admin/spaces/${await fresh.space()}/public`,
    () => ({ isPublic: true }),
  ),
  rows(
    "POST /api/admin/spaces/:key/recover-access",
    "fresh",
    P.instanceRight,
    200,
    async () => `/api/admin/spaces/${await fresh.space()}/recover-access`,
  ),
  // Instance settings (right settings.manage). The PUT sends the name as it is: no other row
  // changes.
  rows("GET /api/admin/settings", "all", P.instanceRight, 200, () => "/api/admin/settings"),
  rows(
    "PUT /api/admin/settings",
    "instanceName",
    P.instanceRight,
    200,
    () => "/api/admin/settings",
    () => ({ instanceName: "Cairn" }),
  ),
  // Pages
  rows(
    "POST /api/pages",
    "MAIN",
    P.edit,
    201,
    () => "/api/pages",
    () => ({ spaceId: w.main.id, title: "Made" }),
  ),
  rows(
    "POST /api/pages",
    "PRIV",
    P.privEdit,
    201,
    () => "/api/pages",
    () => ({ spaceId: w.priv.id, title: "Made" }),
  ),
  rows(
    "POST /api/pages",
    "under HIDDEN",
    "401 403 403 403 ok ok ok 403 403 404 ok",
    201,
    () => "/api/pages",
    () => ({ spaceId: w.main.id, parentPageId: w.hidden, title: "Made" }),
  ),
  rows(
    "POST /api/pages",
    "under GUARDED",
    P.guardedEdit,
    201,
    () => "/api/pages",
    () => ({ spaceId: w.main.id, parentPageId: w.guarded, title: "Made" }),
  ),
  rows(
    "POST /api/pages/draft",
    "MAIN",
    P.edit,
    201,
    () => "/api/pages/draft",
    () => ({ spaceId: w.main.id }),
  ),
  rows("GET /api/pages/tree", "MAIN", P.read, 200, () => `/api/pages/tree?spaceId=${w.main.id}`),
  rows("GET /api/pages/tree", "PRIV", P.privRead, 200, () => `/api/pages/tree?spaceId=${w.priv.id}`),
  rows("GET /api/pages/recent", "MAIN", P.read, 200, () => `/api/pages/recent?spaceId=${w.main.id}`),
  rows("GET /api/pages/recent", "PRIV", P.privRead, 200, () => `/api/pages/recent?spaceId=${w.priv.id}`),
  rows("GET /api/pages/trash", "MAIN", P.read, 200, () => `/api/pages/trash?spaceId=${w.main.id}`),
  rows("GET /api/pages/trash", "PRIV", P.privRead, 200, () => `/api/pages/trash?spaceId=${w.priv.id}`),
  rows("GET /api/pages/:id", "plain", P.read, 200, () => `/api/pages/${w.page}`),
  rows("GET /api/pages/:id", "HIDDEN", P.hiddenRead, 200, () => `/api/pages/${w.hidden}`),
  rows("GET /api/pages/:id", "under HIDDEN", P.hiddenRead, 200, () => `/api/pages/${w.hiddenChild}`),
  rows("GET /api/pages/:id", "PRIV", P.privRead, 200, () => `/api/pages/${w.privPage}`),
  rows(
    "GET /api/pages/:id",
    "editor's draft",
    "404 404 404 404 ok 404 404 404 404 404 404",
    200,
    async () => `/api/pages/${await fresh.draft(w.who.editor)}`,
  ),
  // The Markdown of a page is read exactly as the page is.
  rows("GET /api/pages/:id/markdown", "plain", P.read, 200, () => `/api/pages/${w.page}/markdown`),
  rows("GET /api/pages/:id/markdown", "HIDDEN", P.hiddenRead, 200, () => `/api/pages/${w.hidden}/markdown`),
  rows("GET /api/pages/:id/markdown", "under HIDDEN", P.hiddenRead, 200, () => `/api/pages/${w.hiddenChild}/markdown`),
  rows("GET /api/pages/:id/markdown", "PRIV", P.privRead, 200, () => `/api/pages/${w.privPage}/markdown`),
  rows("GET /api/pages/:id/backlinks", "plain", P.read, 200, () => `/api/pages/${w.page}/backlinks`),
  rows("GET /api/pages/:id/backlinks", "HIDDEN", P.hiddenRead, 200, () => `/api/pages/${w.hidden}/backlinks`),
  rows("GET /api/pages/:id/backlinks", "PRIV", P.privRead, 200, () => `/api/pages/${w.privPage}/backlinks`),
  rows(
    "GET /api/pages/:id/backlinks",
    "editor's draft",
    "404 404 404 404 ok 404 404 404 404 404 404",
    200,
    async () => `/api/pages/${await fresh.draft(w.who.editor)}/backlinks`,
  ),
  // A list: pages the caller may not read are left out of the answer (src/pages/links.test.ts),
  // never a 404.
  rows("GET /api/pages/titles", "HIDDEN and PRIV", P.anyone, 200, () => `/api/pages/titles?ids=${w.page},${w.hidden},${w.privPage}`),
  rows("GET /api/pages/:id/export", "plain", P.read, 200, () => `/api/pages/${w.page}/export?format=markdown`),
  rows("GET /api/pages/:id/export", "HIDDEN", P.hiddenRead, 200, () => `/api/pages/${w.hidden}/export?format=html`),
  rows("GET /api/pages/:id/export", "PRIV", P.privRead, 200, () => `/api/pages/${w.privPage}/export?format=markdown`),
  rows(
    "GET /api/pages/:id/markdown",
    "editor's draft",
    "404 404 404 404 ok 404 404 404 404 404 404",
    200,
    async () => `/api/pages/${await fresh.draft(w.who.editor)}/markdown`,
  ),
  rows(
    "PUT /api/pages/:id",
    "plain",
    P.edit,
    200,
    () => `/api/pages/${w.page}`,
    () => ({ title: "Plain page" }),
  ),
  rows(
    "PUT /api/pages/:id",
    "under HIDDEN",
    P.hiddenEdit,
    200,
    () => `/api/pages/${w.hiddenChild}`,
    () => ({ title: "Xylophone under hidden" }),
  ),
  rows(
    "PUT /api/pages/:id",
    "under GUARDED",
    P.guardedEdit,
    200,
    () => `/api/pages/${w.guardedChild}`,
    () => ({ title: "Guarded child" }),
  ),
  rows(
    "PUT /api/pages/:id",
    "PRIV",
    P.privEdit,
    200,
    () => `/api/pages/${w.privPage}`,
    () => ({ title: "Private page" }),
  ),
  rows("DELETE /api/pages/:id", "fresh", P.edit, 204, async () => `/api/pages/${await fresh.page()}`),
  rows("DELETE /api/pages/:id", "fresh under HIDDEN", P.hiddenEdit, 204, async () => `/api/pages/${await fresh.page(w.hidden)}`),
  rows("DELETE /api/pages/:id", "fresh under GUARDED", P.guardedEdit, 204, async () => `/api/pages/${await fresh.page(w.guarded)}`),
  rows(
    "PUT /api/pages/:id/emoji",
    "plain",
    P.edit,
    200,
    () => `/api/pages/${w.page}/emoji`,
    () => ({ emoji: "📘" }),
  ),
  rows(
    "PUT /api/pages/:id/emoji",
    "GUARDED",
    P.guardedEdit,
    200,
    () => `/api/pages/${w.guarded}/emoji`,
    () => ({ emoji: "🔒" }),
  ),
  rows(
    "PUT /api/pages/:id/layout",
    "plain",
    P.edit,
    200,
    () => `/api/pages/${w.page}/layout`,
    () => ({ fullWidth: true }),
  ),
  rows(
    "PUT /api/pages/:id/tasks",
    "fresh",
    P.editVisibleFirst,
    200,
    async () => `/api/pages/${await checklist()}/tasks`,
    () => ({ index: 0, checked: true }),
  ),
  rows(
    "PUT /api/pages/:id/move",
    "fresh",
    P.edit,
    200,
    async () => `/api/pages/${await fresh.page()}/move`,
    () => ({ index: 0 }),
  ),
  rows(
    "PUT /api/pages/:id/move",
    "fresh under GUARDED",
    P.guardedEdit,
    200,
    async () => `/api/pages/${await fresh.page(w.guarded)}/move`,
    () => ({ index: 0 }),
  ),
  rows(
    "POST /api/pages/:id/copy",
    "plain",
    P.edit,
    201,
    () => `/api/pages/${w.page}/copy`,
    () => ({}),
  ),
  rows(
    "POST /api/pages/:id/copy",
    "HIDDEN",
    P.hiddenEdit,
    201,
    () => `/api/pages/${w.hidden}/copy`,
    () => ({ parentPageId: null }),
  ),
  rows(
    "POST /api/pages/:id/publish",
    "editor's draft",
    P.editorsDraft,
    200,
    async () => `/api/pages/${await fresh.draft(w.who.editor)}/publish`,
    () => ({ title: "Published" }),
  ),
  rows(
    "DELETE /api/pages/:id/draft",
    "editor's draft",
    P.editorsDraft,
    204,
    async () => `/api/pages/${await fresh.draft(w.who.editor)}/draft`,
  ),
  rows("POST /api/pages/:id/restore", "fresh trashed", P.edit, 200, async () => `/api/pages/${await fresh.trashed()}/restore`),
  rows(
    "POST /api/pages/:id/restore",
    "trashed under GUARDED",
    P.guardedEdit,
    200,
    async () => `/api/pages/${await fresh.trashed(w.guarded)}/restore`,
  ),
  // Purging another's page needs Admin on the space or pages.delete_any; one's own, Edit. The
  // instance admin and owner hold the right but only View on MAIN: the right opens no space.
  rows(
    "DELETE /api/pages/:id/purge",
    "fresh trashed (space admin's)",
    P.admin,
    204,
    async () => `/api/pages/${await fresh.trashed()}/purge`,
  ),
  rows(
    "DELETE /api/pages/:id/purge",
    "fresh trashed (editor's)",
    P.authorOrAdmin,
    204,
    async () => `/api/pages/${await fresh.trashed(undefined, w.who.editor)}/purge`,
  ),
  rows("GET /api/pages/:id/versions", "plain", P.read, 200, () => `/api/pages/${w.page}/versions`),
  rows("GET /api/pages/:id/versions", "HIDDEN", P.hiddenRead, 200, () => `/api/pages/${w.hidden}/versions`),
  rows("GET /api/pages/:id/versions/:number", "plain", P.read, 200, () => `/api/pages/${w.page}/versions/1`),
  rows("POST /api/pages/:id/versions/:number/restore", "plain", P.edit, 200, () => `/api/pages/${w.page}/versions/1/restore`),
  rows("POST /api/pages/:id/versions/:number/restore", "GUARDED", P.guardedEdit, 200, () => `/api/pages/${w.guarded}/versions/1/restore`),
  // Collaboration tokens: only for those who may edit; looked up before asking for an account.
  rows("GET /api/pages/:id/collab-token", "plain", P.editVisibleFirst, 200, () => `/api/pages/${w.page}/collab-token`),
  rows(
    "GET /api/pages/:id/collab-token",
    "under HIDDEN",
    "404 403 404 403 ok ok ok 404 404 404 ok",
    200,
    () => `/api/pages/${w.hiddenChild}/collab-token`,
  ),
  // Unpublished changes: for those who may edit, like the token. Discarding needs an
  // open room: past the access rules, nobody has this page open (409 room_not_open).
  rows("GET /api/pages/:id/unpublished", "plain", P.editVisibleFirst, 200, () => `/api/pages/${w.page}/unpublished`),
  rows(
    "GET /api/pages/:id/unpublished",
    "under HIDDEN",
    "404 403 404 403 ok ok ok 404 404 404 ok",
    200,
    () => `/api/pages/${w.hiddenChild}/unpublished`,
  ),
  rows("POST /api/pages/:id/unpublished/discard", "plain", P.edit, 409, () => `/api/pages/${w.page}/unpublished/discard`),
  rows(
    "POST /api/pages/:id/unpublished/discard",
    "under HIDDEN",
    "401 403 404 403 ok ok ok 404 404 404 ok",
    409,
    () => `/api/pages/${w.hiddenChild}/unpublished/discard`,
  ),
  rows("GET /api/pages/:id/restrictions", "plain", P.read, 200, () => `/api/pages/${w.page}/restrictions`),
  rows("GET /api/pages/:id/restrictions", "HIDDEN", P.hiddenRead, 200, () => `/api/pages/${w.hidden}/restrictions`),
  rows(
    "POST /api/pages/:id/restrictions",
    "fresh",
    P.edit,
    201,
    async () => `/api/pages/${await fresh.page()}/restrictions`,
    () => ({ principalType: 1, principalId: GROUP_ID.everyone, operation: 0 }),
  ),
  rows(
    "POST /api/pages/:id/restrictions",
    "fresh under GUARDED",
    P.guardedEdit,
    201,
    async () => `/api/pages/${await fresh.page(w.guarded)}/restrictions`,
    () => ({ principalType: 1, principalId: GROUP_ID.everyone, operation: 0 }),
  ),
  rows("DELETE /api/pages/:id/restrictions", "fresh", P.edit, 204, async () => {
    const id = await fresh.page();
    await fresh.restriction(id);
    return `/api/pages/${id}/restrictions`;
  }),
  rows("DELETE /api/pages/:id/restrictions/:restrictionId", "fresh", P.edit, 204, async () => {
    const id = await fresh.page();
    return `/api/pages/${id}/restrictions/${await fresh.restriction(id)}`;
  }),
  rows("GET /api/pages/:id/watch", "plain", P.readSignedIn, 200, () => `/api/pages/${w.page}/watch`),
  rows("GET /api/pages/:id/watch", "HIDDEN", "401 ok 404 ok ok ok ok 404 404 404 ok", 200, () => `/api/pages/${w.hidden}/watch`),
  rows("POST /api/pages/:id/watch", "plain", P.comment, 200, () => `/api/pages/${w.page}/watch`),
  rows("DELETE /api/pages/:id/watch", "plain", P.comment, 200, () => `/api/pages/${w.page}/watch`),
  // Labels
  rows("GET /api/labels", "all", P.anyone, 200, () => "/api/labels"),
  rows("GET /api/labels/:name/pages", "secretlabel", P.anyone, 200, () => "/api/labels/secretlabel/pages"),
  rows("GET /api/pages/:id/labels", "plain", P.read, 200, () => `/api/pages/${w.page}/labels`),
  rows("GET /api/pages/:id/labels", "HIDDEN", P.hiddenRead, 200, () => `/api/pages/${w.hidden}/labels`),
  rows(
    "POST /api/pages/:id/labels",
    "plain",
    P.edit,
    201,
    () => `/api/pages/${w.page}/labels`,
    () => ({ name: `l${uniq()}` }),
  ),
  rows(
    "POST /api/pages/:id/labels",
    "GUARDED",
    P.guardedEdit,
    201,
    () => `/api/pages/${w.guarded}/labels`,
    () => ({ name: `l${uniq()}` }),
  ),
  rows("DELETE /api/pages/:id/labels/:name", "fresh", P.edit, 204, async () => `/api/pages/${w.page}/labels/${await fresh.label()}`),
  // Comments
  rows("GET /api/pages/:id/comments", "plain", P.read, 200, () => `/api/pages/${w.page}/comments`),
  rows("GET /api/pages/:id/comments", "HIDDEN", P.hiddenRead, 200, () => `/api/pages/${w.hidden}/comments`),
  rows(
    "POST /api/pages/:id/comments",
    "plain",
    P.comment,
    201,
    () => `/api/pages/${w.page}/comments`,
    () => ({ body: "hello" }),
  ),
  rows(
    "POST /api/pages/:id/comments",
    "HIDDEN",
    "401 403 404 ok ok ok ok 404 404 404 ok",
    201,
    () => `/api/pages/${w.hidden}/comments`,
    () => ({ body: "hello" }),
  ),
  rows(
    "PUT /api/comments/:id",
    "editor's",
    P.author,
    200,
    () => `/api/comments/${w.comment}`,
    () => ({ body: "editor says" }),
  ),
  rows(
    "DELETE /api/comments/:id",
    "fresh editor's",
    P.authorOrAdmin,
    204,
    async () => `/api/comments/${await fresh.comment(w.who.editor)}`,
  ),
  rows(
    "DELETE /api/comments/:id",
    "editor's under HIDDEN",
    "401 403 404 403 ok 403 ok 404 404 404 403",
    204,
    async () => `/api/comments/${await fresh.comment(w.who.editor, w.hidden)}`,
  ),
  // Resolving and reopening need Edit on the page, or being the thread's author.
  rows("POST /api/comments/:id/resolve", "editor's", P.edit, 200, () => `/api/comments/${w.comment}/resolve`),
  rows("POST /api/comments/:id/reopen", "editor's", P.edit, 200, () => `/api/comments/${w.comment}/reopen`),
  rows(
    "POST /api/comments/:id/resolve",
    "viewer's",
    P.editOrViewerAuthor,
    200,
    async () => `/api/comments/${await fresh.comment(w.who.viewer)}/resolve`,
  ),
  rows(
    "POST /api/comments/:id/reopen",
    "viewer's",
    P.editOrViewerAuthor,
    200,
    async () => `/api/comments/${await fresh.comment(w.who.viewer)}/reopen`,
  ),
  rows(
    "POST /api/comments/:id/resolve",
    "editor's on GUARDED",
    P.guardedEdit,
    200,
    async () => `/api/comments/${await fresh.comment(w.who.editor, w.guarded)}/resolve`,
  ),
  rows(
    "POST /api/comments/:id/reopen",
    "editor's on GUARDED",
    P.guardedEdit,
    200,
    async () => `/api/comments/${await fresh.comment(w.who.editor, w.guarded)}/reopen`,
  ),
  // Attachments
  rows("GET /api/pages/:id/attachments", "plain", P.read, 200, () => `/api/pages/${w.page}/attachments`),
  rows("GET /api/pages/:id/attachments", "HIDDEN", P.hiddenRead, 200, () => `/api/pages/${w.hidden}/attachments`),
  rows("POST /api/pages/:id/attachments", "plain", P.editVisibleFirst, 201, () => `/api/pages/${w.page}/attachments`, file),
  rows(
    "POST /api/pages/:id/attachments",
    "GUARDED",
    "404 403 403 403 ok ok ok 403 403 ok 403",
    201,
    () => `/api/pages/${w.guarded}/attachments`,
    file,
  ),
  rows("GET /api/attachments/:id", "on plain", P.read, 200, () => `/api/attachments/${w.attachment}`),
  rows(
    "GET /api/attachments/:id",
    "under HIDDEN",
    P.hiddenRead,
    200,
    async () => `/api/attachments/${await fresh.attachment(w.hiddenChild)}`,
  ),
  rows("GET /api/attachments/:id/download", "on plain", P.read, 200, () => `/api/attachments/${w.attachment}/download`),
  rows("GET /api/attachments/:id/view", "on plain", P.read, 200, () => `/api/attachments/${w.attachment}/view`),
  rows("DELETE /api/attachments/:id", "fresh", P.editVisibleFirst, 204, async () => `/api/attachments/${await fresh.attachment()}`),
  rows(
    "DELETE /api/attachments/:id",
    "fresh on GUARDED",
    "404 403 403 403 ok ok ok 403 403 ok 403",
    204,
    async () => `/api/attachments/${await fresh.attachment(w.guarded)}`,
  ),
  // Space icons (/api/media/space-icons): read with the space, changed by its administrators.
  rows("GET /api/media/space-icons/:key", "MAIN", P.read, 200, async () => `/api/media/space-icons/${await withIcon("MAIN")}`),
  rows("GET /api/media/space-icons/:key", "PRIV", P.privRead, 200, async () => `/api/media/space-icons/${await withIcon("PRIV")}`),
  rows("PUT /api/media/space-icons/:key", "fresh", P.admin, 200, async () => `/api/media/space-icons/${await fresh.space()}`, picture),
  rows("PUT /api/media/space-icons/:key", "PRIV", P.privAdmin, 200, () => "/api/media/space-icons/PRIV", picture),
  rows(
    "DELETE /api/media/space-icons/:key",
    "fresh",
    P.admin,
    204,
    async () => `/api/media/space-icons/${await withIcon(await fresh.space())}`,
  ),
  // Search
  rows("GET /api/search", "everywhere", P.anyone, 200, () => "/api/search?q=page"),
  rows("GET /api/pages/viewed", "own", P.signedIn, 200, () => "/api/pages/viewed"),
  rows("GET /api/search", "MAIN", P.read, 200, () => `/api/search?q=page&spaceId=${w.main.id}`),
  rows("GET /api/search", "PRIV", P.privRead, 200, () => `/api/search?q=page&spaceId=${w.priv.id}`),
  // Templates
  rows("GET /api/templates", "MAIN", P.readSignedIn, 200, () => `/api/templates?spaceId=${w.main.id}`),
  rows("GET /api/templates", "PRIV", "401 ok 404 404 ok 404 ok 404 404 404 404", 200, () => `/api/templates?spaceId=${w.priv.id}`),
  rows(
    "POST /api/templates",
    "MAIN",
    P.edit,
    201,
    () => "/api/templates",
    () => ({ spaceId: w.main.id, name: `T${uniq()}` }),
  ),
  rows(
    "PUT /api/templates/:id",
    "MAIN",
    P.edit,
    200,
    () => `/api/templates/${w.template}`,
    () => ({ description: "d" }),
  ),
  rows("DELETE /api/templates/:id", "fresh", P.edit, 204, async () => `/api/templates/${await fresh.template()}`),
  // Wiki-wide templates: instance administrators (Admin or Owner tier) only, whatever the spaces.
  rows(
    "POST /api/templates",
    "wiki-wide",
    P.adminTier,
    201,
    () => "/api/templates",
    () => ({ name: `W${uniq()}` }),
  ),
  rows(
    "PUT /api/templates/:id",
    "wiki-wide",
    P.adminTier,
    200,
    () => `/api/templates/${w.wideTemplate}`,
    () => ({ description: "d" }),
  ),
  rows("DELETE /api/templates/:id", "fresh wiki-wide", P.adminTier, 204, async () => `/api/templates/${await fresh.wideTemplate()}`),
];
let ctxKey = "";

const cases = ROWS.flatMap((row) =>
  row.expect.split(" ").map((token, i) => ({ row, caller: CALLERS[i], status: token === "ok" ? row.ok : Number(token) })),
);

describe("the access matrix", () => {
  test("every profile names a status for each caller", () => {
    for (const row of ROWS) expect(row.expect.split(" ")).toHaveLength(CALLERS.length);
  });

  test.each(cases.map((c) => [`${c.row.route} [${c.row.target}] as ${c.caller} → ${c.status}`, c] as const))(
    "%s",
    async (_name, { row, caller, status }) => {
      const ctx: Ctx = { name: caller, who: w.who[caller] };
      refusedRow = status === row.ok ? null : row;
      let path: string;
      let body: unknown;
      try {
        path = await row.path(ctx);
        body = row.body ? await row.body(ctx) : undefined;
      } finally {
        refusedRow = null;
      }
      const method = row.route.split(" ")[0];
      const res = await call(env, method, path, { as: ctx.who, body });
      if (res.status !== status)
        throw new Error(`${method} ${path} as ${caller}: expected ${status}, got ${res.status} ${res.text.slice(0, 300)}`);
      if (caller === "readOnly" && method !== "GET") expect(res.body.code).toBe("read_only_token");
    },
  );
});

/** The app's routes as METHOD /path with {params}, without a trailing slash. */
export function appRoutes(e: TestEnv): string[] {
  return [...new Set(e.app.routes.map((r) => `${r.method} ${r.path.replace(/(.)\/$/, "$1").replace(/:(\w+)/g, "{$1}")}`))].sort();
}

const TAKES_SPACE_OR_PAGE = /^\w+ \/api\/(spaces|pages|admin\/spaces|search|labels|comments|attachments|templates)(\/|$)/;

describe("coverage", () => {
  test("every route that takes a space or a page is in the matrix", () => {
    const covered = new Set(ROWS.map((r) => r.route.replace(/:(\w+)/g, "{$1}")));
    const missing = appRoutes(env).filter((r) => TAKES_SPACE_OR_PAGE.test(r) && !covered.has(r));
    expect(missing).toEqual([]);
  });

  test("docs/permissions.md lists every route the app registers, and no other", () => {
    const text = readFileSync(join(import.meta.dir, "..", "docs", "permissions.md"), "utf8");
    const documented = [...text.matchAll(/^\| (GET|POST|PUT|DELETE|PATCH) \| (\/[^ |]*) \|/gm)].map((m) => `${m[1]} ${m[2]}`);
    const routes = appRoutes(env);
    expect(routes.filter((r) => !documented.includes(r))).toEqual([]);
    expect(documented.filter((d) => !routes.includes(d))).toEqual([]);
  });
});
