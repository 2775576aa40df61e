import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { call, makeEnv, mintToken, PASSWORD, signUp, type TestEnv, type Who, ownerWithSpace } from "../../tests/harness";
import type { UserCaller } from "../identity/caller";
import { createPage } from "../pages/service";
import { MARK_EVERY_PAGE } from "./store/fts5";
import { catchUpSearchIndex } from "./indexer";
import { findUserWithRoleById } from "../users/service";

let env: TestEnv;
let owner: Who & { id: string };
let spaceId: string;
beforeEach(async () => {
  env = makeEnv();
  ({ owner, spaceId } = await ownerWithSpace(env));
});
afterEach(() => env.close());

const docWith = (...paragraphs: string[]) =>
  JSON.stringify({ type: "doc", content: paragraphs.map((text) => ({ type: "paragraph", content: [{ type: "text", text }] })) });

async function page(title: string, body: string, opts: { space?: string; parent?: string } = {}) {
  const res = await call(env, "POST", "/api/pages", {
    as: owner,
    body: { spaceId: opts.space ?? spaceId, parentPageId: opts.parent, title, contentJson: docWith(body) },
  });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.body.id as string;
}

const find = async (q: string, who: Who = owner, extra = "") =>
  call(env, "GET", `/api/search?q=${encodeURIComponent(q)}${extra}`, { as: who });

