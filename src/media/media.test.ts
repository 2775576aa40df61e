import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { call, makeEnv, mintToken, ownerAndMember, PASSWORD, type TestEnv } from "../../tests/harness";
import { GPS_MARKER, jpegWithGps, pngBombHeader, pngPicture, SVG_FILE, webpPicture } from "../../tests/image-fixtures";
import { filesUnder, form } from "../attachments/testing";
import { sweepOrphanBlobs } from "../attachments/blob-refs";
import { eventsOf, newSpace } from "../spaces/testing";
import { sniffImage } from "../platform/image-header";

// Encoding and decoding real pictures takes a while on a busy machine.
setDefaultTimeout(30_000);

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const putAvatar = (who: { cookie?: string; token?: string }, bytes: Uint8Array, name = "me.jpg") =>
  call(env, "PUT", "/api/media/avatars/me", { as: who, body: form(bytes, name, "image/jpeg") });
const blobBytes = (sha: string) => readFileSync(join(env.dir, "files", sha.slice(0, 2), sha.slice(2)));
const hashOf = (url: string) => /\?v=([0-9a-f]{16})$/.exec(url)![1]!;

describe("avatars", () => {
  test("a JPEG with EXIF GPS is stored as a 256×256 WebP without it; the account, the directory and GET carry it", async () => {
    const { owner, member } = await ownerAndMember(env);
    const jpeg = await jpegWithGps(900, 600);
    const res = await putAvatar(member, jpeg);
    expect(res.status).toBe(200);
    const url: string = res.body.avatarUrl;
    expect(url).toMatch(new RegExp(`^/api/media/avatars/${member.id}\\?v=[0-9a-f]{16}$`));
    expect(res.body).toMatchObject({ id: member.id, avatarVariant: 0 });

    const [stored] = filesUnder(env, "files");
    const bytes = new Uint8Array(readFileSync(join(env.dir, "files", stored!)));
    expect(sniffImage(bytes)).toMatchObject({ kind: "raster", format: "webp", width: 256, height: 256 });
    expect(Buffer.from(bytes).includes(GPS_MARKER)).toBe(false);
    expect(Buffer.from(bytes).includes("Exif")).toBe(false);

    // Anyone signed in sees it; the answer at the hashed address is cached for good.
    const got = await call(env, "GET", url, { as: owner });
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("image/webp");
    expect(got.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    const etag = got.headers.get("etag")!;
    expect(etag).toStartWith(`"${hashOf(url)}`);
    expect((await call(env, "GET", `/api/media/avatars/${member.id}`, { as: owner })).headers.get("cache-control")).toBe(
      "private, no-cache",
    );
    expect((await call(env, "GET", url, { as: owner, headers: { "if-none-match": etag } })).status).toBe(304);
    expect((await call(env, "GET", url)).status).toBe(401);

    expect((await call(env, "GET", "/api/auth/me", { as: member })).body).toMatchObject({ avatarUrl: url, avatarVariant: 0 });
    const directory = (await call(env, "GET", "/api/users", { as: owner })).body as {
      id: string;
      avatarUrl: string | null;
      avatarVariant: number;
    }[];
    expect(directory.find((u) => u.id === member.id)).toMatchObject({ avatarUrl: url, avatarVariant: 0 });
    expect(directory.find((u) => u.id === owner.id)).toMatchObject({ avatarUrl: null, avatarVariant: 0 });
    expect(eventsOf(env, "user.updated")).toMatchObject([
      { targetId: member.id, actorId: member.id, data: { avatar: { from: null, to: expect.any(String) } } },
    ]);
  });

  test("a new picture gets a new address and the old file goes; DELETE returns to the generated avatar (GET 404)", async () => {
    const { owner, member } = await ownerAndMember(env);
    const first = (await putAvatar(member, await pngPicture(300, 300), "a.png")).body.avatarUrl;
    const second = (await putAvatar(member, await webpPicture(200, 320), "b.webp")).body.avatarUrl;
    expect(second).not.toBe(first);
    expect(filesUnder(env, "files")).toHaveLength(1);
    expect((await call(env, "DELETE", "/api/media/avatars/me", { as: member })).status).toBe(204);
    expect(filesUnder(env, "files")).toEqual([]);
    expect((await call(env, "GET", "/api/auth/me", { as: member })).body.avatarUrl).toBeNull();
    expect((await call(env, "GET", `/api/media/avatars/${member.id}`, { as: owner })).status).toBe(404);
    expect((await call(env, "GET", "/api/media/avatars/nobody", { as: owner })).status).toBe(404);
    // Deleting when there is none is still 204 and records nothing more.
    expect((await call(env, "DELETE", "/api/media/avatars/me", { as: member })).status).toBe(204);
    expect(eventsOf(env, "user.updated")).toHaveLength(3);
  });

  test("the start-up sweep keeps avatar and icon files", async () => {
    const { owner } = await ownerAndMember(env);
    await putAvatar(owner, await pngPicture(64, 64));
    await newSpace(env, owner, "DOCS");
    await call(env, "PUT", "/api/media/space-icons/DOCS", { as: owner, body: form(await pngPicture(64, 64), "i.png") });
    expect(await sweepOrphanBlobs(env.core)).toBe(0);
    expect(filesUnder(env, "files")).toHaveLength(2);
  });

  test("variant: 0–7, validated; session only (tokens 403 token_not_allowed), anonymous 401", async () => {
    const { member } = await ownerAndMember(env);
    const ok = await call(env, "PUT", "/api/media/avatars/me/variant", { as: member, body: { variant: 5 } });
    expect([ok.status, ok.body.avatarVariant]).toEqual([200, 5]);
    for (const variant of [-1, 8, 1.5, "3", null]) {
      const bad = await call(env, "PUT", "/api/media/avatars/me/variant", { as: member, body: { variant } });
      expect([bad.status, bad.body.field ?? Object.keys(bad.body.errors ?? {})[0]]).toEqual([400, "variant"]);
    }
    expect((await call(env, "PUT", "/api/media/avatars/me/variant", { as: member, body: {} })).status).toBe(400);
    const token = await mintToken(env, member);
    const byToken = await call(env, "PUT", "/api/media/avatars/me/variant", { as: { token }, body: { variant: 1 } });
    expect([byToken.status, byToken.body.code]).toEqual([403, "token_not_allowed"]);
    expect((await putAvatar({ token }, await pngPicture(10, 10))).body.code).toBe("token_not_allowed");
    expect((await call(env, "DELETE", "/api/media/avatars/me", { as: { token } })).status).toBe(403);
    expect((await call(env, "PUT", "/api/media/avatars/me/variant", { body: { variant: 1 } })).status).toBe(401);
    expect((await call(env, "GET", "/api/auth/me", { as: member })).body.avatarVariant).toBe(5);
  });

  test.each([
    ["SVG", () => SVG_FILE, 415],
    ["GIF", () => new TextEncoder().encode("GIF89a\x01\x00\x01\x00\x00\x00\x00"), 415],
    ["text", () => new TextEncoder().encode("hello"), 415],
    ["a decompression bomb header", pngBombHeader, 415],
    ["a damaged PNG", async () => (await pngPicture(40, 40)).fill(3, 40), 400],
  ])("%s is refused (%i) and nothing is stored", async (_, make, status) => {
    const { member } = await ownerAndMember(env);
    const res = await putAvatar(member, await make());
    expect([res.status, res.body.field]).toEqual([status, "file"]);
    expect(filesUnder(env, "files")).toEqual([]);
    expect((await call(env, "GET", "/api/auth/me", { as: member })).body.avatarUrl).toBeNull();
  });

  test("not multipart is 415; no file field is 400; over 10 MB is 413", async () => {
    const { member } = await ownerAndMember(env);
    expect(
      (await call(env, "PUT", "/api/media/avatars/me", { as: member, body: "x", headers: { "content-type": "image/png" } })).status,
    ).toBe(415);
    const other = new FormData();
    other.append("picture", new File([(await pngPicture(10, 10)) as Uint8Array<ArrayBuffer>], "a.png"));
    const missing = await call(env, "PUT", "/api/media/avatars/me", { as: member, body: other });
    expect([missing.status, missing.body.field]).toEqual([400, "file"]);
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(await pngPicture(10, 10));
    expect((await putAvatar(member, big)).status).toBe(413);
  });
});

describe("space icons", () => {
  test(
    "a space admin uploads an icon: 128×128 WebP, iconKind 2 with its address; " +
      "readers GET it, others 404; DELETE returns to generated",
    async () => {
      const { owner, member } = await ownerAndMember(env);
      const space = await newSpace(env, owner, "DOCS");
      const put = await call(env, "PUT", "/api/media/space-icons/docs", { as: owner, body: form(await jpegWithGps(500, 300), "icon.jpg") });
      expect(put.status).toBe(200);
      const iconUrl: string = put.body.iconValue;
      expect(iconUrl).toMatch(/^\/api\/media\/space-icons\/DOCS\?v=[0-9a-f]{16}$/);
      expect(put.body).toMatchObject({ key: "DOCS", iconKind: 2 });
      const stored = filesUnder(env, "files")[0]!.replace("/", "");
      const bytes = new Uint8Array(blobBytes(stored));
      expect(sniffImage(bytes)).toMatchObject({ format: "webp", width: 128, height: 128 });
      expect(Buffer.from(bytes).includes(GPS_MARKER)).toBe(false);
      expect(eventsOf(env, "space.updated")).toMatchObject([{ targetId: space.id, data: { icon: { from: null, to: stored } } }]);

      // The member can see the space (everyone has Edit on a new space) but not administer it.
      expect((await call(env, "GET", iconUrl, { as: member })).status).toBe(200);
      const denied = await call(env, "PUT", "/api/media/space-icons/DOCS", { as: member, body: form(await pngPicture(20, 20), "x.png") });
      expect(denied.status).toBe(403);
      expect((await call(env, "DELETE", "/api/media/space-icons/DOCS", { as: member })).status).toBe(403);
      expect((await call(env, "GET", "/api/media/space-icons/DOCS")).status).toBe(404);
      expect((await call(env, "GET", "/api/media/space-icons/NOPE", { as: owner })).status).toBe(404);

      expect((await call(env, "DELETE", "/api/media/space-icons/DOCS", { as: owner })).status).toBe(204);
      expect((await call(env, "GET", "/api/spaces/DOCS", { as: owner })).body).toMatchObject({ iconKind: 0, iconValue: null });
      expect((await call(env, "GET", "/api/media/space-icons/DOCS", { as: owner })).status).toBe(404);
      expect(filesUnder(env, "files")).toEqual([]);
    },
  );

  test("an archived space's icon cannot change; SVG is refused", async () => {
    const { owner } = await ownerAndMember(env);
    await newSpace(env, owner, "OLD");
    expect(
      (await call(env, "PUT", "/api/media/space-icons/OLD", { as: owner, body: form(SVG_FILE, "x.svg", "image/svg+xml") })).status,
    ).toBe(415);
    expect((await call(env, "POST", "/api/spaces/OLD/archive", { as: owner })).status).toBe(200);
    expect(
      (await call(env, "PUT", "/api/media/space-icons/OLD", { as: owner, body: form(await pngPicture(20, 20), "x.png") })).status,
    ).toBe(403);
    expect(filesUnder(env, "files")).toEqual([]);
  });

  test("deleting the space deletes its icon row (the file goes at the next sweep)", async () => {
    const { owner } = await ownerAndMember(env);
    await newSpace(env, owner, "GONE");
    await call(env, "PUT", "/api/media/space-icons/GONE", { as: owner, body: form(await pngPicture(20, 20), "x.png") });
    const del = await call(env, "DELETE", "/api/spaces/GONE", { as: owner, body: { confirmKey: "GONE", password: PASSWORD } });
    expect(del.status).toBe(204);
    expect((env.core.sqlite.query("select count(*) as n from space_icons").get() as { n: number }).n).toBe(0);
    expect(await sweepOrphanBlobs(env.core)).toBe(1);
  });
});
