import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, makeEnv, signUp, type TestEnv } from "../../tests/harness";
import { newPage, newSpace } from "../pages/testing";
import { PNG, uploaded } from "./testing";

let env: TestEnv;
let owner: { cookie: string };
let pageId: string;
beforeAll(async () => {
  env = makeEnv();
  owner = await signUp(env, "owner@example.com");
  const space = await newSpace(env, owner, "DOCS");
  pageId = (await newPage(env, owner, space.id, "Files")).id;
});
afterAll(() => env.close());

const bytes = (...parts: Array<string | number[]>) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === "string" ? [...Buffer.from(p, "utf8")] : p)));

// name, bytes, filename, claimed type, sniffed type, inline on /view
const SNIFFING: Array<[string, Uint8Array, string, string, string, boolean]> = [
  ["a PNG claiming text/html", PNG, "pic.png", "text/html", "image/png", true],
  ["HTML claiming image/png", bytes("<!DOCTYPE html><script>alert(document.cookie)</script>"), "pic.png", "image/png", "text/html", false],
  ["HTML without a doctype", bytes("\n  <html><body onload=alert(1)>"), "a.txt", "text/plain", "text/html", false],
  ["text that holds a script tag", bytes("hello <script>alert(1)</script>"), "a.txt", "text/plain", "text/html", false],
  [
    "an SVG",
    bytes('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    "x.svg",
    "image/svg+xml",
    "image/svg+xml",
    false,
  ],
  [
    "an SVG with an XML declaration, claiming PNG",
    bytes('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'),
    "x.png",
    "image/png",
    "image/svg+xml",
    false,
  ],
  ["XML", bytes('<?xml version="1.0"?><note/>'), "n.xml", "text/xml", "application/xml", false],
  ["a JPEG", bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], "JFIF"), "p.jpg", "application/octet-stream", "image/jpeg", true],
  ["a GIF", bytes("GIF89a", [1, 0, 1, 0, 0, 0, 0]), "p.gif", "", "image/gif", true],
  ["a WebP", bytes("RIFF", [4, 0, 0, 0], "WEBPVP8 "), "p.webp", "", "image/webp", true],
  ["a PDF", bytes("%PDF-1.7\n%âãÏÓ\n1 0 obj"), "d.pdf", "text/html", "application/pdf", true],
  ["a ZIP", bytes("PK", [3, 4, 20, 0]), "d.docx", "application/vnd.openxmlformats", "application/zip", false],
  ["plain UTF-8 text", bytes("Grüße, 日本語\n"), "notes.txt", "application/x-msdownload", "text/plain", true],
  [
    "JavaScript (plain text by its bytes, but named as a script)",
    bytes("alert(document.domain)"),
    "x.js",
    "text/javascript",
    "text/plain",
    false,
  ],
  ["text with a NUL", bytes("abc", [0], "def"), "a.txt", "text/plain", "application/octet-stream", false],
  ["bytes that are not UTF-8", bytes([0xc3, 0x28, 0xa0, 0xa1]), "a.txt", "text/plain", "application/octet-stream", false],
  ["an executable", bytes("MZ", [0x90, 0, 3, 0]), "a.exe", "image/png", "application/octet-stream", false],
];

describe("content types come from the bytes", () => {
  test.each(SNIFFING)("%s", async (_name, data, filename, claimed, sniffed, inline) => {
    const a = await uploaded(env, owner, pageId, data, filename, claimed);
    expect(a.contentType).toBe(sniffed);
    const view = await call(env, "GET", `/api/attachments/${a.id}/view`, { as: owner });
    expect(view.status).toBe(200);
    expect(view.headers.get("content-disposition")!.split(";")[0]).toBe(inline ? "inline" : "attachment");
    expect(view.headers.get("content-type")!.split(";")[0]).toBe(sniffed);
    expect(view.headers.get("x-content-type-options")).toBe("nosniff");
    expect(view.headers.get("content-security-policy")).toStartWith("sandbox");
    const download = await call(env, "GET", `/api/attachments/${a.id}/download`, { as: owner });
    expect(download.headers.get("content-disposition")!.split(";")[0]).toBe("attachment");
    expect(download.headers.get("content-type")!.split(";")[0]).toBe(sniffed);
  });
});

