/**
 * Nobody appears as somebody else through a pack (docs/decisions.md, "Imports credit accounts only
 * for those who may act for others"): a member's pack named the owner's e-mail in authors.json and
 * got a backdated "Approved." comment credited to the owner's account. Authors are matched to
 * accounts only when the importer may act for others (the owner, or whoever holds users.manage),
 * and that is in the audit log; otherwise everything is the importer's and keeps the archive's
 * name, shown as "Owner (imported)".
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, signUp, type TestEnv, type Who } from "../../tests/harness";
import { handPack, importZip } from "./testing";

let env: TestEnv;
let owner: Who & { id: string };
let member: Who & { id: string };
let pack: Uint8Array;

beforeAll(async () => {
  env = makeEnv();
  ({ owner, member } = await ownerAndMember(env));
  pack = await handPack(
    [
      {
        id: "p1",
        title: "Release plan",
        author: "a1",
        comments: [{ id: "c1", body: "Approved.", author: "a1", createdAt: "2020-01-01T09:00:00.000Z" }],
      },
      { id: "p2", parent: "p1", title: "Notes", author: "a2", comments: [{ id: "c2", body: "Noted.", author: "a2" }] },
    ],
    {
      authors: [
        { ref: "a1", name: "Owner", email: "OWNER@example.com" },
        { ref: "a2", name: "Someone Else", email: "nobody@example.com" },
      ],
    },
  );
});
afterAll(() => env.close());

async function imported(who: Who, key: string) {
  const res = await importZip(env, who, pack, { key });
  expect(res.status).toBe(201);
  const tree = await call(env, "GET", `/api/pages/tree?spaceId=${key}`, { as: who });
  const plan = tree.body.find((p: { title: string }) => p.title === "Release plan");
  const notes = tree.body.find((p: { title: string }) => p.title === "Notes") ?? plan.children?.[0];
  return { res, plan, notes };
}

/** Rows of the space `key` that credit `userId`, in every column an import writes a person to. */
function creditedTo(key: string, userId: string): number {
  const q = (sql: string) => (env.core.sqlite.query(sql).get(key, userId) as { n: number }).n;
  const inSpace = "SELECT id FROM pages WHERE space_id = (SELECT id FROM spaces WHERE key = ?1)";
  return (
    q(`SELECT count(*) AS n FROM pages WHERE id IN (${inSpace}) AND (created_by_id = ?2 OR updated_by_id = ?2)`) +
    q(`SELECT count(*) AS n FROM page_versions WHERE page_id IN (${inSpace}) AND author_id = ?2`) +
    q(`SELECT count(*) AS n FROM comments WHERE page_id IN (${inSpace}) AND (author_id = ?2 OR resolved_by_id = ?2)`) +
    q(`SELECT count(*) AS n FROM attachments WHERE page_id IN (${inSpace}) AND uploaded_by_id = ?2`)
  );
}

describe("authors.json credits accounts only when the importer may act for others", () => {
  test(
    "a member's pack naming the owner: the backdated \"Approved.\" is the member's, " +
      'reads "Owner (imported)"; the owner is credited with nothing',
    async () => {
      const { res, plan, notes } = await imported(member, "MEMBERS");
      const comments = (await call(env, "GET", `/api/pages/${plan.id}/comments`, { as: member })).body;
      expect(comments).toHaveLength(1);
      expect(comments[0]).toMatchObject({
        body: "Approved.",
        authorId: member.id,
        authorName: "Owner (imported)",
        createdAt: "2020-01-01T09:00:00.000Z",
      });
      const versions = (await call(env, "GET", `/api/pages/${plan.id}/versions`, { as: member })).body;
      expect(versions[0]).toMatchObject({
        authorId: member.id,
        authorName: "Owner (imported)",
        contributors: [{ id: member.id, name: "Owner (imported)" }],
      });
      const one = (await call(env, "GET", `/api/pages/${plan.id}/versions/1`, { as: member })).body;
      expect(one).toMatchObject({ authorId: member.id, authorName: "Owner (imported)" });
      // An author with no account here is kept the same way.
      const other = (await call(env, "GET", `/api/pages/${notes.id}/comments`, { as: member })).body;
      expect(other[0]).toMatchObject({ authorId: member.id, authorName: "Someone Else (imported)" });
      expect(creditedTo("MEMBERS", owner.id)).toBe(0);
      expect(res.body.mapped).toContainEqual(expect.objectContaining({ what: "authors named in the archive", count: 2 }));
      const event = env.core.sqlite
        .query("SELECT data FROM events WHERE type = 'space.imported' AND space_id = ?")
        .get(res.body.space.id) as { data: string };
      expect(JSON.parse(event.data).authorsCredited).toBeUndefined();
    },
  );

  test("the owner importing the same pack: credited to the owner's account, and the audit log says so", async () => {
    const { res, plan } = await imported(owner, "OWNERS");
    const comments = (await call(env, "GET", `/api/pages/${plan.id}/comments`, { as: owner })).body;
    expect(comments[0]).toMatchObject({ body: "Approved.", authorId: owner.id, authorName: "owner" });
    const versions = (await call(env, "GET", `/api/pages/${plan.id}/versions`, { as: owner })).body;
    expect(versions[0]).toMatchObject({ authorId: owner.id, authorName: "owner" });
    expect(creditedTo("OWNERS", owner.id)).toBeGreaterThan(0);
    const audit = (await call(env, "GET", "/api/audit", { as: owner })).body;
    const entry = audit.find((e: { action: string; spaceId: string }) => e.action === "space.imported" && e.spaceId === res.body.space.id);
    expect(entry.details.authorsCredited).toEqual([{ userId: owner.id, name: "Owner" }]);
  });

  test("an administrator (who manages people) credits accounts as the owner does", async () => {
    const invite = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
    const admin = await signUp(env, "admin@example.com", { inviteToken: invite.body.token });
    env.core.sqlite.query("UPDATE users SET role_id = '00000000-0000-7000-8000-000000000002' WHERE id = ?").run(admin.id);
    const { plan } = await imported(admin, "ADMINS");
    const comments = (await call(env, "GET", `/api/pages/${plan.id}/comments`, { as: admin })).body;
    expect(comments[0]).toMatchObject({ body: "Approved.", authorId: owner.id, authorName: "owner" });
    expect(creditedTo("ADMINS", admin.id)).toBe(0);
  });
});
