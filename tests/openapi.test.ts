import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { SECURITY_HEADERS } from "../src/platform/security-headers";
import { ERROR_CODES } from "../src/platform/errors";
import { BASE, call, makeEnv, type TestEnv } from "./harness";

let env: TestEnv;
let doc: any;

beforeAll(async () => {
  env = makeEnv();
  const res = await call(env, "GET", "/api/openapi.json");
  if (res.status !== 200) throw new Error(`GET /api/openapi.json: ${res.status} ${res.text}`);
  doc = res.body;
});
afterAll(() => env.close());

/**
 * The routes that serve the description and the reference page, and the root's redirect to it,
 * are hidden from the document on purpose (docs.ts): they are how the API is read, not part of
 * it. HEAD and OPTIONS answers are derived from the other routes, not described on their own.
 */
const NOT_DESCRIBED = new Set(["GET /", "GET /api/openapi.json", "GET /api/docs", "GET /api/docs/init.js", "GET /api/docs/scalar.js"]);

function describedRoutes() {
  return env.app.routes
    .filter((r) => r.method !== "HEAD" && r.method !== "OPTIONS" && !NOT_DESCRIBED.has(`${r.method} ${r.path}`))
    .map((r) => ({
      method: r.method,
      key: `${r.method} ${r.path}`,
      // The document spells :id as {id} and index routes without their trailing slash.
      path: r.path.replace(/:(\w+)/g, "{$1}").replace(/(.)\/+$/, "$1"),
      params: [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1]),
      hasBody: Boolean((r.hooks as { body?: unknown }).body),
    }));
}

const operations = (): any[] => Object.values<any>(doc.paths).flatMap((item) => Object.values<any>(item));

describe("GET /api/openapi.json", () => {
  test("is a valid OpenAPI document, readable without an account", async () => {
    expect(doc.openapi).toStartWith("3.1");
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(doc.info).toMatchObject({ title: "Cairn API", version: env.core.version });
  });

  test("every $ref resolves inside the document (the recursive TreeNode included)", () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(10);
    const broken = [...new Set(refs)].filter(
      (ref) => !ref.startsWith("#/components/schemas/") || !doc.components.schemas[ref.slice("#/components/schemas/".length)],
    );
    expect(broken).toEqual([]);
    const tree = doc.paths["/api/pages/tree"].get.responses["200"].content["application/json"].schema;
    expect(tree.items).toEqual({ $ref: "#/components/schemas/TreeNode" });
    expect(doc.components.schemas.TreeNode.properties.children.items).toEqual({ $ref: "#/components/schemas/TreeNode" });
  });

  test("every request body states the limit the server enforces, with its 413", () => {
    const sizes = { "/api/auth/login": 16 * 1024, "/api/pages/{id}": 8 * 1024 * 1024, "/api/groups": 1024 * 1024 } as Record<
      string,
      number
    >;
    for (const [path, limit] of Object.entries(sizes)) {
      const op = doc.paths[path].post ?? doc.paths[path].put;
      expect(op.requestBody["x-body-limit"]).toBe(limit);
      expect(op.responses["413"].content["application/problem+json"].schema.$ref).toBe("#/components/schemas/Problem");
    }
    const withBody = operations().filter((op) => op.requestBody);
    expect(
      withBody.filter((op) => op.requestBody["x-body-limit"] === undefined && !/multipart/.test(JSON.stringify(op.requestBody.content))),
    ).toEqual([]);
  });

  test("describes every route the app registers, with its schemas", () => {
    const routes = describedRoutes();
    expect(routes.length).toBeGreaterThan(10);
    const missing: string[] = [];
    for (const route of routes) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      if (!op) {
        missing.push(`${route.key}: not in the document`);
        continue;
      }
      const schemas = Object.values<any>(op.responses ?? {}).flatMap((r) => Object.values<any>(r.content ?? {}).filter((m) => m.schema));
      if (!schemas.length) missing.push(`${route.key}: no response schema`);
      if (route.hasBody && !op.requestBody?.content?.["application/json"]?.schema) missing.push(`${route.key}: no JSON request body`);
      for (const name of route.params) {
        if (!op.parameters?.some((p: any) => p.in === "path" && p.name === name && p.required))
          missing.push(`${route.key}: path parameter ${name}`);
      }
    }
    expect(missing).toEqual([]);
    expect(Object.keys(doc.paths).filter((p) => p.includes(":"))).toEqual([]);
  });

  test("every error answer is a problem document", () => {
    const wrong: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        for (const [status, response] of Object.entries<any>(op.responses)) {
          if (Number(status) < 400 || (path === "/api/health" && status === "503")) continue;
          if (response.content?.["application/problem+json"]?.schema?.$ref !== "#/components/schemas/Problem")
            wrong.push(`${method} ${path} ${status}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(doc.components.schemas.Problem.properties.status).toEqual({ type: "integer" });
    expect(doc.components.schemas.Problem.required).toEqual(["status", "title"]);
  });

  test("declares the two ways to authenticate, and requires one of them unless an operation says otherwise", () => {
    const { bearer, session } = doc.components.securitySchemes;
    expect(bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(bearer.description).toContain("cct_");
    expect(session).toMatchObject({ type: "apiKey", in: "cookie", name: "cairn_session" });
    expect(session.description).toContain("X-Requested-With: Cairn");
    expect(doc.security).toEqual([{ bearer: [] }, { session: [] }]);
    const schemes = new Set(Object.keys(doc.components.securitySchemes));
    const unknown = operations()
      .flatMap((op) => (op.security ?? []).flatMap((req: object) => Object.keys(req)))
      .filter((name) => !schemes.has(name));
    expect(unknown).toEqual([]);
    expect(doc.paths["/api/auth/login"].post.security).toEqual([]);
  });

  test("carries the error catalogue and lists every tag it uses", () => {
    for (const [code, e] of Object.entries(ERROR_CODES))
      expect(doc.info.description).toContain(`| \`${code}\` | ${e.status} | ${e.title} |`);
    const declared = new Set(doc.tags.map((t: { name: string }) => t.name));
    const used = new Set(operations().flatMap((op) => op.tags ?? []));
    expect([...used].filter((t) => !declared.has(t))).toEqual([]);
    expect(declared.has("Auth")).toBe(true);
  });
});

