/**
 * The world the access matrix runs in, built once (beforeAll) through the public API.
 *
 * Callers: anonymous; `readOnly` (a read-only token of the space admin); `everyone` (in the
 * Everyone group only); `viewer` (View grant); `editor` (Edit grant); `groupMember` (Edit
 * through the custom group Team); `spaceAdmin` (created the spaces); `instanceAdmin`
 * (Administrator role, no grant); `owner` (Owner role, no grant); `shutOut` (Edit, left out of
 * the View restriction on HIDDEN); `limited` (Edit, left out of the Edit restriction on GUARDED).
 *
 * Spaces: MAIN (Everyone View plus the grants above), PRIV (only spaceAdmin Admin and editor
 * Edit), and fresh copies of MAIN for rows that change or destroy what they touch.
 */
import { GROUP_ID } from "../src/identity/builtin-groups";
import { ROLE_ID } from "../src/identity/rights";
import { call, mintToken, PASSWORD, signUp, type TestEnv, type Who } from "./harness";

export const CALLERS = [
  "anonymous",
  "readOnly",
  "everyone",
  "viewer",
  "editor",
  "groupMember",
  "spaceAdmin",
  "instanceAdmin",
  "owner",
  "shutOut",
  "limited",
] as const;
export type CallerName = (typeof CALLERS)[number];

export interface World {
  who: Record<CallerName, Who>;
  ids: Record<Exclude<CallerName, "anonymous" | "readOnly">, string>;
  teamId: string;
  main: { id: string; key: string };
  priv: { id: string; key: string };
  /** Published pages of MAIN: plain, View-restricted (with a child), Edit-restricted (with a child). */
  page: string;
  hidden: string;
  hiddenChild: string;
  guarded: string;
  guardedChild: string;
  privPage: string;
  /** A page of another space the editor may edit (for "parent in another space"). */
  otherSpace: { id: string; key: string; page: string };
  comment: string;
  attachment: string;
  template: string;
  /** A wiki-wide template (no space), made by the owner. */
  wideTemplate: string;
}

async function ok(res: Promise<{ status: number; text: string; body: any }>, what: string) {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r.body;
}

export async function buildWorld(env: TestEnv): Promise<World> {
  const owner = await signUp(env, "owner@example.com", { displayName: "Owner" });
  const join = async (name: string) => {
    const invite = await ok(call(env, "POST", "/api/admin/invites", { as: owner, body: {} }), "invite");
    return signUp(env, `${name.toLowerCase()}@example.com`, { inviteToken: invite.token, displayName: name });
  };
  const [spaceAdmin, everyone, viewer, editor, groupMember, instanceAdmin, shutOut, limited] = await Promise.all(
    ["SpaceAdmin", "Everyone", "Viewer", "Editor", "GroupMember", "InstanceAdmin", "ShutOut", "Limited"].map(join),
  );
  env.core.sqlite.query("UPDATE users SET role_id = ? WHERE id = ?").run(ROLE_ID.admin, instanceAdmin.id);
  const team = await ok(call(env, "POST", "/api/groups", { as: owner, body: { name: "Team" } }), "group");
  await ok(call(env, "POST", `/api/groups/${team.id}/members`, { as: owner, body: { userId: groupMember.id } }), "member");
  const readOnly = { token: await mintToken(env, spaceAdmin, { name: "ro", readOnly: true }) };
  const as = spaceAdmin;

  const space = async (key: string, grants: Array<[number, string, number]>, everyoneOp: number | null) => {
    const s = await ok(call(env, "POST", "/api/spaces", { as, body: { key, name: key } }), "space");
    const list = await ok(call(env, "GET", `/api/spaces/${key}/permissions`, { as }), "grants");
    const everyoneGrant = list.find((g: any) => g.principalId === GROUP_ID.everyone);
    if (everyoneOp === null) await ok(call(env, "DELETE", `/api/spaces/${key}/permissions/${everyoneGrant.id}`, { as }), "drop everyone");
    else grants.push([1, GROUP_ID.everyone, everyoneOp]);
    for (const [principalType, principalId, operation] of grants) {
      await ok(call(env, "POST", `/api/spaces/${key}/permissions`, { as, body: { principalType, principalId, operation } }), "grant");
    }
    return { id: s.id as string, key };
  };
  const mainGrants = (): Array<[number, string, number]> => [
    [0, viewer.id, 0],
    [0, editor.id, 1],
    [1, team.id, 1],
    [0, shutOut.id, 1],
    [0, limited.id, 1],
  ];
  const main = await space("MAIN", mainGrants(), 0);
  const priv = await space("PRIV", [[0, editor.id, 1]], null);
  const other = await space("OTHER", [[0, editor.id, 1]], null);

  const page = async (spaceId: string, title: string, parentPageId?: string) =>
    (await ok(call(env, "POST", "/api/pages", { as, body: { spaceId, title, parentPageId } }), "page")).id as string;
  const restrict = (pageId: string, operation: number, principals: Array<[number, string]>) =>
    Promise.all(
      principals.map(([principalType, principalId]) =>
        ok(call(env, "POST", `/api/pages/${pageId}/restrictions`, { as, body: { principalType, principalId, operation } }), "restrict"),
      ),
    );

  const plain = await page(main.id, "Plain page");
  const hidden = await page(main.id, "Zanzibar hidden");
  const hiddenChild = await page(main.id, "Xylophone under hidden", hidden);
  const guarded = await page(main.id, "Guarded page");
  const guardedChild = await page(main.id, "Guarded child", guarded);
  await restrict(hidden, 0, [
    [0, viewer.id],
    [0, editor.id],
    [0, limited.id],
    [1, team.id],
  ]);
  await restrict(guarded, 1, [
    [0, editor.id],
    [0, shutOut.id],
    [1, team.id],
  ]);
  await ok(call(env, "POST", `/api/pages/${hidden}/labels`, { as, body: { name: "secretlabel" } }), "label");

  const comment = await ok(call(env, "POST", `/api/pages/${plain}/comments`, { as: editor, body: { body: "editor says" } }), "comment");
  const fd = new FormData();
  fd.append("file", new File(["hello"], "a.txt", { type: "text/plain" }));
  const attachment = await ok(call(env, "POST", `/api/pages/${plain}/attachments`, { as, body: fd }), "attachment");
  const template = await ok(call(env, "POST", "/api/templates", { as, body: { spaceId: main.id, name: "Main template" } }), "template");
  const wideTemplate = await ok(
    call(env, "POST", "/api/templates", { as: owner, body: { name: "Wiki-wide template" } }),
    "wiki-wide template",
  );

  return {
    who: { anonymous: {}, readOnly, everyone, viewer, editor, groupMember, spaceAdmin, instanceAdmin, owner, shutOut, limited },
    ids: {
      everyone: everyone.id,
      viewer: viewer.id,
      editor: editor.id,
      groupMember: groupMember.id,
      spaceAdmin: spaceAdmin.id,
      instanceAdmin: instanceAdmin.id,
      owner: owner.id,
      shutOut: shutOut.id,
      limited: limited.id,
    },
    teamId: team.id,
    main,
    priv,
    page: plain,
    hidden,
    hiddenChild,
    guarded,
    guardedChild,
    privPage: await page(priv.id, "Private page"),
    otherSpace: { ...other, page: await page(other.id, "Other page") },
    comment: comment.id,
    attachment: attachment.id,
    template: template.id,
    wideTemplate: wideTemplate.id,
  };
}