describe("GET /api/search", () => {
  test("finds words, ranks titles above bodies, and returns the documented fields", async () => {
    const inBody = await page("Weekly notes", "We rotate the backup keys every month.");
    const inTitle = await page("Backup policy", "How long we keep things.");
    const res = await find("backup");
    expect(res.status).toBe(200);
    expect(res.body.map((h: any) => h.pageId)).toEqual([inTitle, inBody]);
    expect(res.body[1]).toEqual({
      pageId: inBody,
      spaceId,
      spaceKey: "ENG",
      space: "Engineering",
      title: "Weekly notes",
      snippet: "We rotate the **backup** keys every month.",
    });
  });

  test("stemming, diacritics, phrases, prefixes and exclusions", async () => {
    const a = await page("Deploying", "The café deploys containers to the cluster nightly.");
    const b = await page("Cluster notes", "Cluster maintenance window and container registry.");
    expect((await find("deploy")).body.map((h: any) => h.pageId)).toEqual([a]);
    expect((await find("cafe")).body.map((h: any) => h.pageId)).toEqual([a]);
    expect((await find('"maintenance window"')).body.map((h: any) => h.pageId)).toEqual([b]);
    expect((await find('"window maintenance"')).body).toEqual([]);
    expect((await find("contain*")).body.map((h: any) => h.pageId).sort()).toEqual([a, b].sort());
    expect((await find("cluster -registry")).body.map((h: any) => h.pageId)).toEqual([a]);
  });

  test("Chinese, Japanese and Korean text, including one- and two-character queries", async () => {
    const zh = await page("系统管理员手册", "本手册介绍数据库管理和备份。");
    const ja = await page("東京オフィス", "会議室の予約方法について説明します。");
    const ko = await page("한국어 안내", "문서 관리 시스템 사용법");
    expect((await find("管理")).body.map((h: any) => h.pageId)).toEqual([zh]);
    expect((await find("管")).body.map((h: any) => h.pageId)).toEqual([zh]);
    expect((await find("数据库管理")).body[0].snippet).toContain("**数据库管理**");
    expect((await find("予約")).body.map((h: any) => h.pageId)).toEqual([ja]);
    expect((await find("관리")).body.map((h: any) => h.pageId)).toEqual([ko]);
  });

  test("word fragments are found in titles", async () => {
    const id = await page("Configuration reference", "Settings.");
    expect((await find("onfigur")).body.map((h: any) => h.pageId)).toEqual([id]);
  });

  test.each([
    '"unterminated',
    "NEAR(",
    "a AND",
    "OR OR",
    "*",
    "-",
    "((()))",
    "'; DROP TABLE pages; --",
    "x".repeat(500),
    "\u0000",
    "^title:foo",
  ])("hostile query %j never causes a 500", async (q) => {
    await page("Something", "Text.");
    const res = await find(q);
    expect([200, 400]).toContain(res.status);
    if (res.status === 200) expect(Array.isArray(res.body)).toBe(true);
  });

  test.each([
    ["", "q"],
    ["   ", "q"],
    ["x".repeat(501), "q"],
  ])("bad q %j is a 400 naming the field", async (q, field) => {
    const res = await find(q);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  test("missing q is a 400", async () => {
    const res = await call(env, "GET", "/api/search", { as: owner });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("q");
  });

  test("at most 50 results", async () => {
    for (let i = 0; i < 55; i++) await page(`Runbook ${i}`, "incident response steps");
    const res = await find("incident");
    expect(res.body).toHaveLength(50);
  });

  test("drafts, trash and archived spaces are not found; edits and purges are followed", async () => {
    const live = await page("Quokka facts", "The quokka is happy.");
    const draft = (await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId } })).body.id;
    await call(env, "PUT", `/api/pages/${draft}`, { as: owner, body: { title: "Quokka draft", contentJson: docWith("quokka draft") } });
    expect((await find("quokka")).body.map((h: any) => h.pageId)).toEqual([live]);

    await call(env, "PUT", `/api/pages/${live}`, { as: owner, body: { title: "Wombat facts", contentJson: docWith("The wombat digs.") } });
    expect((await find("quokka")).body).toEqual([]);
    expect((await find("wombat")).body.map((h: any) => h.pageId)).toEqual([live]);

    expect((await call(env, "DELETE", `/api/pages/${live}`, { as: owner })).status).toBe(204);
    expect((await find("wombat")).body).toEqual([]);
    expect((await call(env, "POST", `/api/pages/${live}/restore`, { as: owner })).status).toBe(200);
    expect((await find("wombat")).body).toHaveLength(1);

    expect((await call(env, "POST", "/api/spaces/ENG/archive", { as: owner })).status).toBe(200);
    expect((await find("wombat")).body).toEqual([]);
    expect((await call(env, "POST", "/api/spaces/ENG/unarchive", { as: owner })).status).toBe(200);

    await call(env, "DELETE", `/api/pages/${live}`, { as: owner });
    expect((await call(env, "DELETE", `/api/pages/${live}/purge`, { as: owner })).status).toBe(204);
    catchUpSearchIndex(env.core);
    expect(env.core.sqlite.query("SELECT count(*) AS n FROM search_words WHERE search_words MATCH 'wombat'").get()).toEqual({ n: 0 });
  });

  test("the index catches up on its own shortly after a write, and every search sees every committed change at once", async () => {
    const indexed = () =>
      env.core.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM search_words WHERE search_words MATCH 'narwhal'").get()!.n;
    const id = await page("Narwhal notes", "the narwhal tusk");
    expect(indexed()).toBe(0); // noted in search_dirty with the change, indexed a moment later
    await Bun.sleep(150);
    expect(indexed()).toBe(1);
    expect(env.core.sqlite.query("SELECT count(*) AS n FROM search_dirty").get()).toEqual({ n: 0 });
    await call(env, "PUT", `/api/pages/${id}`, { as: owner, body: { title: "Walrus notes", contentJson: docWith("the walrus") } });
    expect((await find("walrus")).body.map((h: any) => h.pageId)).toEqual([id]);
    expect((await find("narwhal")).body).toEqual([]);
  });

  test("spaceId narrows the search; an unknown space is a 404", async () => {
    const other = (await call(env, "POST", "/api/spaces", { as: owner, body: { key: "OPS", name: "Ops", description: "" } })).body.id;
    const a = await page("Pager rota", "on call");
    const b = await page("Pager duty", "on call", { space: other });
    expect((await find("pager")).body).toHaveLength(2);
    expect((await find("pager", owner, `&spaceId=${other}`)).body.map((h: any) => h.pageId)).toEqual([b]);
    expect((await find("pager", owner, "&spaceId=01234567-0000-7000-8000-000000000000")).status).toBe(404);
    void a;
  });

  test("anonymous callers find nothing; tokens, read-only included, search as their owner", async () => {
    await page("Secret plans", "nothing to see");
    const anon = await call(env, "GET", "/api/search?q=secret");
    expect(anon.status === 401 || (anon.status === 200 && anon.body.length === 0)).toBe(true);
    const ro = await mintToken(env, owner, { name: "ro", readOnly: true });
    expect((await find("secret", { token: ro })).body).toHaveLength(1);
  });

  test("a failed write leaves the index untouched", async () => {
    const id = await page("Stable title", "stable body");
    const bad = await call(env, "PUT", `/api/pages/${id}`, {
      as: owner,
      body: { title: "Changed title", contentJson: '{"type":"doc","content":[{"type":"blink"}]}' },
    });
    expect(bad.status).toBe(400);
    expect((await find("stable")).body).toHaveLength(1);
    expect((await find("changed")).body).toEqual([]);
  });
});

