import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, PASSWORD, signUp, type TestEnv, type Who, ownerWithSpace } from "../../tests/harness";
import type { UserCaller } from "../identity/caller";
import { createPage } from "../pages/service";
import { findUserWithRoleById } from "../users/service";
import { catchUpSearchIndex, searchIndex } from "./indexer";

// How word matches are ranked (fts5.ts): pages whose title holds every word first, by bm25's
// formula over the title; then the newest matches by bm25; the caller's scope before the limit.

let env: TestEnv;
let owner: Who & { id: string };
let spaceId: string;
beforeEach(async () => {
  env = makeEnv();
  ({ owner, spaceId } = await ownerWithSpace(env));
});
afterEach(() => env.close());

const docWith = (text: string) => JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });

async function page(title: string, body: string, space = spaceId) {
  const res = await call(env, "POST", "/api/pages", { as: owner, body: { spaceId: space, title, contentJson: docWith(body) } });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.body.id as string;
}

const ids = async (q: string, who: Who = owner) =>
  (await call(env, "GET", `/api/search?q=${encodeURIComponent(q)}`, { as: who })).body.map((h: any) => h.pageId);

/** `count` pages written through the service in one transaction (fast). */
function manyPages(space: string, count: number, title: (i: number) => string, body: string) {
  const found = findUserWithRoleById(env.core, owner.id)!;
  const caller: UserCaller = {
    kind: "user",
    ip: "local",
    user: found.user,
    role: found.role,
    permissions: new Set(found.role.permissions),
    session: null,
    token: null,
  };
  env.core.tx(() => {
    for (let i = 0; i < count; i++) createPage(env.core, caller, { spaceId: space, title: title(i), contentJson: docWith(body) });
  });
}

async function memberAndClosedSpace() {
  const invite = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
  const member = await signUp(env, "member@example.com", { inviteToken: invite.body.token });
  const closed = (await call(env, "POST", "/api/spaces", { as: owner, body: { key: "HR", name: "HR", description: "" } })).body
    .id as string;
  await call(env, "DELETE", "/api/spaces/HR/permissions", { as: owner, body: { password: PASSWORD } });
  return { member, closed };
}

describe("ranking word matches", () => {
  test("title matches: the word twice in the title before once (pages as short), then the shorter page", async () => {
    const long = await page("Gearbox notes", "a b c d e f g h i j k l m n o p q r s t u v w x y z ".repeat(4));
    const twice = await page("Gearbox gearbox", "brief");
    const short = await page("Gearbox", "short");
    const bodyOnly = await page("Other", "gearbox gearbox gearbox gearbox gearbox");
    expect(await ids("gearbox")).toEqual([twice, short, long, bodyOnly]);
  });

  test("title matches by stem, whatever the ending (found through the trigram index), and not titles that only look alike", async () => {
    const body = await page("Weekly notes", "the policy and the server, we hope");
    const policies = await page("Policies", "x");
    const hoping = await page("Hoping for rain", "x");
    const observer = await page("Observer rota", "x");
    expect(await ids("policy")).toEqual([policies, body]);
    expect(await ids("hope")).toEqual([hoping, body]);
    expect(await ids("server")).toEqual([body, observer]); // "observer": a title fragment, after the word matches
  });

  test("two words: a page holding both in its title comes before pages holding one there", async () => {
    const both = await page("Backup restore guide", "see the runbook, it is long and it says many things about many other things");
    const one = await page("Backup schedule", "we restore monthly");
    const body = await page("Notes", "backup then restore, backup then restore");
    const found = await ids("backup restore");
    expect(found[0]).toBe(both);
    expect(found.slice(1).sort()).toEqual([one, body].sort());
  });

  test("body matches are ranked by bm25: more occurrences in a page of the same length first", async () => {
    const once = await page("Alpha", "the kestrel flew over the hill and the valley today");
    const thrice = await page("Beta", "the kestrel saw a kestrel and another kestrel today");
    expect(await ids("kestrel")).toEqual([thrice, once]);
  });

  test("more title matches than the limit: no body match is shown, 50 title matches are", async () => {
    manyPages(spaceId, 60, (i) => `Turbine ${i}`, "inspection");
    const body = await page("Weekly notes", "the turbine was inspected");
    const found = await ids("turbine");
    expect(found).toHaveLength(50);
    expect(found).not.toContain(body);
  });
});

