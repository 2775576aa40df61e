import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { BASE, call, makeEnv, signUp, type TestEnv } from "../../tests/harness";
import { newPage, newSpace } from "../pages/testing";
import { ATTACHMENT_MAX_BYTES } from "./service";
import { filesUnder } from "./testing";

let env: TestEnv;
beforeEach(() => (env = makeEnv()));
afterEach(() => env.close());

const MB = 1024 * 1024;
const BOUNDARY = "----cairn-test-boundary";
const rows = () => (env.core.sqlite.query("select count(*) as n from attachments").get() as { n: number }).n;

async function setup() {
  const owner = await signUp(env, "owner@example.com");
  const space = await newSpace(env, owner, "DOCS");
  const page = await newPage(env, owner, space.id, "Page");
  return { owner, page };
}

/**
 * A multipart body of `size` file bytes produced chunk by chunk as the server pulls it, with no
 * Content-Length. `pulled` tells how much the server asked for.
 */
function streamedForm(size: number) {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  // A fresh buffer per chunk, as a network body arrives (the upload frees each once past it).
  const chunk = () => Buffer.alloc(256 * 1024, 0x61);
  const state = { pulled: 0 };
  let sent = 0;
  let stage = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      let out: Uint8Array;
      if (stage === 0) {
        out = head;
        stage = 1;
      } else if (stage === 1) {
        out = chunk().subarray(0, Math.min(256 * 1024, size - sent));
        sent += out.length;
        if (sent >= size) stage = 2;
      } else if (stage === 2) {
        out = tail;
        stage = 3;
      } else {
        controller.close();
        return;
      }
      state.pulled += out.length;
      controller.enqueue(out);
    },
  });
  return { body, state };
}

function post(pageId: string, cookie: string, body: BodyInit, headers: Record<string, string> = {}) {
  const request = new Request(`${BASE}/api/pages/${pageId}/attachments`, {
    method: "POST",
    headers: {
      cookie: `cairn_session=${cookie}`,
      "x-requested-with": "Cairn",
      "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
      ...headers,
    },
    body,
    // @ts-expect-error: Bun needs no duplex, other runtimes do
    duplex: "half",
  });
  return env.handle(request);
}

describe("the 25 MB limit", () => {
  test("a streamed body over 25 MB without Content-Length is a 413 naming the limit, found while streaming; nothing is left", async () => {
    const { owner, page } = await setup();
    const { body, state } = streamedForm(40 * MB);
    const res = await post(page.id, owner.cookie, body);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ status: 413, code: "payload_too_large", limit: ATTACHMENT_MAX_BYTES });
    // Reading stopped near the limit: the rest of the 40 MB was never pulled.
    expect(state.pulled).toBeLessThan(ATTACHMENT_MAX_BYTES + MB);
    expect(filesUnder(env, "tmp")).toEqual([]);
    expect(filesUnder(env, "files")).toEqual([]);
    expect(rows()).toBe(0);
  });

  test("exactly 25 MB is accepted; one byte more is not", async () => {
    const { owner, page } = await setup();
    const ok = await post(page.id, owner.cookie, streamedForm(ATTACHMENT_MAX_BYTES).body);
    expect(ok.status).toBe(201);
    expect((await ok.json()).size).toBe(ATTACHMENT_MAX_BYTES);
    const over = await post(page.id, owner.cookie, streamedForm(ATTACHMENT_MAX_BYTES + 1).body);
    expect(over.status).toBe(413);
    expect(filesUnder(env, "files")).toHaveLength(1);
    expect(filesUnder(env, "tmp")).toEqual([]);
    expect(rows()).toBe(1);
  });

  test("a declared Content-Length over the limit is refused before the body is read", async () => {
    const { owner, page } = await setup();
    const { body, state } = streamedForm(30 * MB);
    const res = await post(page.id, owner.cookie, body, { "content-length": String(30 * MB + 300) });
    expect(res.status).toBe(413);
    expect((await res.json()).limit).toBe(ATTACHMENT_MAX_BYTES);
    expect(state.pulled).toBeLessThan(MB);
  });

  test("a body that breaks off in the middle of the file is a 400 and leaves nothing", async () => {
    const { owner, page } = await setup();
    const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n`;
    const res = await post(page.id, owner.cookie, head + "x".repeat(100_000));
    expect(res.status).toBe(400);
    expect((await res.json()).field).toBe("body");
    expect(filesUnder(env, "tmp")).toEqual([]);
    expect(filesUnder(env, "files")).toEqual([]);
  });

  test("the page is checked before the body is read: a missing page is 404 without reading 40 MB", async () => {
    const { owner } = await setup();
    const { body, state } = streamedForm(40 * MB);
    const res = await post("0190aaaa-0000-7000-8000-000000000000", owner.cookie, body);
    expect(res.status).toBe(404);
    expect(state.pulled).toBeLessThan(MB);
  });

  test("a connection that breaks mid-file is a 400 and leaves nothing", async () => {
    const { owner, page } = await setup();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ === 0)
          controller.enqueue(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n`));
        else if (sent < 20) controller.enqueue(Buffer.alloc(64 * 1024, 1));
        else controller.error(new Error("connection reset"));
      },
    });
    const res = await post(page.id, owner.cookie, body);
    expect([res.status, (await res.json()).field]).toEqual([400, "body"]);
    expect(filesUnder(env, "tmp")).toEqual([]);
    expect(filesUnder(env, "files")).toEqual([]);
  });

  test("a page trashed while its upload streams: 409, and the new blob is removed again", async () => {
    const { owner, page } = await setup();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent++;
        if (sent === 1)
          controller.enqueue(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n`));
        else if (sent < 10) controller.enqueue(Buffer.alloc(64 * 1024, sent));
        else {
          // Someone else trashes the page before the upload's transaction.
          env.core.sqlite.run("update pages set deleted_at = ?, trash_root_id = id where id = ?", [new Date().toISOString(), page.id]);
          controller.enqueue(Buffer.from(`\r\n--${BOUNDARY}--\r\n`));
          controller.close();
        }
      },
    });
    const res = await post(page.id, owner.cookie, body);
    expect(res.status).toBe(409);
    expect(rows()).toBe(0);
    expect(filesUnder(env, "files")).toEqual([]);
    expect(filesUnder(env, "tmp")).toEqual([]);
  });

  test("JSON routes still refuse other content types (415) and multipart bodies", async () => {
    const { owner } = await setup();
    const form = new FormData();
    form.append("file", new File(["x"], "a.txt"));
    const res = await call(env, "POST", "/api/pages", { as: owner, body: form });
    expect([res.status, res.body.code]).toEqual([415, "unsupported_media_type"]);
  });
});
