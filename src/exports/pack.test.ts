import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BASE, call, makeEnv, signUp, type TestEnv, type Who } from "../../tests/harness";
import { PNG, uploaded } from "../attachments/testing";
import { comment } from "../comments/testing";
import { everythingDocument } from "../content/testing";
import { newPage, newSpace } from "../pages/testing";
import { sha256Hex } from "../platform/crypto";
import { setSetting } from "../settings/service";
import { openZip, type OpenedZip } from "../platform/zip/read";

let env: TestEnv;
let dir: string;
let owner: { id: string; cookie: string };
let member: { id: string; cookie: string };
const ids: Record<string, string> = {};

async function ok(res: Promise<{ status: number; text: string; body: any }>, what: string) {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r.body;
}

/** The answer's bytes (call() reads text, which would mangle a zip). */
async function download(who: Who | null, path: string): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const headers: Record<string, string> = who?.cookie ? { cookie: `cairn_session=${who.cookie}` } : {};
  const res = await env.handle(new Request(BASE + path, { headers }));
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

let zips = 0;
async function packOf(who: Who, key = "DOCS"): Promise<{ bytes: Uint8Array; zip: OpenedZip }> {
  const res = await download(who, `/api/spaces/${key}/export/pack`);
  if (res.status !== 200) throw new Error(`pack: ${res.status} ${new TextDecoder().decode(res.bytes)}`);
  const file = join(dir, `pack${zips++}.zip`);
  await Bun.write(file, res.bytes);
  return { bytes: res.bytes, zip: await openZip(file) };
}

const readJson = async (zip: OpenedZip, path: string) => JSON.parse(await zip.get(path)!.text());

/** Every node and mark type in a document. */
function typesOf(node: any, into = new Set<string>()): Set<string> {
  if (node?.type) into.add(node.type);
  for (const m of node?.marks ?? []) into.add(`mark:${m.type}`);
  for (const c of node?.content ?? []) typesOf(c, into);
  return into;
}

beforeAll(async () => {
  env = makeEnv();
  dir = mkdtempSync(join(tmpdir(), "cairn-pack-test-"));
  owner = await signUp(env, "owner@example.com", { displayName: "Olivia Owner" });
  const invite = await ok(call(env, "POST", "/api/admin/invites", { as: owner, body: {} }), "invite");
  member = await signUp(env, "member@example.com", { inviteToken: invite.token, displayName: "Max Member" });
  const space = await newSpace(env, owner, "DOCS", "Documentation");
  ids.space = space.id;

  const first = await newPage(env, owner, space.id, "Everything");
  ids.everything = first.id;
  const png = await uploaded(env, owner, first.id, PNG, "diagram.png", "image/png");
  const sheet = await uploaded(env, member, first.id, "a,b\n1,2\n", "budget.csv", "text/csv");
  const doc = everythingDocument();
  // Real people and files in the document: the mention and the tracked change name the member.
  const json = JSON.stringify(doc)
    .replaceAll("0190a6c8-0000-7000-8000-000000000001", member.id)
    .replaceAll('"authorId":"u-2"', `"authorId":"${member.id}"`)
    .replaceAll("/api/attachments/a-1/download", `/api/attachments/${png.id}/view`)
    .replaceAll('"attachmentId":"a-2"', `"attachmentId":"${sheet.id}"`);
  await ok(
    call(env, "PUT", `/api/pages/${first.id}`, { as: member, body: { contentJson: json, changeComment: "Everything at once" } }),
    "edit",
  );
  const child = await newPage(env, owner, space.id, "Child", { parentPageId: first.id });
  ids.child = child.id;
  ids.grandchild = (await newPage(env, member, space.id, "Grandchild", { parentPageId: child.id })).id;
  const second = await newPage(env, member, space.id, "Second");
  ids.second = second.id;
  await uploaded(env, member, second.id, PNG, "same-picture.png", "image/png"); // the same bytes: one blob

  const top = await comment(env, member, first.id, {
    body: `Is this right, @[Olivia Owner](${owner.id})?`,
    anchorJson: JSON.stringify({ from: 3, to: 9, text: "Release" }),
  });
  ids.comment = top.id;
  // Someone who is no account here: kept by name, without an e-mail.
  await comment(env, owner, first.id, { body: "Yes, ask @[Ghost Writer](0190a6c8-0000-7000-8000-0000000000ff).", parentCommentId: top.id });
  await ok(call(env, "POST", `/api/comments/${top.id}/resolve`, { as: owner }), "resolve");
  const gone = await comment(env, owner, second.id, { body: "Deleted soon" });
  await ok(call(env, "DELETE", `/api/comments/${gone.id}`, { as: owner }), "delete comment");

  for (const name of ["release", "plan"])
    await ok(call(env, "POST", `/api/pages/${first.id}/labels`, { as: owner, body: { name } }), "label");
  await ok(
    call(env, "POST", "/api/templates", {
      as: owner,
      body: { spaceId: "DOCS", name: "Meeting notes", description: "Agenda and actions", contentJson: json },
    }),
    "template",
  );
  await ok(
    call(env, "POST", "/api/templates", {
      as: owner,
      body: { name: "Wiki-wide", contentJson: JSON.stringify({ type: "doc", content: [{ type: "paragraph" }] }) },
    }),
    "global template",
  );

  // Out of the pack: a draft, a trashed page, another space.
  await ok(call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } }), "draft");
  const trashed = await newPage(env, owner, space.id, "Trashed");
  await ok(call(env, "DELETE", `/api/pages/${trashed.id}`, { as: owner }), "trash");
  await newSpace(env, owner, "OTHER");
});

