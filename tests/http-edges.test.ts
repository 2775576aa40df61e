/**
 * What a request line or header block our routes never answer gets, over a real socket to a
 * real server process:
 * - a method Bun knows but no route uses (TRACE, PROPFIND, PURGE, QUERY…) is our 405 with Allow
 *   (a 404 on a path that answers nothing), as problem+json with the security headers;
 * - what Bun refuses before our code runs is pinned here as it is (docs/decisions.md, HTTP): a
 *   method it does not know (BREW, a 200-character one, a lower-case get) closes the connection
 *   without an answer; headers over its limit (16 KB) get its bare 431. The server lives on.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rawRequest } from "./raw-http";
import { startInScratch, stopAndRemove, type ServerProcess } from "./server-process";

let dir: string;
let server: ServerProcess;
beforeAll(async () => {
  ({ dir, server } = await startInScratch("cairn-http-edges-"));
});
afterAll(async () => {
  await stopAndRemove(server, dir);
});

async function alive() {
  expect(server.proc.exitCode).toBeNull();
  expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
}

const headerOf = (head: string, name: string) => new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1]?.trim() ?? null;
const line = (method: string, target = "/api/pages", headers = "") =>
  `${method} ${target} HTTP/1.1\r\nHost: localhost\r\n${headers}Connection: close\r\n\r\n`;

function expectOurProblem(res: { head: string; body: string }, code: string) {
  expect(headerOf(res.head, "content-type")).toBe("application/problem+json");
  expect(headerOf(res.head, "x-content-type-options")).toBe("nosniff");
  expect(headerOf(res.head, "content-security-policy")).toContain("default-src 'self'");
  expect(headerOf(res.head, "x-frame-options")).toBe("DENY");
  expect(JSON.parse(res.body)).toMatchObject({ code });
}

describe("methods Bun passes on but no route answers", () => {
  test.each(["TRACE", "PROPFIND", "PURGE", "QUERY", "M-SEARCH", "LINK", "MKCOL"])(
    "%s /api/pages is 405 with Allow, as problem+json with the security headers",
    async (method) => {
      const res = await rawRequest(server.port, line(method));
      expect(res.status).toBe(405);
      expect(headerOf(res.head, "allow")).toBe("POST");
      expectOurProblem(res, "method_not_allowed");
      await alive();
    },
  );

  test("with the CSRF header and a session-less token-less caller it is still the 405, not another answer", async () => {
    const res = await rawRequest(server.port, line("PROPFIND", "/api/pages", "X-Requested-With: Cairn\r\n"));
    expect(res.status).toBe(405);
  });

  test("on a path that answers nothing it is a 404 like any other", async () => {
    const res = await rawRequest(server.port, line("PURGE", "/api/nothing-here"));
    expect(res.status).toBe(404);
    expectOurProblem(res, "not_found");
  });

  test("the methods routes use keep their answers (POST without the CSRF header: 403)", async () => {
    const res = await rawRequest(server.port, line("POST"));
    expect(res.status).toBe(403);
    expectOurProblem(res, "csrf_header_missing");
  });
});

describe("what Bun answers before our code runs (pinned, so a change in Bun shows here)", () => {
  test.each([
    ["BREW", "BREW"],
    ["a 200-character method", "A".repeat(200)],
    ["a lower-case get", "get"],
  ])("%s: the connection is closed without an answer; the server lives on", async (_what, method) => {
    const res = await rawRequest(server.port, line(method));
    expect(res.status).toBe(0);
    await alive();
  });

  test.each([
    ["one 20 KB header", `X-Big: ${"a".repeat(20_000)}\r\n`, "/api/health"],
    ["300 headers of 100 bytes", Array.from({ length: 300 }, (_, i) => `X-H${i}: ${"b".repeat(100)}\r\n`).join(""), "/api/health"],
    ["a 70 KB query", "", `/api/health?${"q".repeat(70_000)}`],
  ])("%s: Bun's own 431, without a body; the server lives on", async (_what, headers, target) => {
    const res = await rawRequest(server.port, line("GET", target, headers));
    expect(res.status).toBe(431);
    expect(res.body).toBe("");
    await alive();
  });
});
