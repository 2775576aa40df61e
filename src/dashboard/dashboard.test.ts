import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, ownerAndMember, type TestEnv } from "../../tests/harness";
import { ROLE_ID } from "../identity/rights";
import { doc, newPage, newSpace } from "../pages/testing";
import { giveRole, makeRole } from "../roles/testing";
import { setSetting } from "../settings/service";
import { pageViews, REPEAT_WINDOW_MS } from "./page-views";

let env: TestEnv;
beforeEach(() => {
  env = makeEnv();
});
afterEach(() => env.close());

const dashboard = (who: { cookie?: string; token?: string } | undefined, query = "") =>
  call(env, "GET", `/api/admin/dashboard${query}`, { as: who });
const read = (who: { cookie?: string; token?: string } | undefined, pageId: string, headers?: Record<string, string>) =>
  call(env, "GET", `/api/pages/${pageId}`, { as: who, headers });
const storedViews = () => env.core.sqlite.query("SELECT coalesce(sum(views), 0) AS n FROM page_views_daily").get() as { n: number };
const MINUTE = 60_000;

describe("GET /api/admin/dashboard: who may", () => {
  test("anonymous 401, a member 403 permission_required, a role with only dashboard.view 200", async () => {
    const { owner, member } = await ownerAndMember(env);
    expect((await dashboard(undefined)).status).toBe(401);
    const refused = await dashboard(member);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "permission_required", permission: "dashboard.view" });
    giveRole(env.core, member.id, makeRole(env.core, { permissions: ["dashboard.view"] }));
    expect((await dashboard(member)).status).toBe(200);
    expect((await dashboard(owner)).status).toBe(200);
  });

  test.each([["0"], ["1000"], ["8"], ["-7"], ["7.5"], ['"7"'], ["abc"], [""]])("rangeDays=%s is a 400 naming rangeDays", async (value) => {
    const { owner } = await ownerAndMember(env);
    const res = await dashboard(owner, `?rangeDays=${encodeURIComponent(value)}`);
    expect(res.status).toBe(400);
    expect(res.body.field ?? Object.keys(res.body.errors ?? {})[0]).toContain("rangeDays");
  });
});

describe("the figures", () => {
  test("people, content, storage and health of a small instance", async () => {
    const { owner, member } = await ownerAndMember(env);
    await call(env, "POST", "/api/admin/invites", { as: owner, body: {} });
    // Suspended straight in the table: how is the people area's business, the count is ours.
    env.core.sqlite.query("UPDATE users SET status = 1 WHERE id = ?").run(member.id);
    const space = await newSpace(env, owner, "DOCS");
    const page = await newPage(env, owner, space.id, "Guide");
    await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { contentJson: doc("second"), baseVersion: 1 } });
    const res = await dashboard(owner);
    expect(res.status).toBe(200);
    const d = res.body;
    expect(d.rangeDays).toBe(30);
    expect(d.people).toEqual({ active: 1, invited: 1, suspended: 1 });
    expect(d.content).toMatchObject({ spaces: 1, pages: 1, drafts: 0, trashed: 0, versions: 2, attachments: 0, attachmentBytes: 0 });
    expect(d.storage.databaseBytes).toBeGreaterThan(0);
    expect(d.storage.filesBytes).toBeGreaterThanOrEqual(0);
    expect(d.storage.backupsBytes).toBeGreaterThanOrEqual(0);
    expect(d.health).toMatchObject({ lastBackupAt: null, version: env.core.version });
    expect(d.health.diskFreeBytes).toBeGreaterThan(0);
    expect(d.health.diskTotalBytes).toBeGreaterThanOrEqual(d.health.diskFreeBytes);
    expect(d.usage.topEditors).toEqual([{ userId: owner.id, displayName: "owner", versions: 2 }]);
  });

  test.each([7, 30, 90])("rangeDays=%i: every day of the range, zeros filled, ending today", async (days) => {
    const { owner } = await ownerAndMember(env);
    const d = (await dashboard(owner, `?rangeDays=${days}`)).body;
    expect(d.usage.viewsPerDay).toHaveLength(days);
    expect(d.usage.viewsPerDay.at(-1).day).toBe(new Date(env.clock.now()).toISOString().slice(0, 10));
    expect(d.usage.viewsPerDay.every((v: { views: number }) => v.views === 0)).toBe(true);
    expect(d.usage).toMatchObject({ totalViews: 0, topPages: [], topEditors: [] });
  });
});

