import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, mintToken, PASSWORD, type TestEnv } from "../../tests/harness";
import { eventsOf, newPage, newSpace, ownerMemberAndPage } from "../pages/testing";
import { sha256Hex } from "../platform/crypto";
import { filesUnder, form, PNG, upload, uploaded } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const setup = () => ownerMemberAndPage(env, "Page");

const blobPath = (bytes: Uint8Array | string) => {
  const sha = sha256Hex(typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes);
  return `${sha.slice(0, 2)}/${sha.slice(2)}`;
};
const rows = () => (env.core.sqlite.query("select count(*) as n from attachments").get() as { n: number }).n;

describe("POST /api/pages/{id}/attachments", () => {
  test("stores the file, answers the Attachment (201) and records attachment.created", async () => {
    const { owner, space, page } = await setup();
    const res = await upload(env, owner, page.id, "hello, world\n", "notes.txt", "application/x-anything");
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      pageId: page.id,
      filename: "notes.txt",
      contentType: "text/plain",
      size: 13,
      uploadedById: owner.id,
      createdAt: expect.any(String),
    });
    expect(filesUnder(env, "files")).toEqual([blobPath("hello, world\n")]);
    expect(filesUnder(env, "tmp")).toEqual([]);
    expect(eventsOf(env, "attachment.created")).toMatchObject([
      {
        targetType: "attachment",
        targetId: res.body.id,
        spaceId: space.id,
        actorId: owner.id,
        data: { pageId: page.id, filename: "notes.txt", contentType: "text/plain", size: 13 },
      },
    ]);
    const download = await call(env, "GET", `/api/attachments/${res.body.id}/download`, { as: owner });
    expect(download.text).toBe("hello, world\n");
    const audit = await call(env, "GET", "/api/audit?targetType=attachment", { as: owner });
    expect(audit.body).toMatchObject([
      { action: "attachment.created", targetId: res.body.id, actorId: owner.id, ip: "local", details: { filename: "notes.txt" } },
    ]);
  });

  test("the same bytes twice are two attachments and one blob", async () => {
    const { owner, member, space, page } = await setup();
    const other = await newPage(env, owner, space.id, "Other");
    const a = await uploaded(env, owner, page.id, PNG, "one.png");
    const b = await uploaded(env, member, other.id, PNG, "two.png");
    expect(a.id).not.toBe(b.id);
    expect(filesUnder(env, "files")).toEqual([blobPath(PNG)]);
    expect(rows()).toBe(2);
  });

  test("a draft's upload tells nobody; only its creator may see or add to it", async () => {
    const { owner, member, space } = await setup();
    const draft = (await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } })).body;
    expect((await upload(env, member, draft.id, "x")).status).toBe(404);
    expect((await upload(env, owner, draft.id, "x")).status).toBe(201);
    expect(eventsOf(env, "attachment.created")).toEqual([]);
  });

  test.each([
    ["no content type", undefined, "hi", 415, undefined],
    ["JSON", "application/json", '{"file":"x"}', 415, undefined],
    ["text", "text/plain", "hi", 415, undefined],
    ["multipart without a boundary", "multipart/form-data", "hi", 415, undefined],
    ["another field only", "form:other", "", 400, "file"],
    [
      "no closing boundary",
      "multipart/form-data; boundary=XyZ",
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
      400,
      "body",
    ],
    ["garbage", "multipart/form-data; boundary=XyZ", "this is not a form", 400, "body"],
    ["an empty form", "multipart/form-data; boundary=XyZ", "--XyZ--\r\n", 400, "file"],
    ["header without a name", "multipart/form-data; boundary=XyZ", "--XyZ\r\nno colon here\r\n\r\nabc\r\n--XyZ--", 400, "body"],
  ] as const)("bad input: %s is a %d naming the field, nothing stored", async (_name, type, text, status, field) => {
    const { owner, page } = await setup();
    const body = type === "form:other" ? form("x", "a.txt", "text/plain", "other") : text;
    const headers: Record<string, string> = type && type !== "form:other" ? { "content-type": type } : {};
    const res = await call(env, "POST", `/api/pages/${page.id}/attachments`, { as: owner, body, headers });
    expect(res.status).toBe(status);
    if (field) expect(res.body.field).toBe(field);
    else expect(res.body.code).toBe("unsupported_media_type");
    expect(rows()).toBe(0);
    expect(filesUnder(env, "files")).toEqual([]);
    expect(filesUnder(env, "tmp")).toEqual([]);
  });

  test("reads filename* (UTF-8) before filename; a preamble and an epilogue are no parts", async () => {
    const { owner, page } = await setup();
    const body =
      "preamble\r\n--B\r\n" +
      'Content-Disposition: form-data; name="file"; filename="fallback.txt"; ' +
      "filename*=UTF-8''%E6%97%A5%E6%9C%AC.txt\r\nContent-Type: image/png\r\n\r\n" +
      "text\r\n--B--\r\nepilogue";
    const res = await call(env, "POST", `/api/pages/${page.id}/attachments`, {
      as: owner,
      body,
      headers: { "content-type": 'multipart/form-data; boundary="B"' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ filename: "日本.txt", contentType: "text/plain", size: 4 });
  });
});