describe("response headers", () => {
  test.each([
    ["download", PNG, "attachment"],
    ["view", PNG, "inline"],
    ["download", bytes("<html>"), "attachment"],
    ["view", bytes("<html>"), "attachment"],
  ] as const)("/%s of %#", async (mode, data, disposition) => {
    const a = await uploaded(env, owner, pageId, data, "f.bin");
    const res = await call(env, "GET", `/api/attachments/${a.id}/${mode}`, { as: owner });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`${disposition}; filename="f.bin"; filename*=UTF-8''f.bin`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toStartWith("sandbox;");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(
      Buffer.from(
        await (
          await env.app.handle(
            new Request(`http://cairn.test/api/attachments/${a.id}/${mode}`, { headers: { cookie: `cairn_session=${owner.cookie}` } }),
          )
        ).arrayBuffer(),
      ),
    ).toEqual(Buffer.from(data));
  });

  test("text is sent as UTF-8; the ETag is the content hash and If-None-Match answers 304", async () => {
    const a = await uploaded(env, owner, pageId, "é", "e.txt");
    const res = await call(env, "GET", `/api/attachments/${a.id}/view`, { as: owner });
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const again = await call(env, "GET", `/api/attachments/${a.id}/view`, { as: owner, headers: { "if-none-match": etag } });
    expect([again.status, again.text]).toEqual([304, ""]);
    // Conditional requests are answered only after the caller is authorised.
    expect((await call(env, "GET", `/api/attachments/${a.id}/view`, { headers: { "if-none-match": etag } })).status).toBe(404);
  });
});

describe("filenames", () => {
  const raw = async (disposition: string) => {
    const body = `--b\r\nContent-Disposition: form-data; name="file"${disposition}\r\n\r\ncontent\r\n--b--\r\n`;
    const res = await call(env, "POST", `/api/pages/${pageId}/attachments`, {
      as: owner,
      body,
      headers: { "content-type": "multipart/form-data; boundary=b" },
    });
    expect(res.status).toBe(201);
    return res.body as { id: string; filename: string };
  };
  const long = "x".repeat(300);

  test.each([
    ["path traversal", '; filename="../../etc/passwd"', "passwd"],
    ["a Windows path", '; filename="C:\\\\Users\\\\me\\\\report.txt"', "report.txt"],
    ["no filename", "", "file"],
    ["an empty filename", '; filename=""', "file"],
    ["dots only", '; filename=".."', "file"],
    ["unicode, raw UTF-8", '; filename="Ünïcödé 日本語 🎉.txt"', "Ünïcödé 日本語 🎉.txt"],
    ["unicode, RFC 8187", "; filename*=UTF-8''%C3%9Cber%20%F0%9F%8E%89.txt", "Über 🎉.txt"],
    ["escaped quotes", '; filename="say \\"hi\\".txt"', 'say "hi".txt'],
    ["a CR and an LF inside the quotes", '; filename="a\rb\nc.txt"', "abc.txt"],
    ["CRLF through RFC 8187", "; filename*=UTF-8''a.txt%0D%0ASet-Cookie%3A%20x%3D1", "a.txtSet-Cookie: x=1"],
    ["a right-to-left override", '; filename="invoice\u202Etxt.exe"', "invoicetxt.exe"],
    ["300 characters", `; filename="${long}.txt"`, `${"x".repeat(251)}.txt`],
  ])("%s", async (_name, disposition, expected) => {
    const a = await raw(disposition);
    expect(a.filename).toBe(expected);
    const res = await call(env, "GET", `/api/attachments/${a.id}/download`, { as: owner });
    const header = res.headers.get("content-disposition")!;
    expect(header).not.toMatch(/[\r\n]/);
    expect(res.headers.get("set-cookie")).toBeNull();
    // The plain filename is printable ASCII with no quote or backslash; filename* is exact.
    const m = /^attachment; filename="([^"\\]*)"; filename\*=UTF-8''([A-Za-z0-9!#$&+\-.^_`|~%]+)$/.exec(header);
    expect(m).not.toBeNull();
    expect(m![1]).toMatch(/^[\x20-\x7e]*$/);
    expect(decodeURIComponent(m![2])).toBe(expected);
  });

  test("browsers' FormData encoding of quotes and newlines is kept as sent, never as header syntax", async () => {
    const a = await uploaded(env, owner, pageId, "x", 'q"uote\r\nd.txt');
    expect(a.filename).not.toMatch(/[\r\n]/);
    const res = await call(env, "GET", `/api/attachments/${a.id}/download`, { as: owner });
    expect(res.headers.get("content-disposition")).toStartWith('attachment; filename="q');
  });
});
