import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, makeEnv, signUp, type TestEnv, type Who } from "../../tests/harness";
import { newPage, newSpace } from "./testing";

let env: TestEnv;
let owner: Who;
let big: { id: string };
let small: { id: string };
let firstPage: { id: string };

// A tree of 100 pages with long titles is over the 16 KB from which kept answers are gzipped.
beforeAll(async () => {
  env = makeEnv();
  owner = await signUp(env, "owner@example.com");
  big = await newSpace(env, owner, "BIG");
  small = await newSpace(env, owner, "SMALL");
  for (let i = 0; i < 100; i++) {
    const page = await newPage(env, owner, big.id, `Page ${i} ${"with a title long enough to weigh ".repeat(3)}`);
    firstPage ??= page;
  }
  await newPage(env, owner, small.id, "Only page");
});
afterAll(() => env.close());

const treeAnswer = (spaceId: string, acceptEncoding?: string) =>
  env.handle(
    new Request(`http://localhost/api/pages/tree?spaceId=${spaceId}`, {
      headers: { cookie: `cairn_session=${owner.cookie}`, ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}) },
    }),
  );

const gunzipped = async (res: Response) => new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await res.arrayBuffer())));

describe("GET /api/pages/tree, gzipped for a client that takes gzip", () => {
  test("a large tree is sent gzipped to a browser, the same JSON once unzipped; as it is otherwise", async () => {
    const plain = await treeAnswer(big.id);
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("accept-encoding");
    expect(plain.headers.get("x-content-type-options")).toBe("nosniff");
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(16 * 1024);

    const zipped = await treeAnswer(big.id, "gzip, deflate, br, zstd");
    expect(zipped.status).toBe(200);
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toBe("accept-encoding");
    expect(zipped.headers.get("content-type")).toBe("application/json");
    expect(zipped.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await gunzipped(zipped)).toBe(text);
    expect(JSON.parse(text)).toHaveLength(100);
  });

  test("a change is seen in the gzipped answer too (it goes with the kept tree)", async () => {
    expect((await treeAnswer(big.id, "gzip")).status).toBe(200);
    const renamed = await call(env, "PUT", `/api/pages/${firstPage.id}`, { as: owner, body: { title: "Renamed first page" } });
    expect(renamed.status).toBe(200);
    const tree = JSON.parse(await gunzipped(await treeAnswer(big.id, "gzip"))) as Array<{ id: string; title: string }>;
    expect(tree.find((n) => n.id === firstPage.id)?.title).toBe("Renamed first page");
  });

  test("gzip refused with q=0, and a small tree, are sent as they are", async () => {
    for (const refused of ["gzip;q=0", "br, gzip; q=0.0", "identity"]) {
      const res = await treeAnswer(big.id, refused);
      expect(res.headers.get("content-encoding")).toBeNull();
      expect(JSON.parse(await res.text())).toHaveLength(100);
    }
    const res = await treeAnswer(small.id, "gzip");
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(JSON.parse(await res.text())).toHaveLength(1);
  });

  test("a missing space is the same 404 whether gzip is taken or not", async () => {
    const missing = "00000000-0000-7000-8000-000000000000";
    const plain = await treeAnswer(missing);
    const zipped = await treeAnswer(missing, "gzip");
    expect(plain.status).toBe(404);
    expect(zipped.status).toBe(404);
    expect(zipped.headers.get("content-encoding")).toBeNull();
    expect(await zipped.text()).toBe(await plain.text());
  });
});