/** Things rows may consume (delete, move, archive…), made fresh for each row by the space admin. */
export function freshMaker(env: TestEnv, world: World) {
  const as = world.who.spaceAdmin;
  let n = 0;
  const made = async (res: Promise<{ status: number; text: string; body: any }>, what: string) => ok(res, what);
  return {
    /** A page of MAIN, created by `by` (the space admin unless said). */
    async page(parent?: string, by: Who = as): Promise<string> {
      return (
        await made(
          call(env, "POST", "/api/pages", { as: by, body: { spaceId: world.main.id, title: `Fresh ${++n}`, parentPageId: parent } }),
          "fresh page",
        )
      ).id;
    },
    async trashed(parent?: string, by: Who = as): Promise<string> {
      const id = await this.page(parent, by);
      await made(call(env, "DELETE", `/api/pages/${id}`, { as: by }), "trash");
      return id;
    },
    async draft(by: Who): Promise<string> {
      return (await made(call(env, "POST", "/api/pages/draft", { as: by, body: { spaceId: world.main.id } }), "draft")).id;
    },
    /** A copy of MAIN's grants under a new key. */
    async space(): Promise<string> {
      const key = `FRESH${++n}`;
      await made(call(env, "POST", "/api/spaces", { as, body: { key, name: key } }), "fresh space");
      const grants: Array<[number, string, number]> = [
        [1, GROUP_ID.everyone, 0],
        [0, world.ids.viewer, 0],
        [0, world.ids.editor, 1],
        [1, world.teamId, 1],
        [0, world.ids.shutOut, 1],
        [0, world.ids.limited, 1],
      ];
      for (const [principalType, principalId, operation] of grants) {
        await made(call(env, "POST", `/api/spaces/${key}/permissions`, { as, body: { principalType, principalId, operation } }), "grant");
      }
      return key;
    },
    async grantId(key: string): Promise<string> {
      const list = await made(call(env, "GET", `/api/spaces/${key}/permissions`, { as }), "grants");
      return list.find((g: any) => g.principalId === world.ids.viewer).id;
    },
    async webhook(key: string): Promise<string> {
      return (
        await made(
          call(env, "POST", `/api/spaces/${key}/webhooks`, { as, body: { url: "https://hooks.example.com/x", events: ["page.created"] } }),
          "webhook",
        )
      ).id;
    },
    async restriction(pageId: string): Promise<string> {
      return (
        await made(
          call(env, "POST", `/api/pages/${pageId}/restrictions`, {
            as,
            body: { principalType: 1, principalId: GROUP_ID.everyone, operation: 1 },
          }),
          "restriction",
        )
      ).id;
    },
    async comment(by: Who, pageId = world.page): Promise<string> {
      return (await made(call(env, "POST", `/api/pages/${pageId}/comments`, { as: by, body: { body: `c${++n}` } }), "comment")).id;
    },
    async attachment(pageId = world.page): Promise<string> {
      const fd = new FormData();
      fd.append("file", new File([`file ${++n}`], "f.txt", { type: "text/plain" }));
      return (await made(call(env, "POST", `/api/pages/${pageId}/attachments`, { as, body: fd }), "attachment")).id;
    },
    async template(): Promise<string> {
      return (await made(call(env, "POST", "/api/templates", { as, body: { spaceId: world.main.id, name: `T${++n}` } }), "template")).id;
    },
    /** A wiki-wide template, made by the owner (only administrators make them). */
    async wideTemplate(): Promise<string> {
      return (await made(call(env, "POST", "/api/templates", { as: world.who.owner, body: { name: `W${++n}` } }), "wiki-wide template")).id;
    },
    async label(pageId = world.page): Promise<string> {
      const name = `fresh${++n}`;
      await made(call(env, "POST", `/api/pages/${pageId}/labels`, { as, body: { name } }), "label");
      return name;
    },
  };
}

export const deleteSpaceBody = (key: string) => ({ confirmKey: key, password: PASSWORD });