/** A second account, and a space HR only the owner may read (its Everyone grant removed). */
async function memberAndClosedSpace() {
  const invite = await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
  const member = await signUp(env, "member@example.com", { inviteToken: invite.body.token });
  const closed = (await call(env, "POST", "/api/spaces", { as: owner, body: { key: "HR", name: "HR", description: "" } })).body
    .id as string;
  await call(env, "DELETE", "/api/spaces/HR/permissions", { as: owner, body: { password: PASSWORD } });
  const grants = (await call(env, "GET", "/api/spaces/HR/permissions", { as: owner })).body;
  expect(grants.some((g: any) => g.principalType === 1)).toBe(false);
  return { member, closed };
}

describe("GET /api/search over more matches than are ranked", () => {
  /** `count` pages with these title and body, written through the service in one transaction (fast). */
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

  test("a page titled for the query comes first even when more newer pages mention it than are ranked", async () => {
    const titled = await page("Backup policy", "How long we keep things.");
    manyPages(spaceId, 1_100, (i) => `Note ${i}`, "the backup ran again tonight");
    const res = await find("backup");
    expect(res.body).toHaveLength(50);
    expect(res.body[0].pageId).toBe(titled);
  });

  test("the caller's scope applies before the bound: newer matches the caller cannot read never crowd out one it can", async () => {
    const { member, closed } = await memberAndClosedSpace();
    const visible = await page("Weekly notes", "the turbine was inspected");
    manyPages(closed, 1_100, (i) => `Turbine ${i}`, "turbine turbine turbine");
    expect((await find("turbine", member)).body.map((h: any) => h.pageId)).toEqual([visible]);
    expect((await find("turbine")).body).toHaveLength(50);
  });

  test("hits found past the scope check's first round (which reads the hits it keeps) come with their titles and snippets", async () => {
    const { member, closed } = await memberAndClosedSpace();
    manyPages(spaceId, 60, (i) => `Weekly notes ${i}`, "the turbine was inspected");
    // Newer and ranked higher (not by their titles, which are ranked apart): the first round (50)
    // holds only pages the member cannot read, the second the rest of them and the member's.
    manyPages(closed, 60, (i) => `Log ${i}`, "turbine turbine turbine");
    const hits = (await find("turbine", member)).body;
    expect(hits).toHaveLength(50);
    for (const hit of hits) {
      expect(hit.title).toStartWith("Weekly notes");
      expect(hit.space).toBe("Engineering");
      expect(hit.snippet).toBe("the **turbine** was inspected");
    }
    const mine = (await find("turbine")).body;
    expect(mine.slice(0, 50).every((h: any) => h.title.startsWith("Log") && h.snippet.includes("**turbine**"))).toBe(true);
  });

  test(
    "a backlog larger than a search indexes (every page marked, as after a " +
      "restore) drains in the background; searches answer meanwhile",
    async () => {
      manyPages(spaceId, 1_200, (i) => `Runbook ${i}`, "steps to follow");
      await call(env, "GET", "/api/search?q=runbook", { as: owner }); // indexed as usual
      const dirty = () => env.core.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM search_dirty").get()!.n;
      env.core.sqlite.exec(MARK_EVERY_PAGE); // outside tx(): no write hook arms the catch-up
      expect(dirty()).toBe(1_200);
      const during = await find("runbook");
      expect(during.status).toBe(200);
      expect(dirty()).toBeGreaterThan(0); // the search indexed a part and left the rest to the drain
      for (let i = 0; i < 200 && dirty() > 0; i++) await Bun.sleep(10);
      expect(dirty()).toBe(0);
      expect((await find('"Runbook 7"')).body[0].title).toBe("Runbook 7");
    },
  );
});

describe("GET /api/search answers kept between requests", () => {
  test("are never given to a caller who sees other pages, nor after a change by any process", async () => {
    const { member, closed: hr } = await memberAndClosedSpace();
    const open = await page("Gazebo plans", "the gazebo roof");
    const closed = await page("Gazebo budget", "the gazebo costs", { space: hr });
    for (let round = 0; round < 2; round++) {
      expect((await find("gazebo", member)).body.map((h: any) => h.pageId)).toEqual([open]);
      expect((await find("gazebo")).body.map((h: any) => h.pageId).sort()).toEqual([open, closed].sort());
    }
    const other = new Database(join(env.dir, "cairn.db"));
    other.run("PRAGMA busy_timeout = 5000");
    other.run("UPDATE spaces SET archived_at = '2026-01-01T00:00:00.000Z' WHERE key = 'HR'");
    other.close();
    expect((await find("gazebo")).body.map((h: any) => h.pageId)).toEqual([open]);
  });
});
