/**
 * HTTP written by hand over a TCP socket, for what fetch() will not send: an empty or
 * malformed Host header, HTTP/1.0, a chunked body that never ends. The fuzzer's client
 * (tests/fuzz/client.ts) does the writing and reading.
 */
import { connect } from "node:net";
import { complete, parse, send } from "./fuzz/client";

export interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

/** Sends `request` (latin1) and reads until the answer is complete, the server closes or `timeoutMs` passes. */
export async function rawRequest(port: number, request: string, timeoutMs = 3000): Promise<RawAnswer> {
  const { status, head, body } = await send(port, Buffer.from(request, "latin1"), { timeoutMs });
  return { status, head, body };
}

/**
 * Streams a chunked body of up to `totalBytes` and stops as soon as the server answers; the
 * answer and how many bytes went out before it.
 */
export function chunkedFlood(port: number, head: string, totalBytes: number, chunk = 64 * 1024): Promise<RawAnswer & { sent: number }> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const piece = Buffer.alloc(chunk, "a");
    const received: Buffer[] = [];
    let sent = 0;
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parse(Buffer.concat(received)), sent });
    };
    const timer = setTimeout(done, 30_000);
    socket.on("data", (d: Buffer) => {
      received.push(d);
      const all = Buffer.concat(received);
      if (complete(all, all.length)) done();
    });
    socket.on("close", done);
    socket.on("error", done);
    const pump = () => {
      while (!finished && sent < totalBytes) {
        sent += chunk;
        if (!socket.write(`${chunk.toString(16)}\r\n`) || !socket.write(piece) || !socket.write("\r\n"))
          return void socket.once("drain", pump);
      }
      if (!finished) socket.write("0\r\n\r\n");
    };
    socket.write(`${head}Transfer-Encoding: chunked\r\n\r\n`, "latin1", pump);
  });
}

export { rssMb } from "./rss";