afterAll(() => {
  env.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("GET /api/spaces/{key}/export/pack", () => {
  test("a zip named after the space, with the manifest's counts", async () => {
    const res = await download(owner, "/api/spaces/docs/export/pack");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toContain('filename="DOCS-pack.zip"');
    const { zip } = await packOf(owner);
    expect(await readJson(zip, "manifest.json")).toEqual({
      format: "cairn-pack",
      version: 1,
      counts: { pages: 4, versions: 5, comments: 2, attachments: 3, blobs: 2, labels: 2, templates: 1, authors: 3 },
    });
    expect(zip.entries.map((e) => e.path).filter((p) => !p.startsWith("blobs/"))).toEqual([
      "pages/00001.json",
      "pages/00002.json",
      "pages/00003.json",
      "pages/00004.json",
      "templates.json",
      "authors.json",
      "space.json",
      "manifest.json",
    ]);
  });

  test("pages in tree order with their parents, every version, and every block type of the document", async () => {
    const { zip } = await packOf(owner);
    const pages = await Promise.all([1, 2, 3, 4].map((i) => readJson(zip, `pages/0000${i}.json`)));
    expect(pages.map((p) => [p.title, p.parent])).toEqual([
      ["Everything", null],
      ["Child", ids.everything],
      ["Grandchild", ids.child],
      ["Second", null],
    ]);
    const everything = pages[0];
    expect(Object.keys(everything)).toEqual([
      "id",
      "parent",
      "position",
      "title",
      "emoji",
      "fullWidth",
      "createdBy",
      "updatedBy",
      "createdAt",
      "updatedAt",
      "labels",
      "versions",
      "comments",
      "attachments",
    ]);
    expect(everything.labels).toEqual(["plan", "release"]);
    expect(everything.versions.map((v: any) => [v.number, v.changeComment])).toEqual([
      [1, null],
      [2, "Everything at once"],
    ]);
    const current = everything.versions[1].content;
    expect(typeof current).toBe("object");
    // A version never holds tracked changes (pages/input.ts accepts them); everything else is there.
    const expected = [...typesOf(everythingDocument())].filter((t) => t !== "mark:insertion" && t !== "mark:deletion");
    expect([...typesOf(current)].sort()).toEqual(expected.sort());
  });

  test("authors are name and e-mail only; user ids inside documents and comments become author refs", async () => {
    const { zip } = await packOf(owner);
    const authors = await readJson(zip, "authors.json");
    expect(authors).toEqual([
      { ref: "a1", name: "Olivia Owner", email: "owner@example.com" },
      { ref: "a2", name: "Max Member", email: "member@example.com" },
      { ref: "a3", name: "Ghost Writer", email: null },
    ]);
    const everything = await readJson(zip, "pages/00001.json");
    expect([everything.createdBy, everything.updatedBy, everything.versions[1].author]).toEqual(["a1", "a2", "a2"]);
    expect(JSON.stringify(everything.versions[1].content)).toContain('"type":"mention","attrs":{"id":"author:a2"');
    // Templates keep tracked changes: their authors too.
    const template = JSON.stringify((await readJson(zip, "templates.json"))[0].content);
    expect(template).toContain('"type":"mention","attrs":{"id":"author:a2"');
    expect(template).toContain('"authorId":"author:a2"');
    expect(everything.comments.map((c: any) => c.body)).toEqual([
      "Is this right, @[Olivia Owner](author:a1)?",
      "Yes, ask @[Ghost Writer](author:a3).",
    ]);
    // No account id anywhere in the pack.
    for (const entry of zip.entries) {
      if (entry.path.startsWith("blobs/")) continue;
      const body = await entry.text();
      expect(body).not.toContain(owner.id);
      expect(body).not.toContain(member.id);
    }
  });

  test("a deleted thread's placeholder stays while it has replies (emptied, as the app keeps it)", async () => {
    const page = await newPage(env, owner, ids.space, "Threads");
    const top = await comment(env, owner, page.id, { body: "Original" });
    await comment(env, member, page.id, { body: "A reply", parentCommentId: top.id });
    await ok(call(env, "DELETE", `/api/comments/${top.id}`, { as: owner }), "delete top");
    try {
      const { zip } = await packOf(owner);
      const threads = await readJson(zip, "pages/00005.json");
      expect(threads.title).toBe("Threads");
      expect(threads.comments.map((c: any) => [c.id === top.id, c.parent === top.id, c.body])).toEqual([
        [true, false, ""],
        [false, true, "A reply"],
      ]);
    } finally {
      await ok(call(env, "DELETE", `/api/pages/${page.id}`, { as: owner }), "trash");
    }
  });

  test("comments with their anchors, replies and resolution; deleted ones stay out", async () => {
    const { zip } = await packOf(owner);
    const [everything, second] = [await readJson(zip, "pages/00001.json"), await readJson(zip, "pages/00004.json")];
    expect(everything.comments).toHaveLength(2);
    const [top, reply] = everything.comments;
    expect(top).toMatchObject({
      id: ids.comment,
      parent: null,
      anchor: { from: 3, to: 9, text: "Release" },
      author: "a2",
      resolvedBy: "a1",
    });
    expect(typeof top.resolvedAt).toBe("string");
    expect(reply).toMatchObject({ parent: ids.comment, anchor: null, author: "a1", resolvedAt: null, resolvedBy: null });
    expect(second.comments).toEqual([]);
  });

  test("attachments by hash, each file once, pictures stored as they are; the space's own templates", async () => {
    const { zip, bytes } = await packOf(owner);
    const everything = await readJson(zip, "pages/00001.json");
    const second = await readJson(zip, "pages/00004.json");
    const pngSha = sha256Hex(PNG);
    expect(everything.attachments.map((a: any) => [a.filename, a.contentType, a.sha256])).toEqual([
      ["diagram.png", "image/png", pngSha],
      ["budget.csv", "text/plain", sha256Hex("a,b\n1,2\n")],
    ]);
    expect(second.attachments.map((a: any) => a.sha256)).toEqual([pngSha]);
    const blobs = zip.entries.filter((e) => e.path.startsWith("blobs/"));
    expect(blobs.map((b) => b.path)).toEqual([`blobs/${pngSha}`, `blobs/${sha256Hex("a,b\n1,2\n")}`]);
    expect(await zip.get(`blobs/${pngSha}`)!.read()).toEqual(PNG);
    // Stored: the PNG's bytes appear in the zip as they are.
    expect(Buffer.from(bytes).indexOf(Buffer.from(PNG))).toBeGreaterThan(0);
    const templates = await readJson(zip, "templates.json");
    expect(templates.map((t: any) => [t.name, t.description, t.createdBy])).toEqual([["Meeting notes", "Agenda and actions", "a1"]]);
    expect([...typesOf(templates[0].content)].sort()).toEqual([...typesOf(everythingDocument())].sort());
    expect(templates[0].content.content.find((n: any) => n.type === "image").attrs.src).toContain("/api/attachments/");
  });

  test("space.json holds the space's settings", async () => {
    const { zip } = await packOf(owner);
    const space = await readJson(zip, "space.json");
    expect(space).toMatchObject({
      key: "DOCS",
      name: "Documentation",
      isPublic: false,
      homepage: null,
      exports: { markdown: true, html: true, pdf: true, site: true, pack: true },
    });
    expect(Object.keys(space)).toEqual([
      "key",
      "name",
      "description",
      "isPublic",
      "publicComments",
      "iconKind",
      "iconValue",
      "iconColor",
      "treeStyle",
      "exports",
      "homepage",
      "createdAt",
      "updatedAt",
    ]);
  });

  test("the same space exported twice gives the same bytes", async () => {
    const a = await packOf(owner);
    env.clock.advance(60_000);
    const b = await packOf(owner);
    expect(sha256Hex(b.bytes)).toBe(sha256Hex(a.bytes));
  });

  test("only what the caller may read: a View restriction takes its subtree out of others' packs", async () => {
    await ok(
      call(env, "POST", `/api/pages/${ids.child}/restrictions`, {
        as: owner,
        body: { principalType: 0, principalId: owner.id, operation: 0 },
      }),
      "restrict",
    );
    try {
      const { zip } = await packOf(member);
      const pages = await Promise.all(zip.entries.filter((e) => e.path.startsWith("pages/")).map((e) => e.text().then(JSON.parse)));
      expect(pages.map((p) => p.title)).toEqual(["Everything", "Second"]);
      expect((await readJson(zip, "manifest.json")).counts.pages).toBe(2);
      const owners = await packOf(owner);
      expect((await readJson(owners.zip, "manifest.json")).counts.pages).toBe(4);
    } finally {
      const list = await ok(call(env, "GET", `/api/pages/${ids.child}/restrictions`, { as: owner }), "restrictions");
      for (const r of list) await ok(call(env, "DELETE", `/api/pages/${ids.child}/restrictions/${r.id}`, { as: owner }), "unrestrict");
    }
  });

  test(
    "404 for a space the caller cannot read or that does not exist; 401 " + "anonymous; 403 export_disabled with the switch off",
    async () => {
      // OTHER without its Everyone grant: the member cannot read it.
      const grants = await ok(call(env, "GET", "/api/spaces/OTHER/permissions", { as: owner }), "grants");
      for (const g of grants.filter((g: any) => g.principalId !== owner.id))
        await ok(call(env, "DELETE", `/api/spaces/OTHER/permissions/${g.id}`, { as: owner }), "revoke");
      expect((await download(member, "/api/spaces/OTHER/export/pack")).status).toBe(404);
      expect((await download(owner, "/api/spaces/OTHER/export/pack")).status).toBe(200);
      expect((await download(member, "/api/spaces/NOPE/export/pack")).status).toBe(404);
      expect((await download(null, "/api/spaces/DOCS/export/pack")).status).toBe(404);
      // An anonymous reader of a public space: 401 (versions and authors' e-mails are for accounts).
      setSetting(env.core, "allowPublicSpaces", true);
      await ok(call(env, "PUT", "/api/admin/spaces/OTHER/public", { as: owner, body: { isPublic: true } }), "public");
      const anonymous = await download(null, "/api/spaces/OTHER/export/pack");
      expect(anonymous.status).toBe(401);
      await ok(call(env, "PUT", "/api/spaces/DOCS/exports", { as: owner, body: { pack: false } }), "switch off");
      try {
        const off = await download(member, "/api/spaces/DOCS/export/pack");
        expect(off.status).toBe(403);
        expect(JSON.parse(new TextDecoder().decode(off.bytes)).code).toBe("export_disabled");
      } finally {
        await ok(call(env, "PUT", "/api/spaces/DOCS/exports", { as: owner, body: { pack: true } }), "switch on");
      }
    },
  );

  test("progress: a bad id is 400 naming progress; a finished export reads 100 % and done", async () => {
    const bad = await download(owner, "/api/spaces/DOCS/export/pack?progress=no");
    expect(bad.status).toBe(400);
    expect(JSON.parse(new TextDecoder().decode(bad.bytes)).field).toBe("progress");
    const res = await download(owner, "/api/spaces/DOCS/export/pack?progress=pack-test-1");
    expect(res.status).toBe(200);
    const seen = await call(env, "GET", "/api/export-progress/pack-test-1", { as: owner });
    expect(seen.body).toMatchObject({ id: "pack-test-1", percent: 100, done: true, error: null });
    expect((await call(env, "GET", "/api/export-progress/pack-test-1", { as: member })).status).toBe(404);
  });

  test("a download abandoned half-way stops the export, and its progress says so", async () => {
    const res = await env.handle(
      new Request(`${BASE}/api/spaces/DOCS/export/pack?progress=pack-test-2`, { headers: { cookie: `cairn_session=${owner.cookie}` } }),
    );
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    await reader.cancel();
    const seen = await call(env, "GET", "/api/export-progress/pack-test-2", { as: owner });
    expect(seen.body).toMatchObject({ done: true, error: { code: "cancelled" } });
  });
});
