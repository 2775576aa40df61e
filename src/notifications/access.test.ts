/**
 * "Nobody is notified of something they cannot see, and an entry about something they can no
 * longer see is left out": driven through the real grants and restrictions endpoints.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { invited } from "../comments/testing";
import { GROUP_ID } from "../identity/builtin-groups";
import { doc, newPage, newSpace } from "../pages/testing";
import { runDueDeliveries } from "../webhooks/sender";
import { newWebhook } from "../webhooks/testing";
import { docMentioning, inbox, unread, watch } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

async function setup() {
  const { owner, member } = await ownerAndMember(env);
  const carol = await invited(env, owner, "carol@example.com");
  const space = await newSpace(env, owner, "DOCS", "Docs");
  return { owner, member, carol, space };
}

/** A View restriction naming only `who` (hides the page and its subtree from everyone else). */
async function restrictTo(as: Who, pageId: string, userId: string) {
  const res = await call(env, "POST", `/api/pages/${pageId}/restrictions`, {
    as,
    body: { principalType: 0, principalId: userId, operation: 0 },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function everyoneGrant(as: Who) {
  const grants = (await call(env, "GET", "/api/spaces/DOCS/permissions", { as })).body as Array<{
    id: string;
    principalType: number;
    principalId: string;
  }>;
  return grants.find((g) => g.principalType === 1 && g.principalId === GROUP_ID.everyone)!;
}

/** What is stored for a person, shown or not: the list alone would hide an entry written by mistake. */
const stored = (userId: string) =>
  (
    env.core.sqlite.query("SELECT action FROM notifications WHERE user_id = ? ORDER BY created_at DESC, id DESC").all(userId) as Array<{
      action: string;
    }>
  ).map((r) => r.action);

const edit = (who: Who, pageId: string, contentJson: string) =>
  call(env, "PUT", `/api/pages/${pageId}`, { as: who, body: { title: "Guide", contentJson } });

describe("at the time of the change", () => {
  test("a watcher of a page now restricted from them is not told of its updates or comments; one named in the restriction is", async () => {
    const { owner, member, carol, space } = await setup();
    const page = await newPage(env, owner, space.id, "Guide");
    await watch(env, member, `/api/pages/${page.id}`);
    await watch(env, carol, `/api/pages/${page.id}`);
    await restrictTo(owner, page.id, owner.id);
    await call(env, "POST", `/api/pages/${page.id}/restrictions`, {
      as: owner,
      body: { principalType: 0, principalId: carol.id, operation: 0 },
    });
    expect((await edit(owner, page.id, doc("secret"))).status).toBe(200);
    expect((await call(env, "POST", `/api/pages/${page.id}/comments`, { as: owner, body: { body: "hush" } })).status).toBe(201);
    expect(stored(member.id)).toEqual([]);
    expect(stored(carol.id)).toEqual(["comment.created", "page.updated"]);
    expect((await inbox(env, carol)).map((n) => n.action)).toEqual(["comment.created", "page.updated"]);
  });

  test("someone mentioned on a page or in a comment they cannot read is not told", async () => {
    const { owner, member, space } = await setup();
    const page = await newPage(env, owner, space.id, "Guide");
    await restrictTo(owner, page.id, owner.id);
    expect((await edit(owner, page.id, docMentioning("see this", member.id))).status).toBe(200);
    expect(
      (await call(env, "POST", `/api/pages/${page.id}/comments`, { as: owner, body: { body: `@[M](${member.id}) look` } })).status,
    ).toBe(201);
    expect(stored(member.id)).toEqual([]);
  });

  test("a page created under a restricted parent is not announced to space watchers who cannot see it", async () => {
    const { owner, member, carol, space } = await setup();
    const parent = await newPage(env, owner, space.id, "Private");
    await restrictTo(owner, parent.id, owner.id);
    await call(env, "POST", `/api/pages/${parent.id}/restrictions`, {
      as: owner,
      body: { principalType: 0, principalId: carol.id, operation: 0 },
    });
    await watch(env, member, "/api/spaces/DOCS");
    await watch(env, carol, "/api/spaces/DOCS");
    await newPage(env, owner, space.id, "Child", { parentPageId: parent.id });
    expect(stored(member.id)).toEqual([]);
    expect(await inbox(env, carol)).toMatchObject([{ action: "page.created", details: { pageTitle: "Child" } }]);
  });

  test("a space watcher who lost access to the space is not told of new pages", async () => {
    const { owner, member, space } = await setup();
    await watch(env, member, "/api/spaces/DOCS");
    const grant = await everyoneGrant(owner);
    expect((await call(env, "DELETE", `/api/spaces/DOCS/permissions/${grant.id}`, { as: owner })).status).toBe(204);
    await newPage(env, owner, space.id, "Members only");
    expect(stored(member.id)).toEqual([]);
  });

  test("a webhook switched off tells the space's administrators by grant, not an instance administrator without one", async () => {
    const { owner, member, carol, space } = await setup();
    // carol administers the space; owner created it (an explicit Admin grant) and member is an instance administrator.
    expect(
      (
        await call(env, "POST", "/api/spaces/DOCS/permissions", {
          as: owner,
          body: { principalType: 0, principalId: carol.id, operation: 2 },
        })
      ).status,
    ).toBe(201);
    env.core.sqlite.query("UPDATE users SET role_id = '00000000-0000-7000-8000-000000000002' WHERE id = ?").run(member.id);
    await newWebhook(env, owner, "DOCS", "http://127.0.0.1:9/", "space.updated");
    for (let i = 0; i < 5; i++) await call(env, "PUT", "/api/spaces/DOCS", { as: owner, body: { name: `Docs ${i}` } });
    for (let round = 0; round < 4; round++) {
      await runDueDeliveries(env.core);
      env.clock.advance(3_600_000);
    }
    expect((await inbox(env, owner)).map((n) => n.action)).toEqual(["webhook.disabled"]);
    expect((await inbox(env, carol)).map((n) => [n.action, n.spaceId])).toEqual([["webhook.disabled", space.id]]);
    expect(stored(member.id)).toEqual([]);
  });
});

describe("when listed", () => {
  test(
    "an entry about a page since hidden from the reader is left out of the list and the count, " +
      "cannot be marked read, and is back once the page is visible again",
    async () => {
      const { owner, member, space } = await setup();
      const page = await newPage(env, owner, space.id, "Guide");
      const other = await newPage(env, owner, space.id, "Other");
      await watch(env, member, `/api/pages/${page.id}`);
      await watch(env, member, `/api/pages/${other.id}`);
      await edit(owner, page.id, doc("v2"));
      await edit(owner, other.id, doc("v2"));
      const [, entry] = await inbox(env, member);
      expect(entry.targetId).toBe(page.id);
      const restriction = await restrictTo(owner, page.id, owner.id);
      expect((await inbox(env, member)).map((n) => n.targetId)).toEqual([other.id]);
      expect(await unread(env, member)).toBe(1);
      expect((await call(env, "POST", `/api/notifications/${entry.id}/read`, { as: member })).status).toBe(404);
      expect((await call(env, "DELETE", `/api/pages/${page.id}/restrictions/${restriction}`, { as: owner })).status).toBe(204);
      expect((await inbox(env, member)).map((n) => n.targetId)).toEqual([other.id, page.id]);
      expect(await unread(env, member)).toBe(2);
    },
  );

  test(
    "an unread update entry keeps coalescing while its page is hidden (nothing shown " +
      "meanwhile); once visible again it tells of every edit, as the history does",
    async () => {
      const { owner, member, space } = await setup();
      const page = await newPage(env, owner, space.id, "Guide");
      await watch(env, member, `/api/pages/${page.id}`);
      await edit(owner, page.id, doc("v2"));
      const restriction = await restrictTo(owner, page.id, owner.id);
      await edit(owner, page.id, doc("v3"));
      expect(await inbox(env, member)).toEqual([]);
      expect(await unread(env, member)).toBe(0);
      expect((await call(env, "DELETE", `/api/pages/${page.id}/restrictions/${restriction}`, { as: owner })).status).toBe(204);
      expect(await inbox(env, member)).toMatchObject([{ action: "page.updated", details: { versionNumber: 3, edits: 2 } }]);
      expect((await call(env, "GET", `/api/pages/${page.id}/versions`, { as: member })).body).toHaveLength(3);
    },
  );

  test("entries about a space the reader lost are left out; take counts only what is shown", async () => {
    const { owner, member, space } = await setup();
    await watch(env, member, "/api/spaces/DOCS");
    const other = await newSpace(env, owner, "MORE");
    await watch(env, member, "/api/spaces/MORE");
    for (let i = 0; i < 3; i++) {
      await newPage(env, owner, other.id, `More ${i}`);
      await newPage(env, owner, space.id, `Docs ${i}`);
    }
    const grant = await everyoneGrant(owner);
    expect((await call(env, "DELETE", `/api/spaces/DOCS/permissions/${grant.id}`, { as: owner })).status).toBe(204);
    expect((await inbox(env, member, "?take=2")).map((n) => n.details.pageTitle)).toEqual(["More 2", "More 1"]);
    expect(await unread(env, member)).toBe(3);
    expect((await call(env, "GET", "/api/spaces/DOCS/watch", { as: member })).status).toBe(404);
  });
});