describe("page views", () => {
  test("counted in memory (no write per read), one per reader and page in ten minutes, written on flush", async () => {
    const { owner, member } = await ownerAndMember(env);
    const space = await newSpace(env, owner, "DOCS");
    const page = await newPage(env, owner, space.id, "Guide");
    for (let i = 0; i < 3; i++) expect((await read(owner, page.id)).status).toBe(200);
    await read(member, page.id);
    expect(storedViews().n).toBe(0);
    env.clock.advance(REPEAT_WINDOW_MS + MINUTE);
    await read(owner, page.id);
    // API tokens are automation: their reads are the token's activity, not views.
    await read({ token: await mintToken(env, owner) }, page.id);
    // A failed read is no view.
    await read(member, "01900000-0000-7000-8000-000000000000");
    pageViews(env.core).flush();
    expect(storedViews().n).toBe(3);
    const d = (await dashboard(owner, "?rangeDays=7")).body;
    expect(d.usage.totalViews).toBe(3);
    expect(d.usage.viewsPerDay.at(-1).views).toBe(3);
    expect(d.usage.topPages).toEqual([{ pageId: page.id, title: "Guide", spaceKey: "DOCS", spaceName: "DOCS", views: 3 }]);
  });

  test("the dashboard flushes what was counted before answering", async () => {
    const { owner } = await ownerAndMember(env);
    const page = await newPage(env, owner, (await newSpace(env, owner, "DOCS")).id, "Guide");
    await read(owner, page.id);
    expect((await dashboard(owner)).body.usage.totalViews).toBe(1);
  });

  test("anonymous readers of a public space count (by address), crawlers and drafts do not", async () => {
    const { owner } = await ownerAndMember(env);
    setSetting(env.core, "allowPublicSpaces", true);
    const space = await newSpace(env, owner, "PUB");
    const page = await newPage(env, owner, space.id, "Hello");
    expect((await call(env, "PUT", "/api/admin/spaces/PUB/public", { as: owner, body: { isPublic: true } })).status).toBe(200);
    const draft = (await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } })).body;
    expect((await read(undefined, page.id, { "user-agent": "Mozilla/5.0 Firefox/120" })).status).toBe(200);
    expect((await read(undefined, page.id, { "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" })).status).toBe(200);
    await read(owner, draft.id);
    expect((await dashboard(owner)).body.usage.totalViews).toBe(1);
  });

  test("top pages name only pages that exist, out of the trash, that the admin may read", async () => {
    const { owner, member } = await ownerAndMember(env);
    const docs = await newSpace(env, owner, "DOCS");
    const kept = await newPage(env, owner, docs.id, "Kept");
    const trashed = await newPage(env, owner, docs.id, "Trashed");
    const mine = await newSpace(env, member, "MINE");
    const secret = await newPage(env, member, mine.id, "Secret");
    await call(env, "POST", `/api/pages/${secret.id}/restrictions`, {
      as: member,
      body: { principalType: 0, principalId: member.id, operation: 0 },
    });
    for (const who of [owner, member]) await read(who, kept.id);
    await read(owner, trashed.id);
    await read(member, secret.id);
    expect((await call(env, "DELETE", `/api/pages/${trashed.id}`, { as: owner })).status).toBe(204);
    const d = (await dashboard(owner)).body;
    expect(d.usage.totalViews).toBe(4);
    expect(d.usage.topPages.map((p: { title: string }) => p.title)).toEqual(["Kept"]);
    // The member, made administrator, sees their own restricted page among the top pages.
    giveRole(env.core, member.id, ROLE_ID.admin);
    const theirs = (await dashboard(member)).body.usage.topPages.map((p: { title: string; views: number }) => [p.title, p.views]);
    expect(theirs).toEqual([
      ["Kept", 2],
      ["Secret", 1],
    ]);
  });

  test("the last counts are written when the instance closes (server shutdown)", async () => {
    const { owner } = await ownerAndMember(env);
    const page = await newPage(env, owner, (await newSpace(env, owner, "DOCS")).id, "Guide");
    await read(owner, page.id);
    const dir = env.dir;
    env.core.close();
    const again = makeEnv({ dir });
    try {
      expect((again.core.sqlite.query("SELECT sum(views) AS n FROM page_views_daily").get() as { n: number }).n).toBe(1);
    } finally {
      again.close();
    }
  });
});
