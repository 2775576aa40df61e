/**
 * What an import refuses, and that a refusal writes nothing: no space, no rows, no stored file,
 * nothing left in tmp/. Hostile zips are built byte by byte (testing.ts rawZip).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { call, makeEnv, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { newSpace } from "../pages/testing";
import { footprint, handPack, importZip, paragraphDoc, rawZip, sha256Of, zipOf } from "./testing";

let env: TestEnv;
let owner: Who & { id: string };
beforeAll(async () => {
  env = makeEnv();
  ({ owner } = await ownerAndMember(env));
  await newSpace(env, owner, "TAKEN");
});
afterAll(() => env.close());

const MB = 1024 * 1024;
const SYMLINK_MODE = (0o120777 << 16) >>> 0;

/** Lets the blob store's deletions (started after a refusal) finish. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

async function expectRefused(bytes: Uint8Array, reason: RegExp, opts: { key?: string; progress?: string } = {}) {
  const before = footprint(env);
  const res = await importZip(env, owner, bytes, { key: opts.key ?? "NEWSPACE", progress: opts.progress });
  expect(res.status).toBe(400);
  expect(res.body.code).toBe("import_refused");
  expect(res.body.field).toBe("file");
  expect(res.body.detail).toMatch(reason);
  await settle();
  expect(footprint(env)).toEqual(before);
  expect(before.tmp).toEqual([]);
  return res;
}

describe("hostile archives are refused with 400 import_refused, and nothing is written", () => {
  const md = (name: string, text = "# Hi\n") => ({ name, data: new TextEncoder().encode(text) });
  const cases: [string, () => Uint8Array, RegExp][] = [
    ["zip-slip (../)", () => rawZip([md("notes/ok.md"), md("../evil.md")]), /\.\./],
    ["an absolute path", () => rawZip([md("/etc/evil.md")]), /absolute|\/etc/],
    ["a symlink entry", () => rawZip([md("ok.md"), { ...md("link.md", "/etc/passwd"), madeBy: 0x0314, external: SYMLINK_MODE }]), /link/i],
    ["an encrypted entry", () => rawZip([{ ...md("secret.md"), flags: 0x801 }]), /encrypt/i],
    ["too many entries (20,001)", () => rawZip(Array.from({ length: 20_001 }, (_, i) => ({ name: `f${i}.md` }))), /entries/i],
    [
      "too large in total (declared 11 × 199 MB)",
      () =>
        rawZip(
          Array.from({ length: 11 }, (_, i) => ({
            name: `big${i}.bin`,
            data: randomBytes(2 * MB + 64 * 1024),
            deflate: true,
            size: 199 * MB,
          })),
        ),
      /total|large|GB/i,
    ],
    [
      "a compression-ratio bomb (20 MB of zeros)",
      () => rawZip([md("a.md"), { name: "zeros.bin", data: new Uint8Array(20 * MB), deflate: true }]),
      /ratio|compress/i,
    ],
    [
      "an entry whose size lies",
      () => rawZip([{ ...md("a.md", "# Title\n\n" + "word ".repeat(2000)), deflate: true, size: 12 }]),
      /size|declared|larger/i,
    ],
    ["not a zip", () => new Uint8Array(randomBytes(4096)), /zip/i],
    ["a zip of nothing Cairn reads", () => rawZip([md("photo.txt", "hello")]), /not a Cairn pack/],
  ];
  test.each(cases)("%s", async (_label, build, reason) => {
    await expectRefused(build(), reason);
  });
});

describe("packs Cairn cannot take", () => {
  test("a pack of a newer format names the version and what to do", async () => {
    const res = await expectRefused(
      await handPack([{ id: "p0" }], { version: 2 }),
      /manifest\.json: .*format version 2, newer than this Cairn reads \(1\): upgrade/,
    );
    expect(res.body.detail).toContain("upgrade Cairn");
  });

  test("an unknown node type on the last of 30 pages: the page's path, and none of the 29 before it", async () => {
    const pages = Array.from({ length: 30 }, (_, i) => ({ id: `p${i}`, parent: i > 0 ? "p0" : null }));
    pages[29] = {
      ...pages[29],
      content: { type: "doc", content: [{ type: "blink", content: [{ type: "text", text: "hi" }] }] },
    } as (typeof pages)[number];
    await expectRefused(await handPack(pages), /^pages\/00029\.json, version 1: .*blink/);
  });

  test("a page whose JSON is broken, or whose fields are wrong, is named", async () => {
    await expectRefused(
      await zipOf([
        ["manifest.json", '{"format":"cairn-pack","version":1}'],
        ["space.json", "{nope"],
      ]),
      /space\.json: is not valid JSON/,
    );
    await expectRefused(
      await handPack([{ id: "p0", title: 42 as unknown as string }]),
      /pages\/00000\.json: (versions\[0\]\.)?title must be a string/,
    );
  });

  test("a page whose parent does not come before it; the refusal is what its progress ends with", async () => {
    await expectRefused(await handPack([{ id: "p0", parent: "p1" }, { id: "p1" }]), /pages\/00000\.json: its parent p1/, {
      progress: "refused-import-1",
    });
    const view = await call(env, "GET", "/api/export-progress/refused-import-1", { as: owner });
    expect(view.body).toMatchObject({ done: true, error: { code: "import_refused", message: expect.stringContaining("its parent p1") } });
  });

  test("a file missing from the pack, after another was stored: the stored one is deleted again", async () => {
    const present = new TextEncoder().encode(`present ${Date.now()}`);
    const pages = [
      { id: "p0", attachments: [{ id: "a0", filename: "here.txt", sha256: sha256Of(present) }] },
      { id: "p1", attachments: [{ id: "a1", filename: "gone.txt", sha256: "f".repeat(64) }] },
    ];
    await expectRefused(await handPack(pages, { blobs: { [sha256Of(present)]: present } }), /gone\.txt.*missing/);
  });

  test("two attachments with one id (in two pages) are refused, not a failed insert", async () => {
    const bytes = new TextEncoder().encode("twice");
    const attachment = { id: "same", filename: "a.txt", sha256: sha256Of(bytes) };
    await expectRefused(
      await handPack(
        [
          { id: "p0", attachments: [attachment] },
          { id: "p1", attachments: [attachment] },
        ],
        { blobs: { [sha256Of(bytes)]: bytes } },
      ),
      /pages\/00001\.json: a second attachment with the id same/,
    );
  });

  test("labels: two spellings of one are one label, a name that cannot be a label is listed in skipped", async () => {
    const res = await importZip(env, owner, await handPack([{ id: "p0", labels: ["Ops", "ops", "two words"] }]), { key: "LABELS" });
    expect(res.status).toBe(201);
    expect(res.body.counts.labels).toBe(1);
    expect(res.body.skipped).toEqual([{ path: "pages/00000.json", reason: 'the label "two words" is not a valid label name' }]);
  });

  test("a link to a page that is not in the pack stays readable text; a good pack goes in", async () => {
    const content = {
      type: "doc",
      content: [
        { type: "paragraph", content: [{ type: "text", text: "see", marks: [{ type: "link", attrs: { href: "cairn-page:nowhere" } }] }] },
      ],
    };
    const res = await importZip(
      env,
      owner,
      await handPack([
        { id: "p0", content },
        { id: "p1", parent: "p0", content: paragraphDoc("child") },
      ]),
      { key: "GOOD" },
    );
    expect(res.status).toBe(201);
    expect(res.body.counts.pages).toBe(2);
    expect(res.body.mapped).toContainEqual(expect.objectContaining({ what: "links to pages or files not in the import", count: 1 }));
    const home = env.core.sqlite
      .query("SELECT p.content_json AS c FROM pages p JOIN spaces s ON s.id = p.space_id WHERE s.key = 'GOOD' AND p.parent_id IS NULL")
      .get() as { c: string };
    expect(home.c).not.toContain("link");
    expect(home.c).toContain('"text":"see"');
    const space = env.core.sqlite.query("SELECT homepage_id AS h FROM spaces WHERE key = 'GOOD'").get() as { h: string };
    expect(space.h).toBeString();
  });
});

describe("bad requests", () => {
  const pack = () => handPack([{ id: "p0" }]);
  test.each([
    ["a key already used", { key: "taken" }, 409, "key_taken", "key"],
    ["a key that is not one", { key: "1-bad" }, 400, "validation_failed", "key"],
    ["a progress id that is not one", { key: "OKAY", progress: "x" }, 400, "validation_failed", "progress"],
  ] as const)("%s", async (_label, opts, status, code, field) => {
    const before = footprint(env);
    const res = await importZip(env, owner, await pack(), opts);
    expect([res.status, res.body.code, res.body.field]).toEqual([status, code, field]);
    expect(footprint(env)).toEqual(before);
  });

  test("a key in the query is checked before the upload is read", async () => {
    const res = await importZip(env, owner, await pack(), { key: "TAKEN", inQuery: true });
    expect([res.status, res.body.code]).toEqual([409, "key_taken"]);
  });

  test("no file, no multipart, nobody signed in", async () => {
    const form = new FormData();
    form.append("key", "NOFILE");
    const none = await call(env, "POST", "/api/spaces/import", { as: owner, body: form });
    expect([none.status, none.body.field]).toEqual([400, "file"]);
    const json = await call(env, "POST", "/api/spaces/import", { as: owner, body: { key: "X" } });
    expect(json.status).toBe(415);
    const anonymous = await importZip(env, {}, await pack(), { key: "ANON" });
    expect(anonymous.status).toBe(401);
  });

  test("a markdown zip needs a key (it names none)", async () => {
    const res = await call(env, "POST", "/api/spaces/import", { as: owner, body: formWith(await zipOf([["a.md", "# A\n"]])) });
    expect([res.status, res.body.field]).toEqual([400, "key"]);
  });

  test("over 500 MB: 413 while it streams, nothing kept", async () => {
    const boundary = "XyZbound";
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\nHUGE\r\n--${boundary}\r\nContent-Disposition: form-data; ` +
        `name="file"; filename="a.zip"\r\n\r\n`,
    );
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(head);
        if (sent > 520 * MB) return controller.close();
        // A fresh buffer each time, as a request body's are (the reader frees them as it goes).
        controller.enqueue(new Uint8Array(4 * MB));
        sent += 4 * MB;
      },
    });
    const before = footprint(env);
    const res = await env.handle(
      new Request("http://cairn.test/api/spaces/import", {
        method: "POST",
        headers: {
          cookie: `cairn_session=${owner.cookie}`,
          "x-requested-with": "Cairn",
          "content-type": `multipart/form-data; boundary=${boundary}`,
        },
        body,
      }),
    );
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe("payload_too_large");
    // It stopped reading soon after the limit.
    expect(sent).toBeLessThan(520 * MB);
    expect(footprint(env)).toEqual(before);
  });
});

function formWith(bytes: Uint8Array): FormData {
  const form = new FormData();
  form.append("file", new File([bytes as BlobPart], "a.zip"));
  return form;
}
