/**
 * The baseline: a bare Bun.serve answering a small JSON body, about the size of the health
 * answer. Cairn's scenarios are compared with what this reaches on the same machine, so the
 * targets hold whatever the hardware. A POST is read to its end, each chunk freed as it comes
 * (what Cairn's uploads do): the upload-memory figure of the bare runtime, printed beside
 * Cairn's. Usage: bun scripts/bench/baseline-server.ts PORT
 */
const body = JSON.stringify({ status: "ok", database: "ok" });
const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) throw new Error("usage: baseline-server.ts PORT");

Bun.serve({
  hostname: "127.0.0.1",
  port,
  maxRequestBodySize: 100 * 1024 * 1024,
  // Not async: the GET answer stays exactly what the baseline always measured.
  fetch: (request) =>
    request.method === "POST" ? readUpload(request) : new Response(body, { headers: { "content-type": "application/json" } }),
});
process.on("SIGTERM", () => process.exit(0));

async function readUpload(request: Request): Promise<Response> {
  let size = 0;
  const reader = request.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (value.byteOffset === 0 && value.byteLength === value.buffer.byteLength)
      (value.buffer as ArrayBuffer & { transfer(n: number): ArrayBuffer }).transfer(0);
  }
  return Response.json({ bodyBytes: size }, { status: 201 });
}
