/**
 * Every multipart route reads its form in any order: a field sent after the file (curl's natural
 * order, `curl -F file=@x -F key=K`) means what it means before it, and a field the route does
 * not take is a 400 naming it, before or after the file: never silently ignored. The table is
 * checked against the API description, so a new multipart route must join it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { zipBytes } from "../src/platform/zip/write";
import { call, makeEnv, ownerAndMember, type TestEnv, type Who } from "./harness";
import { pngPicture } from "./image-fixtures";

let env: TestEnv;
let owner: Who & { id: string };
let pageId: string;
let png: Uint8Array;
let zip: Uint8Array;

beforeAll(async () => {
  env = makeEnv();
  ({ owner } = await ownerAndMember(env));
  const space = (await call(env, "POST", "/api/spaces", { as: owner, body: { key: "DOCS", name: "Docs" } })).body;
  pageId = (await call(env, "POST", "/api/pages", { as: owner, body: { spaceId: space.id, title: "Upload here" } })).body.id;
  png = await pngPicture(64, 64);
  zip = await zipBytes(async (z) => z.add("Guide.md", "# Guide\n\nHello.\n"));
});
afterAll(() => env.close());

type Part = [name: string, value: string] | ["file", Uint8Array, string];

/** A form whose parts are in exactly this order (FormData keeps the order of append). */
function form(parts: Part[]): FormData {
  const f = new FormData();
  for (const [name, value, filename] of parts) {
    if (typeof value === "string") f.append(name, value);
    else f.append(name, new File([value as BlobPart], filename!, { type: "application/octet-stream" }));
  }
  return f;
}

interface Route {
  method: "POST" | "PUT";
  path: () => string;
  file: () => Part;
  /** The text fields the route takes, with a value that works once. */
  fields: () => Record<string, string>;
  /** What a 2xx after fields sent after the file shows of them. */
  check?: (body: any) => void;
}

let importCount = 0;
const ROUTES: Record<string, Route> = {
  "POST /api/spaces/import": {
    method: "POST",
    path: () => "/api/spaces/import",
    file: () => ["file", zip, "docs.zip"],
    fields: () => ({ key: `IMP${++importCount}`, name: `Imported ${importCount}` }),
    check: (body) => {
      expect(body.space.key).toBe(`IMP${importCount}`);
      expect(body.space.name).toBe(`Imported ${importCount}`);
    },
  },
  "POST /api/pages/:id/attachments": {
    method: "POST",
    path: () => `/api/pages/${pageId}/attachments`,
    file: () => ["file", png, "a.png"],
    fields: () => ({}),
  },
  "PUT /api/media/avatars/me": {
    method: "PUT",
    path: () => "/api/media/avatars/me",
    file: () => ["file", png, "me.png"],
    fields: () => ({}),
  },
  "PUT /api/media/space-icons/:key": {
    method: "PUT",
    path: () => "/api/media/space-icons/DOCS",
    file: () => ["file", png, "icon.png"],
    fields: () => ({}),
  },
  "PUT /api/admin/branding/logo": {
    method: "PUT",
    path: () => "/api/admin/branding/logo",
    file: () => ["file", png, "logo.png"],
    fields: () => ({}),
  },
  "PUT /api/admin/branding/logo-dark": {
    method: "PUT",
    path: () => "/api/admin/branding/logo-dark",
    file: () => ["file", png, "logo.png"],
    fields: () => ({}),
  },
  "PUT /api/admin/branding/favicon": {
    method: "PUT",
    path: () => "/api/admin/branding/favicon",
    file: () => ["file", png, "icon.png"],
    fields: () => ({}),
  },
};

const send = (route: Route, parts: Part[]) => call(env, route.method, route.path(), { as: owner, body: form(parts) });

describe("multipart routes", () => {
  test("the table holds every route the API describes as multipart/form-data", async () => {
    const doc = (await call(env, "GET", "/api/openapi.json")).body;
    const multipart: string[] = [];
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        if (op?.requestBody?.content?.["multipart/form-data"])
          multipart.push(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`);
      }
    }
    expect(multipart.sort()).toEqual(Object.keys(ROUTES).sort());
  });

  describe.each(Object.entries(ROUTES))("%s", (_, route) => {
    test("its fields sent after the file (curl's order) are read", async () => {
      const res = await send(route, [route.file(), ...Object.entries(route.fields())]);
      expect(res.status, res.text).toBeLessThan(300);
      route.check?.(res.body);
    });

    test.each([
      ["after the file", (file: Part, extra: Part): Part[] => [file, extra]],
      ["before the file", (file: Part, extra: Part): Part[] => [extra, file]],
    ])("a field it does not take, %s, is a 400 naming it", async (_, order) => {
      const res = await send(route, order(route.file(), ["colour", "red"]));
      expect(res.status).toBe(400);
      expect(res.body.errors?.colour?.[0]).toContain("is not a field of this upload");
    });

    test("a second file is a 400 naming the file field", async () => {
      const res = await send(route, [route.file(), route.file()]);
      expect(res.status).toBe(400);
      expect(res.body.errors?.file?.[0]).toContain("is sent twice");
    });
  });

  test("the import's key sent after the file is used, not refused as missing; a taken one is a 409 after the upload", async () => {
    const res = await send(ROUTES["POST /api/spaces/import"], [
      ["file", zip, "docs.zip"],
      ["key", "AFTER"],
    ]);
    expect(res.status, res.text).toBe(201);
    expect(res.body.space.key).toBe("AFTER");
    const again = await send(ROUTES["POST /api/spaces/import"], [
      ["file", zip, "docs.zip"],
      ["key", "AFTER"],
    ]);
    expect(again.status).toBe(409);
  });

  test("an import's key in the query and a different one in the form is a 400 on key", async () => {
    const res = await call(env, "POST", "/api/spaces/import?key=ONE", {
      as: owner,
      body: form([
        ["file", zip, "docs.zip"],
        ["key", "TWO"],
      ]),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors?.key?.[0]).toContain("sent twice");
  });

  test("an attachment refused for a field after its file leaves no row behind", async () => {
    const before = (await call(env, "GET", `/api/pages/${pageId}/attachments`, { as: owner })).body.length;
    const res = await send(ROUTES["POST /api/pages/:id/attachments"], [
      ["file", new TextEncoder().encode("unique bytes"), "u.txt"],
      ["note", "x"],
    ]);
    expect(res.status).toBe(400);
    expect((await call(env, "GET", `/api/pages/${pageId}/attachments`, { as: owner })).body.length).toBe(before);
  });
});
