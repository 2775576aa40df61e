/**
 * Logo, dark logo and favicon: PNG and WebP re-encoded, SVG sanitised or refused, everything
 * else 415, over the cap 413; served to anyone with a cache-busting url; replaced and removed
 * files leave the blob store once nothing refers to them, and the start-up sweep keeps the ones
 * in use.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { call, makeEnv, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { jpegWithGps, pngPicture, webpPicture } from "../../tests/image-fixtures";
import { auditOf } from "../audit/testing";
import { sweepOrphanBlobs } from "../attachments/blob-refs";
import { blobStore } from "../platform/blobstore";
import { FILE_MAX_BYTES } from "./files";

let env: TestEnv;
let owner: Who & { id: string };
let member: Who;
beforeEach(async () => {
  env = makeEnv();
  ({ owner, member } = await ownerAndMember(env));
});
afterEach(() => env.close());

const form = (bytes: Uint8Array | string, name = "logo.png", type = "image/png") => {
  const f = new FormData();
  f.append("file", new File([bytes as BlobPart], name, { type }));
  return f;
};
const upload = (slot: string, body: FormData | string, as: Who = owner, headers?: Record<string, string>) =>
  call(env, "PUT", `/api/admin/branding/${slot}`, { as, body, headers });
const svg = (inner: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="32" viewBox="0 0 64 32">${inner}</svg>`;
const has = (hay: Uint8Array, needle: string) => Buffer.from(hay).includes(Buffer.from(needle));
const fetchBytes = async (url: string, headers: Record<string, string> = {}) => {
  const res = await env.handle(new Request(`http://cairn.test${url}`, { headers }));
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
};

describe("raster images", () => {
  test("a PNG logo is decoded, shrunk to fit and stored as PNG again; /api/instance points at it", async () => {
    const res = await upload("logo", form(await pngPicture(1500, 375)));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ contentType: "image/png", width: 1200, height: 300, removed: [] });
    expect(res.body.url).toMatch(/^\/api\/branding\/logo\?v=[0-9a-f]{16}$/);
    expect((await call(env, "GET", "/api/instance")).body.branding.logoUrl).toBe(res.body.url);
    expect((await call(env, "GET", "/api/admin/branding", { as: owner })).body.logo).toMatchObject({
      url: res.body.url,
      width: 1200,
      height: 300,
    });
    const [entry] = auditOf(env, "branding.file_uploaded");
    expect(entry.details).toMatchObject({ slot: "logo", contentType: "image/png" });
    const { res: served, bytes } = await fetchBytes(res.body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toContain("immutable");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(String.fromCharCode(...bytes.subarray(1, 4))).toBe("PNG");
  });

  test("a favicon is a PNG of at most 256 × 256; a WebP upload is taken too", async () => {
    const res = await upload("favicon", form(await webpPicture(512, 512), "icon.webp", "image/webp"));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ contentType: "image/png", width: 256, height: 256 });
    expect((await call(env, "GET", "/api/instance")).body.branding.faviconUrl).toBe(res.body.url);
  });

  test("a PNG with something appended after its end is stored without it", async () => {
    const png = await pngPicture(64, 64);
    const smuggled = Buffer.concat([png, Buffer.from("<script>alert('appended')</script>")]);
    const res = await upload("logo-dark", form(smuggled));
    expect(res.status).toBe(200);
    const { bytes } = await fetchBytes(res.body.url);
    expect(has(bytes, "appended")).toBe(false);
  });

  test("without the right hash (or none) the image is answered but not cached for long; If-None-Match answers 304", async () => {
    const res = await upload("logo", form(await pngPicture(40, 40)));
    const { res: plain } = await fetchBytes("/api/branding/logo");
    expect(plain.status).toBe(200);
    expect(plain.headers.get("cache-control")).toBe("no-cache");
    const etag = plain.headers.get("etag")!;
    expect((await fetchBytes(res.body.url, { "if-none-match": etag })).res.status).toBe(304);
    expect((await call(env, "GET", "/api/branding/logo-dark")).status).toBe(404);
    expect((await call(env, "GET", "/api/branding/banner")).status).toBe(400);
  });
});

describe("SVG", () => {
  test("is sanitised: scripts, handlers, foreignObject and outside links go, and the answer says what went", async () => {
    const dirty = svg(
      '<script>alert(1)</script><rect width="10" height="10" onload="alert(2)"/><foreignObject><p>x</p></foreignObject><image ' +
        'href="https://evil.example/t.png"/><use href="https://evil.example/a.svg#x"/><circle r="4" fill="#0a0"/>',
    );
    const res = await upload("logo", form(dirty, "logo.svg", "image/svg+xml"));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ contentType: "image/svg+xml", width: 64, height: 32 });
    expect(res.body.removed).toEqual(
      expect.arrayContaining([
        "script element",
        "onload attribute (an event handler)",
        "foreignObject element",
        "image element",
        "href pointing outside the image",
      ]),
    );
    const { res: served, bytes } = await fetchBytes(res.body.url);
    const text = new TextDecoder().decode(bytes);
    expect(served.headers.get("content-type")).toBe("image/svg+xml");
    expect(served.headers.get("content-security-policy")).toContain("sandbox");
    for (const gone of ["script", "alert", "onload", "foreignObject", "evil.example"]) expect(text).not.toContain(gone);
    expect(text).toContain('<circle r="4" fill="#0a0"/>');
  });

  test.each([
    ["a DOCTYPE with entities", `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "y">]>${svg("<text>&x;</text>")}`],
    ["markup that does not parse", svg("<g>")],
    [
      "not UTF-8",
      Buffer.concat([
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><text>'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from("</text></svg>"),
      ]),
    ],
  ])("is refused when it cannot be read safely: %s (400 naming file)", async (_name, bytes) => {
    const res = await upload("logo", form(typeof bytes === "string" ? bytes : new Uint8Array(bytes), "logo.svg", "image/svg+xml"));
    expect([res.status, res.body.field]).toEqual([400, "file"]);
    expect((await call(env, "GET", "/api/instance")).body.branding.logoUrl).toBeNull();
  });
});

describe("refused", () => {
  test.each([
    ["a JPEG named .png", async () => form(await jpegWithGps(64, 64), "logo.png", "image/png"), 415],
    ["a GIF", async () => form(Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), "a.gif", "image/gif"), 415],
    ["HTML claiming to be a PNG", async () => form("<!doctype html><script>alert(1)</script>", "logo.png", "image/png"), 415],
    ["random bytes", async () => form(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9])), 415],
    ["a PNG cut short", async () => form((await pngPicture(64, 64)).subarray(0, 60)), 400],
    ["an empty file", async () => form(new Uint8Array(0)), 400],
    ["a file over the cap", async () => form(new Uint8Array(FILE_MAX_BYTES + 1).fill(0x89)), 413],
  ])("%s: refused, nothing stored", async (_name, make, status) => {
    const res = await upload("logo", await make());
    expect(res.status).toBe(status);
    if (status !== 413) expect(res.body.field ?? "file").toBe("file");
    expect((await call(env, "GET", "/api/admin/branding", { as: owner })).body.logo).toBeNull();
    expect(auditOf(env, "branding.file_uploaded")).toEqual([]);
  });

  test("a body that is not multipart is 415; a form without the field `file` is 400", async () => {
    const json = await call(env, "PUT", "/api/admin/branding/logo", { as: owner, body: { file: "x" } });
    expect(json.status).toBe(415);
    const other = new FormData();
    other.append("image", new File([(await pngPicture(8, 8)) as BlobPart], "a.png"));
    const res = await upload("logo", other);
    expect([res.status, res.body.field]).toEqual([400, "file"]);
  });

  test("a member may not upload or remove (403); anonymous 401", async () => {
    expect((await upload("logo", form(await pngPicture(8, 8)), member)).status).toBe(403);
    expect((await call(env, "DELETE", "/api/admin/branding/favicon", { as: member })).status).toBe(403);
    expect((await call(env, "PUT", "/api/admin/branding/logo", { body: form(await pngPicture(8, 8)) })).status).toBe(401);
  });
});

describe("replacing and removing", () => {
  test("a replaced or removed image's bytes leave the store; reset takes every image away", async () => {
    const store = blobStore(env.core);
    const first = await upload("logo", form(await pngPicture(30, 30)));
    const firstSha = await shaOf(first.body.url);
    const second = await upload("logo", form(await pngPicture(40, 40)));
    expect(second.body.url).not.toBe(first.body.url);
    await env.core.commits.durable();
    expect(await store.has(firstSha)).toBe(false);
    const secondSha = await shaOf(second.body.url);
    expect((await call(env, "DELETE", "/api/admin/branding/logo", { as: owner })).status).toBe(204);
    expect(await store.has(secondSha)).toBe(false);
    expect((await call(env, "GET", "/api/instance")).body.branding.logoUrl).toBeNull();
    expect(auditOf(env, "branding.file_removed").map((e) => e.details.slot)).toEqual(["logo"]);
    // Nothing to remove: still 204, nothing audited.
    expect((await call(env, "DELETE", "/api/admin/branding/logo", { as: owner })).status).toBe(204);
    expect(auditOf(env, "branding.file_removed")).toHaveLength(1);

    await upload("favicon", form(await pngPicture(16, 16)));
    await upload("logo-dark", form(svg("<rect/>"), "d.svg", "image/svg+xml"));
    const reset = await call(env, "POST", "/api/admin/branding/reset", { as: owner });
    expect(reset.body).toMatchObject({ logo: null, logoDark: null, favicon: null });
    expect(auditOf(env, "branding.reset")[0].details.removedFiles.sort()).toEqual(["favicon", "logo-dark"]);
  });

  test("the start-up sweep of unreferenced blobs keeps the branding images", async () => {
    const res = await upload("favicon", form(await pngPicture(16, 16)));
    const sha = await shaOf(res.body.url);
    await sweepOrphanBlobs(env.core);
    expect(await blobStore(env.core).has(sha)).toBe(true);
    expect((await fetchBytes(res.body.url)).res.status).toBe(200);
  });
});

async function shaOf(url: string): Promise<string> {
  const { res } = await fetchBytes(url);
  return res.headers.get("etag")!.replaceAll('"', "");
}
