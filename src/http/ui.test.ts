/**
 * The web UI as the server serves it (in process; the bundle is built from source on first
 * use, as `bun run start` does): the page at / and at the app's own paths, hashed assets
 * cached for good, and 404s that stay 404s for the API and for missing files.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, makeEnv, type TestEnv } from "../../tests/harness";
import { SECURITY_HEADERS } from "../platform/security-headers";
import { setSetting, deleteSetting } from "../settings/service";
import { embedUi, uiPagePolicy } from "./ui";

let env: TestEnv;
beforeAll(() => {
  env = makeEnv();
});
afterAll(() => env.close());

const assetOf = (html: string, ext: "js" | "css") => new RegExp(`/assets/[\\w.-]+\\.${ext}`).exec(html)?.[0];

describe("the web UI", () => {
  test("GET / answers the app's page with the security headers and no caching", async () => {
    const res = await call(env, "GET", "/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    for (const [name, value] of Object.entries(SECURITY_HEADERS))
      if (name !== "content-security-policy") expect(res.headers.get(name)).toBe(value);
    // The usual policy, with images of other sites over https (no host restriction by default).
    expect(res.headers.get("content-security-policy")).toBe(uiPagePolicy("'self' data: blob: https:"));
    expect(res.text).toContain('<div id="root">');
    // Bun.build rewrote the entry into hashed assets under /assets/; nothing inline, nothing foreign.
    expect(assetOf(res.text, "js")).toBeDefined();
    expect(assetOf(res.text, "css")).toBeDefined();
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(res.text).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  test("the page's policy lets through the images the instance's image policy allows, and /api/instance says which", async () => {
    setSetting(env.core, "restrictImageHosts", true);
    setSetting(env.core, "imageAllowlist", ["img.shields.io", "*.example.com"]);
    try {
      const res = await call(env, "GET", "/s/ENG");
      expect(res.headers.get("content-security-policy")).toContain(
        "img-src 'self' data: blob: https://img.shields.io https://*.example.com;",
      );
      expect((await call(env, "GET", "/api/instance")).body.imageHosts).toEqual({
        restricted: true,
        hosts: ["img.shields.io", "*.example.com"],
      });
      // An asset is no document: its policy stays the usual one.
      const asset = assetOf(res.text, "js")!;
      expect((await call(env, "GET", asset)).headers.get("content-security-policy")).toBe(SECURITY_HEADERS["content-security-policy"]!);
      setSetting(env.core, "imageAllowlist", []);
      expect((await call(env, "GET", "/")).headers.get("content-security-policy")).toContain("img-src 'self' data: blob:;");
    } finally {
      deleteSetting(env.core, "restrictImageHosts");
      deleteSetting(env.core, "imageAllowlist");
    }
    expect((await call(env, "GET", "/api/instance")).body.imageHosts).toEqual({ restricted: false, hosts: [] });
  });

  test.each([
    "/login",
    "/setup",
    "/register?invite=abc",
    "/s/ENG",
    "/s/ENG/p/0190b7c2-0000-7000-8000-000000000000-a-title",
    "/s/ENG/p/x/edit",
    "/search?q=x",
    "/no/such/screen",
  ])("GET %s answers the same page (the app routes it)", async (path) => {
    const root = await call(env, "GET", "/");
    const res = await call(env, "GET", path);
    expect(res.status).toBe(200);
    expect(res.text).toBe(root.text);
  });

  test("assets are served with a year's immutable caching, gzipped when accepted, the same bytes either way", async () => {
    const html = (await call(env, "GET", "/")).text;
    for (const ext of ["js", "css"] as const) {
      const path = assetOf(html, ext)!;
      const plain = await call(env, "GET", path);
      expect(plain.status).toBe(200);
      expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(plain.headers.get("content-type")).toStartWith(ext === "js" ? "text/javascript" : "text/css");
      const zipped = await env.handle(new Request(`http://cairn.test${path}`, { headers: { "accept-encoding": "gzip, br" } }));
      expect(zipped.headers.get("content-encoding")).toBe("gzip");
      const bytes = new Uint8Array(await zipped.arrayBuffer());
      expect(new TextDecoder().decode(Bun.gunzipSync(bytes))).toBe(plain.text);
    }
  });

  test.each([
    ["GET", "/api/nope", "No endpoint /api/nope"],
    ["GET", "/api", "No endpoint /api"],
    ["GET", "/assets/missing-abc123.js", "No file /assets/missing-abc123.js"],
    ["GET", "/favicon.ico", "No endpoint /favicon.ico"],
    ["GET", "/s/ENG/p/x/image.png", "No endpoint /s/ENG/p/x/image.png"],
    ["POST", "/login", "No endpoint /login"],
  ])("%s %s stays a JSON 404", async (method, path, detail) => {
    const res = await call(env, method, path);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.body).toMatchObject({ code: "not_found", detail });
  });

  test("HEAD / answers the page's headers without a body", async () => {
    const res = await env.handle(new Request("http://cairn.test/", { method: "HEAD" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toBe("");
  });
});

describe("the web UI embedded in the binary", () => {
  test("files are served as the build embedded them: the gzipped copy when accepted, never compressed again", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-ui-"));
    const js = "console.log('embedded');".repeat(20);
    const gz = Bun.gzipSync(new TextEncoder().encode(js), { level: 9 });
    writeFileSync(join(dir, "index.html"), '<div id="root"></div><script type="module" src="/assets/app-1.js"></script>');
    writeFileSync(join(dir, "app-1.js"), js);
    writeFileSync(join(dir, "app-1.js.gz"), gz);
    embedUi({ "index.html": join(dir, "index.html"), "app-1.js": join(dir, "app-1.js"), "app-1.js.gz": join(dir, "app-1.js.gz") });
    try {
      expect((await call(env, "GET", "/s/X/p/y")).text).toContain("/assets/app-1.js");
      expect((await call(env, "GET", "/assets/app-1.js")).text).toBe(js);
      const zipped = await env.handle(new Request("http://cairn.test/assets/app-1.js", { headers: { "accept-encoding": "gzip" } }));
      expect(zipped.headers.get("content-encoding")).toBe("gzip");
      expect(new Uint8Array(await zipped.arrayBuffer())).toEqual(new Uint8Array(gz));
      // The .gz copy is not a file of its own.
      expect((await call(env, "GET", "/assets/app-1.js.gz")).status).toBe(404);
      // The build embeds text only gzipped: a client without gzip gets it unzipped.
      embedUi({ "index.html.gz": join(dir, "index.html.gz"), "app-1.js.gz": join(dir, "app-1.js.gz") });
      writeFileSync(join(dir, "index.html.gz"), Bun.gzipSync(new TextEncoder().encode('<div id="root"></div>')));
      expect((await call(env, "GET", "/assets/app-1.js")).text).toBe(js);
      expect((await call(env, "GET", "/s/X/p/y")).text).toContain('<div id="root">');
      const again = await env.handle(new Request("http://cairn.test/assets/app-1.js", { headers: { "accept-encoding": "gzip" } }));
      expect(new Uint8Array(await again.arrayBuffer())).toEqual(new Uint8Array(gz));
    } finally {
      embedUi(null);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