describe("GET /api/docs", () => {
  test("answers HTML anonymously, with the security headers and only same-origin scripts", async () => {
    const res = await call(env, "GET", "/api/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/html");
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(res.headers.get(name)).toBe(value);
    const links = [...res.text.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    expect(links.filter((u) => /^(https?:)?\/\//i.test(u))).toEqual([]);
    // The CSP forbids inline script: every script element must load a file.
    const scripts = [...res.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBe(2);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\ssrc="\/api\/docs\//);
      expect(body.trim()).toBe("");
    }
    for (const [, attrs] of scripts) {
      const src = /\ssrc="([^"]*)"/.exec(attrs)![1];
      const js = await call(env, "GET", src);
      expect(js.status).toBe(200);
      expect(js.headers.get("content-type")).toStartWith("text/javascript");
      expect(js.headers.get("content-security-policy")).toBe(SECURITY_HEADERS["content-security-policy"]);
      expect(js.text.length).toBeGreaterThan(100);
    }
  });

  test("configures Scalar to load our description and reach no other host", async () => {
    const init = await call(env, "GET", "/api/docs/init.js");
    const config = JSON.parse(/createApiReference\("#reference", (.*)\);/.exec(init.text)![1]);
    expect(config).toMatchObject({
      url: "/api/openapi.json",
      telemetry: false,
      withDefaultFonts: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: "never",
      hideClientButton: true,
    });
    expect(config.proxyUrl).toBeUndefined();
  });

  test("serves the Scalar bundle gzipped when the browser accepts it, the same bytes either way", async () => {
    const plain = await env.app.handle(new Request(`${BASE}/api/docs/scalar.js`));
    const zipped = await env.app.handle(new Request(`${BASE}/api/docs/scalar.js`, { headers: { "accept-encoding": "gzip, deflate, br" } }));
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("cache-control")).toContain("immutable");
    const bytes = new Uint8Array(await plain.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(1_000_000);
    expect(Bun.gunzipSync(new Uint8Array(await zipped.arrayBuffer()))).toEqual(bytes);
  });
});
