/**
 * The fuzzer's HTTP client: requests written byte for byte over a fresh TCP connection, because
 * fetch() normalises exactly what a fuzzer wants to send (raw bytes in the path, an empty or
 * missing Host, HTTP/1.0, a Content-Length that lies, chunked bodies). One connection per
 * request keeps a request that breaks its connection from spoiling the next one.
 */
import { connect } from "node:net";

export interface Wire {
  method: string;
  /** The request target exactly as it goes on the request line. */
  target: string;
  /** In order, written as latin1. Host, Connection and Content-Length are added unless present. */
  headers: Array<[string, string]>;
  body?: Uint8Array;
  /** "HTTP/1.1" unless set. */
  version?: string;
  /** Leave out the Host header that is otherwise added. */
  noHost?: boolean;
}

export interface Answer {
  /** 0 when no status line came back. */
  status: number;
  head: string;
  /** The start of the body, as text. */
  body: string;
  /** A socket error before the answer was complete (ECONNREFUSED, ECONNRESET, …). */
  error?: string;
  timedOut: boolean;
}

/** Keeps memory bounded however much a route answers (the report shows a prefix). */
const MAX_KEPT_BYTES = 256 * 1024;

export function encode(wire: Wire): Buffer {
  const has = (name: string) => wire.headers.some(([n]) => n.toLowerCase() === name);
  const headers = [...wire.headers];
  if (!wire.noHost && !has("host")) headers.unshift(["Host", "localhost"]);
  if (!has("connection")) headers.push(["Connection", "close"]);
  if (wire.body && !has("content-length") && !has("transfer-encoding")) headers.push(["Content-Length", String(wire.body.byteLength)]);
  const head = `${wire.method} ${wire.target} ${wire.version ?? "HTTP/1.1"}\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join("")}\r\n`;
  return wire.body ? Buffer.concat([Buffer.from(head, "latin1"), wire.body]) : Buffer.from(head, "latin1");
}

export interface SendOptions {
  /** Local address to connect from (any of 127.0.0.0/8 on Linux). */
  from?: string;
  timeoutMs: number;
}

/**
 * Writes `payload` and reads until the server closes, the answer is complete, or the timeout
 * passes (then whatever came so far is the answer: a lying Content-Length may get none).
 */
export function send(port: number, payload: Buffer, opts: SendOptions): Promise<Answer> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port, localAddress: opts.from });
    const chunks: Buffer[] = [];
    let kept = 0;
    let error: string | undefined;
    let finished = false;
    const done = (timedOut: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parse(Buffer.concat(chunks)), error, timedOut });
    };
    const timer = setTimeout(() => done(true), opts.timeoutMs);
    socket.on("data", (d: Buffer) => {
      if (kept < MAX_KEPT_BYTES) chunks.push(d.subarray(0, MAX_KEPT_BYTES - kept));
      kept += d.byteLength;
      if (complete(Buffer.concat(chunks), kept)) done(false);
    });
    socket.on("close", () => done(false));
    // A server that answers early (413) and closes while the body is still going out resets
    // the connection: what it sent before is kept, the error is only noted.
    socket.on("error", (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
      done(false);
    });
    socket.write(payload);
  });
}

/** What follows any interim answers (100 Continue), which come before the real one. */
function withoutInterim(bytes: Buffer): Buffer {
  while (/^HTTP\/1\.[01] 1\d\d /.test(bytes.subarray(0, 13).toString("latin1")) && bytes.includes("\r\n\r\n"))
    bytes = bytes.subarray(bytes.indexOf("\r\n\r\n") + 4);
  return bytes;
}

/** Status line, head and body of what came back (interim answers skipped, chunked bodies joined). */
export function parse(all: Buffer): Omit<Answer, "error" | "timedOut"> {
  const bytes = withoutInterim(all);
  const end = bytes.indexOf("\r\n\r\n");
  const head = (end < 0 ? bytes : bytes.subarray(0, end)).toString("latin1");
  const rest = end < 0 ? Buffer.alloc(0) : bytes.subarray(end + 4);
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
  return { status, head, body: (/^transfer-encoding:\s*chunked/im.test(head) ? unchunk(rest) : rest).toString("utf8") };
}

function unchunk(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const line = raw.indexOf("\r\n", at);
    const size = line < 0 ? 0 : parseInt(raw.subarray(at, line).toString("latin1"), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(raw.subarray(line + 2, line + 2 + size));
    at = line + 2 + size + 2;
  }
}

/** Whether the whole answer is in, so a server that keeps the connection open is not waited on. */
export function complete(all: Buffer, total: number): boolean {
  const bytes = withoutInterim(all);
  total -= all.length - bytes.length;
  const end = bytes.indexOf("\r\n\r\n");
  if (end < 0) return false;
  const head = bytes.subarray(0, end).toString("latin1");
  const length = /^content-length:\s*(\d+)/im.exec(head);
  if (length) return total - (end + 4) >= Number(length[1]);
  if (/^transfer-encoding:\s*chunked/im.test(head)) return bytes.subarray(-5).toString("latin1") === "0\r\n\r\n";
  return /^HTTP\/1\.[01] (204|304)/.test(head);
}
