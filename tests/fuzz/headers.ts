/**
 * Requests only a raw socket can send: Host headers that are empty, missing or malformed,
 * HTTP/1.0, malformed cookies, Content-Lengths that lie, chunked bodies that are broken or
 * never end, request lines and header blocks that are not quite HTTP. Each is sent alone and
 * followed by a check that the process still lives: one such request once answered 200 and
 * then stopped the server.
 */
import type { Engine } from "./engine";
import type { Fixtures } from "./fixtures";

export interface RawCase {
  label: string;
  bytes: Buffer;
  /** 5xx statuses that are the protocol's right answer here (505 for an unknown HTTP version). */
  allow?: number[];
  /** For requests the server must wait on (a body that never comes): how long to listen. */
  waitMs?: number;
}

const CRLF = "\r\n";
/** How long to listen for an answer to a request the server must wait on (ample on loopback). */
const WAIT_MS = 300;
const req = (lines: string[], body = "") => Buffer.from(lines.join(CRLF) + CRLF + CRLF + body, "latin1");
const LOGIN_BODY = '{"email":"someone@fuzz.test","password":"not the password"}';

export function rawCases(fx: Fixtures): RawCase[] {
  const cases: RawCase[] = [];
  const add = (label: string, bytes: Buffer, extra: Partial<RawCase> = {}) => cases.push({ label, bytes, ...extra });

  const hosts: Array<[string, string | null]> = [
    ["an empty Host", ""],
    ["a Host of one space", " "],
    ["no Host", null],
    ["Host: a b", "a b"],
    ["Host: a/b", "a/b"],
    ["Host: x", "x"],
    ["Host: ab", "ab"],
    ["Host: a:b:c", "a:b:c"],
    ["Host: [::1", "[::1"],
    ["Host: localhost:99999", "localhost:99999"],
    ["Host: user@evil", "user@evil"],
    ["Host: %00", "%00"],
    ["Host: .", "."],
    ["Host of latin1 bytes", "\xff\xfe"],
    ["an 8 KB Host", "a".repeat(8 * 1024)],
    ["a 64 KB Host", "a".repeat(64 * 1024)],
  ];
  // `Host:` exactly as curl -H 'Host:' writes it; the others after one space.
  const host = (h: string | null) => (h === null ? [] : h === "" ? ["Host:"] : [`Host: ${h}`]);
  for (const [label, h] of hosts) {
    add(`HTTP/1.0 GET /api/health with ${label}`, req(["GET /api/health HTTP/1.0", ...host(h)]));
    add(`HTTP/1.1 GET /api/health with ${label}`, req(["GET /api/health HTTP/1.1", ...host(h), "Connection: close"]));
  }
  add("two different Hosts", req(["GET /api/health HTTP/1.1", "Host: a", "Host: b b", "Connection: close"]));
  add("HTTP/1.0 HEAD /api/health with an empty Host", req(["HEAD /api/health HTTP/1.0", "Host:"]));
  add("HTTP/1.0 GET /nothing/here with an empty Host", req(["GET /nothing/here HTTP/1.0", "Host:"]));
  add(
    "HTTP/1.0 GET /api/auth/me with a token and an empty Host",
    req(["GET /api/auth/me HTTP/1.0", "Host:", `Authorization: Bearer ${fx.token}`]),
  );
  add(
    "HTTP/1.0 GET /api/auth/me with a session and Host: x",
    req(["GET /api/auth/me HTTP/1.0", "Host: x", `Cookie: cairn_session=${fx.cookie}`]),
  );
  add(
    "HTTP/1.0 POST /api/auth/login with an empty Host",
    req(
      [
        "POST /api/auth/login HTTP/1.0",
        "Host:",
        "Content-Type: application/json",
        "X-Requested-With: Cairn",
        `Content-Length: ${LOGIN_BODY.length}`,
      ],
      LOGIN_BODY,
    ),
  );
  add(
    "HTTP/1.0 POST /api/spaces with a token and Host: a b",
    req(
      [
        "POST /api/spaces HTTP/1.0",
        "Host: a b",
        `Authorization: Bearer ${fx.token}`,
        "Content-Type: application/json",
        "Content-Length: 2",
      ],
      "{}",
    ),
  );
  add("absolute-form target", req(["GET http://evil.example/api/health HTTP/1.1", "Host: x", "Connection: close"]));
  add("absolute-form target with a broken authority", req(["GET http://[::1/api/health HTTP/1.1", "Host: localhost", "Connection: close"]));
  add("OPTIONS *", req(["OPTIONS * HTTP/1.1", "Host: localhost", "Connection: close"]));
  add("CONNECT", req(["CONNECT localhost:80 HTTP/1.1", "Host: localhost:80", "Connection: close"]));

  for (const cookie of [
    "cairn_session=%",
    "cairn_session=%E0%A4%A",
    "cairn_session=%%%; other=%",
    "cairn_session=\xff\xfe",
    "cairn_session=%00",
    `cairn_session=${"%".repeat(4096)}`,
    "=; ;;=%",
  ]) {
    add(
      `cookie ${JSON.stringify(cookie.slice(0, 40))} on /api/auth/me`,
      req(["GET /api/auth/me HTTP/1.1", "Host: localhost", `Cookie: ${cookie}`, "Connection: close"]),
    );
    add(
      `cookie ${JSON.stringify(cookie.slice(0, 40))} on /api/health`,
      req(["GET /api/health HTTP/1.1", "Host: localhost", `Cookie: ${cookie}`, "Connection: close"]),
    );
    add(
      `cookie ${JSON.stringify(cookie.slice(0, 40))} on POST /api/spaces`,
      req(
        [
          "POST /api/spaces HTTP/1.1",
          "Host: localhost",
          `Cookie: ${cookie}`,
          "X-Requested-With: Cairn",
          "Content-Type: application/json",
          "Content-Length: 2",
          "Connection: close",
        ],
        "{}",
      ),
    );
  }

  const post = (path: string, headers: string[], body: string) =>
    req(
      [
        `POST ${path} HTTP/1.1`,
        "Host: localhost",
        "Content-Type: application/json",
        "X-Requested-With: Cairn",
        `Authorization: Bearer ${fx.token}`,
        "Connection: close",
        ...headers,
      ],
      body,
    );
  for (const path of ["/api/auth/login", "/api/spaces", "/api/pages"]) {
    add(`Content-Length larger than sent, ${path}`, post(path, ["Content-Length: 100"], '{"email":'), { waitMs: WAIT_MS });
    add(`chunked body that never ends, ${path}`, post(path, ["Transfer-Encoding: chunked"], '9\r\n{"email":\r\n'), { waitMs: WAIT_MS });
  }
  add(
    "Content-Length smaller than sent (a second request follows)",
    post("/api/auth/login", ["Content-Length: 2"], "{}GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n"),
  );
  for (const length of ["-1", "abc", "1e3", "+2", "99999999999999999999", "2, 2", " 2"])
    add(`Content-Length: ${length}`, post("/api/auth/login", [`Content-Length: ${length}`], "{}"));
  add("two different Content-Lengths", post("/api/auth/login", ["Content-Length: 2", "Content-Length: 5"], "{}"));
  add("Content-Length and chunked", post("/api/auth/login", ["Content-Length: 5", "Transfer-Encoding: chunked"], "2\r\n{}\r\n0\r\n\r\n"));
  add(
    "a well-formed chunked sign-in",
    post(
      "/api/auth/login",
      ["Transfer-Encoding: chunked"],
      `${LOGIN_BODY.slice(0, 10).length.toString(16)}\r\n${LOGIN_BODY.slice(0, 10)}\r\n` +
        `${(LOGIN_BODY.length - 10).toString(16)}\r\n${LOGIN_BODY.slice(10)}\r\n0\r\n\r\n`,
    ),
  );
  add("chunk size zz", post("/api/auth/login", ["Transfer-Encoding: chunked"], "zz\r\n{}\r\n0\r\n\r\n"));
  add("chunk extension", post("/api/auth/login", ["Transfer-Encoding: chunked"], "2;name=value\r\n{}\r\n0\r\n\r\n"));
  add("chunk size of 2^64-1", post("/api/auth/login", ["Transfer-Encoding: chunked"], "FFFFFFFFFFFFFFFF\r\n{}\r\n0\r\n\r\n"), {
    waitMs: WAIT_MS,
  });
  add("chunk shorter than declared", post("/api/auth/login", ["Transfer-Encoding: chunked"], "10\r\n{}\r\n0\r\n\r\n"), { waitMs: WAIT_MS });
  add(
    "chunked with trailers",
    post("/api/auth/login", ["Transfer-Encoding: chunked"], "2\r\n{}\r\n0\r\nX-Trailer: 1\r\nContent-Length: 99\r\n\r\n"),
  );
  for (const te of ["chunked, gzip", "gzip", "identity", "Chunked", " chunked", "chunked\x00"])
    add(`Transfer-Encoding: ${JSON.stringify(te)}`, post("/api/auth/login", [`Transfer-Encoding: ${te}`], "2\r\n{}\r\n0\r\n\r\n"), {
      waitMs: WAIT_MS,
    });
  add("Expect: 100-continue", post("/api/auth/login", ["Expect: 100-continue", `Content-Length: ${LOGIN_BODY.length}`], LOGIN_BODY));
  add("Content-Encoding: gzip on a JSON body", post("/api/auth/login", ["Content-Encoding: gzip", "Content-Length: 2"], "{}"));

  add("HTTP/9.9", req(["GET /api/health HTTP/9.9", "Host: localhost"]), { allow: [505] });
  add("HTTP/2.0 on HTTP/1 framing", req(["GET /api/health HTTP/2.0", "Host: localhost"]), { allow: [505] });
  add("lower-case method", req(["get /api/health HTTP/1.1", "Host: localhost", "Connection: close"]));
  add("unknown method", req(["FUZZ /api/health HTTP/1.1", "Host: localhost", "Connection: close"]));
  add("target without a leading slash", req(["GET api/health HTTP/1.1", "Host: localhost", "Connection: close"]));
  add("target with a fragment", req(["GET /api/health#frag HTTP/1.1", "Host: localhost", "Connection: close"]));
  // Bun's parser answers a request line it cannot read itself, with 505 (docs/decisions.md).
  add("NUL in the target", req(["GET /api/he\x00alth HTTP/1.1", "Host: localhost", "Connection: close"]), { allow: [505] });
  add("a 64 KB target", req([`GET /api/pages/${"a".repeat(64 * 1024)} HTTP/1.1`, "Host: localhost", "Connection: close"]));
  add("double space in the request line", req(["GET  /api/health  HTTP/1.1", "Host: localhost", "Connection: close"]));
  add("header without a colon", req(["GET /api/health HTTP/1.1", "Host: localhost", "NoColonHere", "Connection: close"]));
  add("header name with a space", req(["GET /api/health HTTP/1.1", "Host: localhost", "Bad Header: x", "Connection: close"]));
  add(
    "obsolete line folding",
    req(["GET /api/auth/me HTTP/1.1", "Host: localhost", "Cookie: cairn_session=a;", " other=b", "Connection: close"]),
  );
  add(
    "200 headers",
    req(["GET /api/health HTTP/1.1", "Host: localhost", ...Array.from({ length: 200 }, (_, i) => `X-H${i}: ${i}`), "Connection: close"]),
  );
  add("a 64 KB header value", req(["GET /api/health HTTP/1.1", "Host: localhost", `X-Big: ${"a".repeat(64 * 1024)}`, "Connection: close"]));
  add(
    "websocket upgrade",
    req([
      "GET /api/health HTTP/1.1",
      "Host: localhost",
      "Connection: Upgrade",
      "Upgrade: websocket",
      "Sec-WebSocket-Version: 13",
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    ]),
    { waitMs: WAIT_MS },
  );
  add(
    "h2c upgrade",
    req([
      "GET /api/health HTTP/1.1",
      "Host: localhost",
      "Connection: Upgrade, HTTP2-Settings",
      "Upgrade: h2c",
      "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA",
    ]),
    { waitMs: WAIT_MS },
  );
  add(
    "two pipelined requests",
    Buffer.concat([
      req(["GET /api/health HTTP/1.1", "Host:"]),
      req(["GET /api/auth/me HTTP/1.1", "Host: x", "Cookie: cairn_session=%", "Connection: close"]),
    ]),
  );
  add("an empty request", Buffer.from("\r\n\r\n"), { waitMs: WAIT_MS });
  add("a TLS ClientHello", Buffer.from("160301002e0100002a0303" + "00".repeat(32) + "000002002f0100", "hex"), { waitMs: WAIT_MS });
  return cases;
}

/** Sends each case alone, checking the process after each; answers how many were sent. */
export async function runRawCases(engine: Engine, cases: RawCase[]): Promise<number> {
  for (const c of cases) await engine.raw({ op: "RAW", auth: "raw", variant: c.label }, c.bytes, { timeoutMs: c.waitMs, allow: c.allow });
  await engine.finish();
  return cases.length;
}