describe("who may do what", () => {
  test("a caller who cannot see the page gets 404 from every endpoint, like for a missing one", async () => {
    const { owner, member, space, page } = await setup();
    const draft = (await call(env, "POST", "/api/pages/draft", { as: owner, body: { spaceId: space.id } })).body;
    const onPage = await uploaded(env, owner, page.id, "published");
    const onDraft = await uploaded(env, owner, draft.id, "draft");
    const cases: Array<[string, { cookie?: string } | undefined, string, string]> = [
      ["anonymous", undefined, page.id, onPage.id],
      ["another member, someone's draft", member, draft.id, onDraft.id],
      ["anyone, missing ids", owner, "0190aaaa-0000-7000-8000-000000000000", "0190aaaa-0000-7000-8000-000000000001"],
    ];
    for (const [name, who, pageId, attachmentId] of cases) {
      const answers = [
        await upload(env, who ?? {}, pageId, "x"),
        await call(env, "GET", `/api/pages/${pageId}/attachments`, { as: who }),
        await call(env, "GET", `/api/attachments/${attachmentId}`, { as: who }),
        await call(env, "GET", `/api/attachments/${attachmentId}/download`, { as: who }),
        await call(env, "GET", `/api/attachments/${attachmentId}/view`, { as: who }),
        await call(env, "DELETE", `/api/attachments/${attachmentId}`, { as: who }),
      ];
      expect([name, answers.map((a) => a.status)]).toEqual([name, [404, 404, 404, 404, 404, 404]]);
      // The same problem whether it exists or not.
      expect(answers.slice(2).map((a) => a.body.title)).toEqual(Array(4).fill("Attachment not found"));
    }
    expect(rows()).toBe(2);
  });

  test("other members read and edit a published page's attachments; a read-only token reads only", async () => {
    const { owner, member, page } = await setup();
    const a = await uploaded(env, owner, page.id, "one");
    const readOnly = await mintToken(env, member, { name: "ro", readOnly: true });
    const list = await call(env, "GET", `/api/pages/${page.id}/attachments`, { as: { token: readOnly } });
    expect(list.body.map((x: any) => x.id)).toEqual([a.id]);
    expect((await call(env, "GET", `/api/attachments/${a.id}/download`, { as: { token: readOnly } })).status).toBe(200);
    const refusedUpload = await upload(env, { token: readOnly }, page.id, "two");
    expect([refusedUpload.status, refusedUpload.body.code]).toEqual([403, "read_only_token"]);
    const refusedDelete = await call(env, "DELETE", `/api/attachments/${a.id}`, { as: { token: readOnly } });
    expect([refusedDelete.status, refusedDelete.body.code]).toEqual([403, "read_only_token"]);
    const writer = await mintToken(env, member, { name: "rw" });
    expect((await upload(env, { token: writer }, page.id, "two")).status).toBe(201);
    expect((await call(env, "DELETE", `/api/attachments/${a.id}`, { as: member })).status).toBe(204);
    expect((await call(env, "GET", `/api/attachments/${a.id}`, { as: owner })).status).toBe(404);
  });

  test("a trashed page's attachments stay readable but cannot change (409); an archived space's neither (403)", async () => {
    const { owner, space, page } = await setup();
    const a = await uploaded(env, owner, page.id, "kept");
    await call(env, "DELETE", `/api/pages/${page.id}`, { as: owner });
    expect((await call(env, "GET", `/api/pages/${page.id}/attachments`, { as: owner })).body).toHaveLength(1);
    expect((await call(env, "GET", `/api/attachments/${a.id}/download`, { as: owner })).text).toBe("kept");
    expect((await upload(env, owner, page.id, "new")).status).toBe(409);
    expect((await call(env, "DELETE", `/api/attachments/${a.id}`, { as: owner })).status).toBe(409);
    const live = await newPage(env, owner, space.id, "Live");
    const b = await uploaded(env, owner, live.id, "b");
    expect((await call(env, "POST", `/api/spaces/${space.key}/archive`, { as: owner })).status).toBe(200);
    expect((await upload(env, owner, live.id, "new")).status).toBe(403);
    expect((await call(env, "DELETE", `/api/attachments/${b.id}`, { as: owner })).status).toBe(403);
    expect(rows()).toBe(2);
  });
});

