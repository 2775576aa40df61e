/**
 * HTTP written by hand over a TCP socket, for what fetch() will not send: an empty or
 * malformed Host header, HTTP/1.0, a chunked body that never ends.
 */
import { connect } from "node:net";

export interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

export function parseAnswer(text: string): RawAnswer {
  const end = text.indexOf("\r\n\r\n");
  const head = end < 0 ? text : text.slice(0, end);
  const raw = end < 0 ? "" : text.slice(end + 4);
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), head, body: /transfer-encoding: chunked/i.test(head) ? unchunk(raw) : raw };
}

function unchunk(raw: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    const line = raw.indexOf("\r\n", at);
    const size = line < 0 ? 0 : parseInt(raw.slice(at, line), 16);
    if (!size) return out;
    out += raw.slice(line + 2, line + 2 + size);
    at = line + 2 + size + 2;
  }
}

/** Sends `request` (latin1) and reads until the server closes or `timeoutMs` passes. */
export function rawRequest(port: number, request: string, timeoutMs = 3000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parseAnswer(text));
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on("data", (d) => (text += d.toString("latin1")));
    socket.on("close", done);
    socket.on("error", done);
    socket.write(request, "latin1");
  });
}

/**
 * Streams a chunked body of up to `totalBytes` and stops as soon as the server answers; the
 * answer and how many bytes went out before it.
 */
export function chunkedFlood(port: number, head: string, totalBytes: number, chunk = 64 * 1024): Promise<RawAnswer & { sent: number }> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const piece = Buffer.alloc(chunk, "a");
    let text = "";
    let sent = 0;
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseAnswer(text), sent });
    };
    const timer = setTimeout(done, 30_000);
    socket.on("data", (d) => {
      text += d.toString("latin1");
      if (complete(text)) done();
    });
    socket.on("close", done);
    socket.on("error", done);
    const pump = () => {
      while (!finished && sent < totalBytes) {
        sent += chunk;
        if (!socket.write(`${chunk.toString(16)}\r\n`) || !socket.write(piece) || !socket.write("\r\n")) return void socket.once("drain", pump);
      }
      if (!finished) socket.write("0\r\n\r\n");
    };
    socket.write(`${head}Transfer-Encoding: chunked\r\n\r\n`, "latin1", pump);
  });
}

/** Whether a whole answer with a Content-Length is in. */
function complete(text: string): boolean {
  const { head, body } = parseAnswer(text);
  const length = /content-length: (\d+)/i.exec(head);
  return length !== null && text.includes("\r\n\r\n") && Buffer.byteLength(body, "latin1") >= Number(length[1]);
}

/** Resident memory of a process, in MB (Linux). */
export async function rssMb(pid: number): Promise<number> {
  const status = await Bun.file(`/proc/${pid}/status`).text();
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}
