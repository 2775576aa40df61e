/**
 * A wiki pack imported as a new space: pack export → import → export gives the same pack apart
 * from ids, dates and the key; the importer is the only one with access; authors matched by
 * e-mail (in another instance); links rewritten; progress followed.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, signUp, type TestEnv } from "../../tests/harness";
import { PNG, uploaded } from "../attachments/testing";
import { everythingDocument } from "../content/testing";
import { newPage, newSpace } from "../pages/testing";
import { handPack, importZip, packOf, unzip } from "./testing";

let env: TestEnv;
beforeEach(() => {
  env = makeEnv();
});
afterEach(() => env.close());

const step = () => env.clock.advance(1000);

/** The space DOCS with every block type, a tree, versions, comments with anchors and replies, files, labels, a template. */
async function richSpace() {
  const { owner, member } = await ownerAndMember(env);
  const space = await newSpace(env, owner, "DOCS", "Documentation");
  step();
  const home = await newPage(env, owner, space.id, "Home");
  step();
  const guide = await newPage(env, member, space.id, "Guide", { parentPageId: home.id });
  step();
  const deep = await newPage(env, owner, space.id, "Deep page", { parentPageId: guide.id });
  step();
  const image = await uploaded(env, owner, guide.id, PNG, "diagram.png");
  step();
  const sheet = await uploaded(env, member, guide.id, "a,b\n1,2\n", "budget.csv");
  step();
  const thread = await call(env, "POST", `/api/pages/${guide.id}/comments`, {
    as: owner,
    body: { body: `Look @[Member](${member.id})`, anchorJson: JSON.stringify({ quote: "discussed", from: 3, to: 12 }) },
  });
  expect(thread.status).toBe(201);
  step();
  const reply = await call(env, "POST", `/api/pages/${guide.id}/comments`, {
    as: member,
    body: { body: "Agreed", parentCommentId: thread.body.id },
  });
  expect(reply.status).toBe(201);
  step();
  expect((await call(env, "POST", `/api/comments/${thread.body.id}/resolve`, { as: member })).status).toBe(200);
  // Every block type, its references pointing at this space's own rows.
  const doc = everythingDocument() as { type: string; content: any[] };
  const json = JSON.stringify(doc)
    .replaceAll("0190a6c8-0000-7000-8000-000000000001", member.id)
    .replaceAll('"c-1"', JSON.stringify(thread.body.id))
    .replaceAll("/api/attachments/a-1/download", `/api/attachments/${image.id}/view`)
    .replaceAll('"a-2"', JSON.stringify(sheet.id))
    .replaceAll("/spaces/ENG/pages/42", `/p/${deep.id}#part`);
  // And a page link node to the same page (content/page-links.ts).
  const withNode = JSON.stringify({
    ...JSON.parse(json),
    content: [...JSON.parse(json).content, { type: "paragraph", content: [{ type: "pageLink", attrs: { pageId: deep.id } }] }],
  });
  for (const [i, title] of ["Guide, second", "Guide, third"].entries()) {
    step();
    const res = await call(env, "PUT", `/api/pages/${guide.id}`, {
      as: i ? member : owner,
      body: { title, contentJson: withNode, changeComment: `change ${i}` },
    });
    expect(res.status).toBe(200);
  }
  step();
  for (const name of ["howto", "ops"])
    expect((await call(env, "POST", `/api/pages/${guide.id}/labels`, { as: owner, body: { name } })).status).toBe(201);
  step();
  const template = await call(env, "POST", "/api/templates", {
    as: owner,
    body: {
      spaceId: "DOCS",
      name: "Meeting notes",
      description: "For meetings",
      contentJson: JSON.stringify(everythingDocument()).replaceAll("0190a6c8-0000-7000-8000-000000000001", owner.id),
    },
  });
  expect(template.status).toBe(201);
  step();
  return { owner, member, space, home, guide, deep, image, sheet, thread: thread.body, reply: reply.body };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;

/** A pack's files with ids numbered in order of first appearance, dates and the key blanked; blobs as their hash. */
async function normalised(pack: Uint8Array, key: string): Promise<Record<string, unknown>> {
  const files = await unzip(pack);
  const ids = new Map<string, string>();
  const out: Record<string, unknown> = {};
  for (const [path, bytes] of files) {
    if (path.startsWith("blobs/")) {
      out[path] = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
      continue;
    }
    const text = new TextDecoder()
      .decode(bytes)
      .replace(UUID, (id) => ids.get(id) ?? (ids.set(id, `id${ids.size}`), `id${ids.size - 1}`))
      .replace(ISO, "<date>")
      .replaceAll(`/s/${key}/`, "/s/KEY/")
      .replaceAll(`"key": "${key}"`, '"key": "KEY"')
      .replaceAll(`"key":"${key}"`, '"key":"KEY"');
    out[path] = JSON.parse(text);
  }
  return out;
}

describe("a pack imported", () => {
  test("export → import → export: the same pack apart from ids, dates and the key", async () => {
    const { owner } = await richSpace();
    const first = await packOf(env, owner, "DOCS");
    const res = await importZip(env, owner, first, { key: "copy", name: "Documentation" });
    expect(res.status).toBe(201);
    expect(res.body.format).toBe("cairn-pack");
    expect(res.body.space.key).toBe("COPY");
    expect(res.body.counts).toEqual({ pages: 3, versions: 5, comments: 2, attachments: 2, labels: 2, templates: 1 });
    expect(res.body.skipped).toEqual([]);
    const second = await packOf(env, owner, "COPY");
    const [a, b] = [await normalised(first, "DOCS"), await normalised(second, "COPY")];
    expect(Object.keys(b)).toEqual(Object.keys(a));
    expect(b).toEqual(a);
  });

  test("links, images, files, comment marks and mentions point at the new rows", async () => {
    const { owner, member } = await richSpace();
    const res = await importZip(env, owner, await packOf(env, owner, "DOCS"), { key: "COPY" });
    expect(res.status).toBe(201);
    const tree = await call(env, "GET", "/api/pages/tree?spaceId=COPY", { as: owner });
    const guideId = tree.body[0].children[0].id as string;
    const deepId = tree.body[0].children[0].children[0].id as string;
    const page = await call(env, "GET", `/api/pages/${guideId}`, { as: owner });
    const content = page.body.contentJson as string;
    const attachments = (await call(env, "GET", `/api/pages/${guideId}/attachments`, { as: owner })).body as {
      id: string;
      filename: string;
      contentType: string;
    }[];
    const comments = (await call(env, "GET", `/api/pages/${guideId}/comments`, { as: owner })).body as {
      id: string;
      body: string;
      parentCommentId: string | null;
      anchorJson: string | null;
      resolved?: boolean;
    }[];
    const png = attachments.find((a) => a.filename === "diagram.png")!;
    const csv = attachments.find((a) => a.filename === "budget.csv")!;
    expect(png.contentType).toBe("image/png");
    expect(content).toContain(`"href":"/p/${deepId}#part"`);
    expect(content).toContain(`{"type":"pageLink","attrs":{"pageId":"${deepId}"}}`);
    // The backlinks of the imported pages are written with them.
    const backlinks = await call(env, "GET", `/api/pages/${deepId}/backlinks`, { as: owner });
    expect(backlinks.body.map((p: { id: string }) => p.id)).toEqual([guideId]);
    expect(content).toContain(`"src":"/api/attachments/${png.id}/view"`);
    expect(content).toContain(`"attachmentId":"${csv.id}"`);
    const top = comments.find((c) => !c.parentCommentId)!;
    expect(content).toContain(`"commentId":"${top.id}"`);
    // The member is an account of this instance: the mention keeps pointing at them.
    expect(content).toContain(`"id":"${member.id}"`);
    expect(top.body).toBe(`Look @[Member](${member.id})`);
    expect(JSON.parse(top.anchorJson!)).toEqual({ quote: "discussed", from: 3, to: 12 });
    expect(comments.find((c) => c.parentCommentId)?.parentCommentId).toBe(top.id);
    // The files are served from the new rows.
    const file = await env.handle(
      new Request(`http://cairn.test/api/attachments/${png.id}/view`, { headers: { cookie: `cairn_session=${owner.cookie}` } }),
    );
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);
    // Versions keep their numbers, titles and authors.
    const versions = await call(env, "GET", `/api/pages/${guideId}/versions`, { as: owner });
    expect(versions.body.map((v: { versionNumber: number; title: string }) => [v.versionNumber, v.title]).sort()).toEqual([
      [1, "Guide"],
      [2, "Guide, second"],
      [3, "Guide, third"],
    ]);
  });

  test("the importer is the only one with access: the space is private, another account gets 404", async () => {
    const { owner, member } = await richSpace();
    const pack = await packOf(env, owner, "DOCS");
    const res = await importZip(env, member, pack, { key: "MINE" });
    expect(res.status).toBe(201);
    expect(res.body.space.canAdmin).toBe(true);
    const grants = env.core.sqlite
      .query("SELECT principal_type AS t, principal_id AS p, operation AS o FROM space_grants WHERE space_id = ?")
      .all(res.body.space.id);
    expect(grants).toEqual([{ t: 0, p: member.id, o: 2 }]);
    expect(res.body.space.isPublic).toBe(false);
    expect((await call(env, "GET", "/api/spaces/MINE", { as: owner })).status).toBe(404);
    const tree = await call(env, "GET", "/api/pages/tree?spaceId=MINE", { as: member });
    expect((await call(env, "GET", `/api/pages/${tree.body[0].id}`, { as: owner })).status).toBe(404);
    const events = env.core.sqlite.query("SELECT type, actor_id AS actor FROM events WHERE space_id = ?").all(res.body.space.id);
    expect(events).toEqual([{ type: "space.imported", actor: member.id }]);
  });

  test("without a key the pack's own is used; taken: 409 key_taken", async () => {
    const { owner } = await richSpace();
    const pack = await packOf(env, owner, "DOCS");
    const taken = await importZip(env, owner, pack);
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("key_taken");
    const sent = await importZip(env, owner, pack, { key: "docs" });
    expect(sent.status).toBe(409);
    expect((await importZip(env, owner, pack, { key: "OTHER", inQuery: true, name: "From the query" })).body.space.name).toBe(
      "From the query",
    );
  });

  test("in another instance: authors matched by e-mail, the others kept as names (mentions become @Name)", async () => {
    const { owner, member } = await richSpace();
    const pack = await packOf(env, owner, "DOCS");
    const other = makeEnv();
    try {
      const admin = await signUp(other, "admin@elsewhere.example");
      const invite = await call(other, "POST", "/api/admin/invites", { as: admin, body: {} });
      // The owner has an account there too (same e-mail, another id); the member does not.
      const twin = await signUp(other, "owner@example.com", { inviteToken: invite.body.token });
      const res = await importZip(other, admin, pack);
      expect(res.status).toBe(201);
      expect(res.body.space.key).toBe("DOCS");
      expect(res.body.mapped).toContainEqual(expect.objectContaining({ what: "authors without an account here", count: 1 }));
      const rows = other.core.sqlite.query("SELECT title, created_by_id AS by FROM pages ORDER BY title").all() as {
        title: string;
        by: string | null;
      }[];
      expect(rows).toEqual([
        { title: "Deep page", by: twin.id },
        { title: "Guide, third", by: null },
        { title: "Home", by: twin.id },
      ]);
      const guide = other.core.sqlite.query("SELECT content_json AS c FROM pages WHERE title = 'Guide, third'").get() as { c: string };
      expect(guide.c).not.toContain(member.id);
      expect(guide.c).toContain('"text":"Owner: @member with "');
      const body = other.core.sqlite.query("SELECT body FROM comments WHERE parent_id IS NULL").get() as { body: string };
      expect(body.body).toBe("Look @Member");
      // Tracked changes by someone unknown keep no author.
      expect(guide.c).not.toContain('"authorId":"author:');
    } finally {
      other.close();
    }
  });

  test("progress: followed to done by the importer only", async () => {
    const { owner, member } = await richSpace();
    const res = await importZip(env, owner, await packOf(env, owner, "DOCS"), { key: "COPY", progress: "import-12345" });
    expect(res.status).toBe(201);
    const view = await call(env, "GET", "/api/export-progress/import-12345", { as: owner });
    expect(view.body).toMatchObject({ done: true, percent: 100, error: null });
    expect((await call(env, "GET", "/api/export-progress/import-12345", { as: member })).status).toBe(404);
  });

  test("progress: readable while a large import runs, in its phases", async () => {
    const { owner } = await ownerAndMember(env);
    const pack = await handPack(Array.from({ length: 400 }, (_, i) => ({ id: `p${i}`, parent: i ? "p0" : null })));
    const running = importZip(env, owner, pack, { key: "BIG", progress: "big-import-1" });
    const seen: { phase: string; percent: number; done: boolean }[] = [];
    for (let i = 0; i < 2000 && !seen.at(-1)?.done; i++) {
      const view = await call(env, "GET", "/api/export-progress/big-import-1", { as: owner });
      if (view.status === 200) seen.push(view.body);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect((await running).status).toBe(201);
    const during = seen.filter((v) => !v.done);
    expect(during.length).toBeGreaterThan(0);
    expect(during.some((v) => v.phase === "checking" && v.percent > 0 && v.percent < 100)).toBe(true);
    // The percentage only goes up.
    expect(seen.map((v) => v.percent)).toEqual(seen.map((v) => v.percent).sort((a, b) => a - b));
    expect(seen.at(-1)).toMatchObject({ done: true, percent: 100 });
  });
});