describe("blobs go only when nothing refers to them", () => {
  test("deleting one of two attachments sharing a blob keeps it; deleting the other removes it", async () => {
    const { owner, page } = await setup();
    const a = await uploaded(env, owner, page.id, PNG, "a.png");
    const b = await uploaded(env, owner, page.id, PNG, "b.png");
    expect((await call(env, "DELETE", `/api/attachments/${a.id}`, { as: owner })).status).toBe(204);
    expect(filesUnder(env, "files")).toEqual([blobPath(PNG)]);
    expect((await call(env, "GET", `/api/attachments/${b.id}/download`, { as: owner })).status).toBe(200);
    expect((await call(env, "DELETE", `/api/attachments/${b.id}`, { as: owner })).status).toBe(204);
    expect(filesUnder(env, "files")).toEqual([]);
    expect(eventsOf(env, "attachment.deleted").map((e) => e.targetId)).toEqual([a.id, b.id]);
  });

  test("the trash keeps the blob; purge removes it unless another page still uses it", async () => {
    const { owner, space, page } = await setup();
    const child = await newPage(env, owner, space.id, "Child", { parentPageId: page.id });
    const keeper = await newPage(env, owner, space.id, "Keeper");
    await uploaded(env, owner, page.id, "only here");
    await uploaded(env, owner, child.id, "shared");
    await uploaded(env, owner, keeper.id, "shared");
    expect((await call(env, "DELETE", `/api/pages/${page.id}`, { as: owner })).status).toBe(204);
    expect(filesUnder(env, "files")).toEqual([blobPath("only here"), blobPath("shared")].sort());
    expect((await call(env, "DELETE", `/api/pages/${page.id}/purge`, { as: owner })).status).toBe(204);
    expect(filesUnder(env, "files")).toEqual([blobPath("shared")]);
    expect(rows()).toBe(1);
  });

  test("space deletion: the preview counts attachments and bytes; deletion removes rows and blobs", async () => {
    const { owner, space, page } = await setup();
    const other = await newSpace(env, owner, "OTHER");
    const elsewhere = await newPage(env, owner, other.id, "Elsewhere");
    await uploaded(env, owner, page.id, "12345");
    await uploaded(env, owner, page.id, "shared");
    await uploaded(env, owner, elsewhere.id, "shared");
    const preview = await call(env, "GET", `/api/spaces/${space.key}/deletion-preview`, { as: owner });
    expect(preview.body).toMatchObject({ attachments: 2, bytes: 11 });
    const res = await call(env, "DELETE", `/api/spaces/${space.key}`, { as: owner, body: { confirmKey: space.key, password: PASSWORD } });
    expect(res.status).toBe(204);
    expect(filesUnder(env, "files")).toEqual([blobPath("shared")]);
    expect(rows()).toBe(1);
  });

  test("a copied page gets its own attachments on the same blobs, and its document points at them", async () => {
    const { owner, space, page } = await setup();
    const a = await uploaded(env, owner, page.id, PNG, "pic.png");
    const doc = {
      type: "doc",
      content: [{ type: "attachment", attrs: { attachmentId: a.id, filename: "pic.png", size: a.size, contentType: "image/png" } }],
    };
    expect(
      (await call(env, "PUT", `/api/pages/${page.id}`, { as: owner, body: { title: "Page", contentJson: JSON.stringify(doc) } })).status,
    ).toBe(200);
    const copy = await call(env, "POST", `/api/pages/${page.id}/copy`, { as: owner, body: {} });
    expect(copy.status).toBe(201);
    const copied = (await call(env, "GET", `/api/pages/${copy.body.id}/attachments`, { as: owner })).body;
    expect(copied).toMatchObject([{ filename: "pic.png", contentType: "image/png", size: a.size, pageId: copy.body.id }]);
    expect(copied[0].id).not.toBe(a.id);
    const page2 = (await call(env, "GET", `/api/pages/${copy.body.id}`, { as: owner })).body;
    expect(JSON.parse(page2.contentJson).content[0].attrs.attachmentId).toBe(copied[0].id);
    expect((await call(env, "GET", `/api/pages/${copy.body.id}/versions/1`, { as: owner })).body.contentJson).toBe(page2.contentJson);
    expect(filesUnder(env, "files")).toEqual([blobPath(PNG)]);
    await call(env, "DELETE", `/api/pages/${page.id}`, { as: owner });
    await call(env, "DELETE", `/api/pages/${page.id}/purge`, { as: owner });
    expect((await call(env, "GET", `/api/attachments/${copied[0].id}/download`, { as: owner })).status).toBe(200);
    void space;
  });

  test("an unreferenced blob left by a crash is removed at the next start; referenced ones stay", async () => {
    const { owner, page } = await setup();
    await uploaded(env, owner, page.id, "kept");
    await Bun.write(`${env.dir}/files/${blobPath("orphan")}`, "orphan");
    const dir = env.dir;
    env.core.close();
    const again = makeEnv({ dir });
    try {
      for (let i = 0; i < 50 && filesUnder(again, "files").length > 1; i++) await Bun.sleep(1);
      expect(filesUnder(again, "files")).toEqual([blobPath("kept")]);
    } finally {
      again.close();
    }
  });
});
