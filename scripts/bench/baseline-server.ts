/**
 * The baseline: a bare Bun.serve answering a small JSON body, about the size of the health
 * answer. Cairn's scenarios are compared with what this reaches on the same machine, so the
 * targets hold whatever the hardware. Usage: bun scripts/bench/baseline-server.ts PORT
 */
const body = JSON.stringify({ status: "ok", database: "ok" });
const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) throw new Error("usage: baseline-server.ts PORT");

Bun.serve({
  hostname: "127.0.0.1",
  port,
  fetch: () => new Response(body, { headers: { "content-type": "application/json" } }),
});
process.on("SIGTERM", () => process.exit(0));
