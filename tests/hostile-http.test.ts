/**
 * What a hostile client sends over a real socket (once, one request stopped the server):
 * Host headers the app must not route or log by, malformed cookies, bodies that never end,
 * HEAD. The server is a real process; each test ends by checking it is still alive.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chunkedFlood, rawRequest, rssMb } from "./raw-http";
import { startInScratch, stopAndRemove, type ServerProcess } from "./server-process";

let dir: string;
let server: ServerProcess;
beforeAll(async () => {
  ({ dir, server } = await startInScratch("cairn-hostile-"));
});
afterAll(async () => {
  await stopAndRemove(server, dir);
});

async function alive() {
  expect(server.proc.exitCode).toBeNull();
  const res = await fetch(`${server.url}/api/health`);
  expect(res.status).toBe(200);
}

describe("the Host header never decides routing, logging or the process's life", () => {
  test.each([
    ["HTTP/1.0 with an empty Host", "GET /api/health HTTP/1.0\r\nHost:\r\n\r\n"],
    ["HTTP/1.0 with no Host", "GET /api/health HTTP/1.0\r\n\r\n"],
    ["a Host with a space", "GET /api/health HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n"],
    ["a Host with a slash", "GET /api/health HTTP/1.1\r\nHost: a/b\r\nConnection: close\r\n\r\n"],
    ["a one-character Host", "GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"],
    ["a two-character Host", "GET /api/health?probe=1 HTTP/1.1\r\nHost: ab\r\nConnection: close\r\n\r\n"],
    ["a Host of colons", "GET /api/health HTTP/1.1\r\nHost: a:b:c\r\nConnection: close\r\n\r\n"],
  ])("%s: /api/health answers 200 and the server lives on", async (_name, request) => {
    const res = await rawRequest(server.port, request);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: "ok", database: "ok" });
    await Bun.sleep(20); // the request log runs after the answer has left
    await alive();
  });

  test('/zz/api/health with Host "x" is the web UI\'s page, not the health route', async () => {
    const res = await rawRequest(server.port, `GET /zz/api/health HTTP/1.0\r\nHost: x\r\n\r\n`);
    expect(res.status).toBe(200);
    expect(res.head.toLowerCase()).toContain("content-type: text/html");
    expect(res.body).toContain('<div id="root">');
    await alive();
  });

  test.each([
    ["/zz/api/health.json", "x"],
    ["/nothing/here.txt", ""],
    ["/api/zz/health", "ab"],
    ["/api/nope", "a b"],
  ])("%s with Host %j is a JSON 404, not a 500 and not another route", async (path, host) => {
    const res = await rawRequest(server.port, `GET ${path} HTTP/1.0\r\nHost: ${host}\r\n\r\n`);
    expect(res.status).toBe(404);
    expect(res.head.toLowerCase()).toContain("content-type: application/problem+json");
    expect(JSON.parse(res.body)).toMatchObject({ code: "not_found" });
    await alive();
  });
});

describe("bodies are read within the route's limit, whether or not they declare a length", () => {
  test("a 300 MB chunked sign-in is refused with 413 after a few KB, and memory stays put", async () => {
    const before = await rssMb(server.proc.pid);
    const head = `POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nX-Requested-With: Cairn\r\n`;
    // The server answers and closes with our unread bytes still queued, so the kernel may reset
    // the connection before the answer is read: try up to three times to read it.
    let res = await chunkedFlood(server.port, head, 300 * 1024 * 1024);
    for (let i = 0; i < 2 && res.status === 0; i++) res = await chunkedFlood(server.port, head, 300 * 1024 * 1024);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ code: "payload_too_large", limit: 16384 });
    expect(res.sent).toBeLessThan(300 * 1024 * 1024);
    const after = await rssMb(server.proc.pid);
    console.log(
      `RSS around a 300 MB chunked sign-in: ${before.toFixed(1)} → ${after.toFixed(1)} MB ` +
        `(sent ${(res.sent / 1024 / 1024).toFixed(1)} MB before the answer)`,
    );
    expect(after - before).toBeLessThan(40);
    await alive();
  });

  test("a 95 MB string in a sign-in with Content-Length is refused before it is read", async () => {
    const before = await rssMb(server.proc.pid);
    const body = `{"email":"a@b.c","password":"${"x".repeat(95 * 1024 * 1024)}"}`;
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
      body,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: "payload_too_large", limit: 16384 });
    expect((await rssMb(server.proc.pid)) - before).toBeLessThan(40);
    await alive();
  });
});

describe("other hostile requests", () => {
  test.each(["cairn_session=%", "cairn_session=%E0%A4%A", "cairn_session=%%%; other=%"])(
    "cookie %j is an absent cookie: 401 on /api/auth/me, 200 on /api/health",
    async (cookie) => {
      const me = await fetch(`${server.url}/api/auth/me`, { headers: { cookie } });
      expect(me.status).toBe(401);
      const health = await fetch(`${server.url}/api/health`, { headers: { cookie } });
      expect(health.status).toBe(200);
      await alive();
    },
  );

  test("HEAD answers like GET without a body", async () => {
    const res = await rawRequest(server.port, "HEAD /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    expect(res.status).toBe(200);
    expect(res.head.toLowerCase()).toContain("x-content-type-options: nosniff");
    expect(res.body).toBe("");
    const missing = await fetch(`${server.url}/api/nope`, { method: "HEAD" });
    expect(missing.status).toBe(404);
    await alive();
  });
});