describe("the caller's scope applies before the limit", () => {
  test("title matches the caller cannot read never take the place of body matches it can", async () => {
    const { member, closed } = await memberAndClosedSpace();
    manyPages(closed, 60, (i) => `Turbine ${i}`, "inspection");
    const visible = await page("Weekly notes", "the turbine was inspected");
    expect(await ids("turbine", member)).toEqual([visible]);
  });

  test("hidden title matches ranked first leave the caller's own title matches, then its body matches", async () => {
    const { member, closed } = await memberAndClosedSpace();
    const mine = [await page("Gazebo", "x"), await page("Gazebo plans", "x")];
    manyPages(closed, 60, () => "Gazebo", "x"); // shorter pages, newer: bm25 would put them first
    const body = await page("Garden", "the gazebo roof");
    expect(await ids("gazebo", member)).toEqual([...mine, body]);
    expect(await ids("gazebo")).toHaveLength(50);
  });

  test("body matches ranked first but unreadable leave the caller's next best ones, 50 of them", async () => {
    const { member, closed } = await memberAndClosedSpace();
    manyPages(spaceId, 60, (i) => `Note ${i}`, "the kestrel flew over the hill and the valley today");
    manyPages(closed, 40, (i) => `Memo ${i}`, "kestrel kestrel kestrel"); // newer, and ranked above every readable one
    const found = await ids("kestrel", member);
    expect(found).toHaveLength(50);
    const readable = new Set(
      env.core.sqlite
        .query<{ id: string }, [string]>("SELECT id FROM pages WHERE space_id = ?")
        .all(spaceId)
        .map((r) => r.id),
    );
    expect(found.every((id: string) => readable.has(id))).toBe(true);
    expect((await ids("kestrel")).slice(0, 40).every((id: string) => !readable.has(id))).toBe(true); // the owner sees them first
  });

  test("drafts and pages in the trash are not title matches", async () => {
    const live = await page("Lantern", "x");
    const trashed = await page("Lantern", "x");
    await call(env, "DELETE", `/api/pages/${trashed}`, { as: owner });
    const draft = (await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId } })).body.id;
    await call(env, "PUT", `/api/pages/${draft}`, { as: owner, body: { title: "Lantern", contentJson: docWith("x") } });
    const member = await signUp(env, "m2@example.com", {
      inviteToken: (await call(env, "POST", "/api/admin/invites", { as: owner, body: {} })).body.token,
    });
    expect(await ids("lantern", member)).toEqual([live]);
  });
});

describe("SearchIndex", () => {
  test("markDirty has a page indexed again at the next catch-up", async () => {
    const id = await page("Birds", "the heron waits"); // not in the title: the fragment search would find it
    catchUpSearchIndex(env.core);
    const docId = env.core.sqlite.query<{ doc_id: number }, [string]>("SELECT doc_id FROM pages WHERE id = ?").get(id)!.doc_id;
    for (const index of ["search_words", "search_recent"]) env.core.sqlite.run(`DELETE FROM ${index} WHERE rowid = ?`, [docId]);
    expect(await ids("heron")).toEqual([]);
    searchIndex(env.core).markDirty([docId]);
    expect(await ids("heron")).toEqual([id]); // every search catches up first
  });

  test("termsOf answers the index's own terms", () => {
    expect(searchIndex(env.core).termsOf(["deploying", "Billing", "42x"])).toEqual(["deploi", "bill", null]);
  });
});
