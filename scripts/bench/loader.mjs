// The load generator, run by Node in its own process so it does not share an event loop (or
// a core's time slice) with the benchmark driver. Plain JavaScript because Node runs it directly.
//
// Usage: node loader.mjs '{"url":"http://127.0.0.1:N","connections":32,"durationSec":5,
//   "warmupSec":1,"requests":[{"method":"GET","path":"/x","headers":{},"body":"..."}]}'
// Prints one JSON object: {rps, p50Ms, p95Ms, p99Ms, ok, non2xx, errors, statuses, responses}
// where `responses` also counts the warm-up (for CPU time per request on the server).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import autocannon from "autocannon";

// autocannon appends every body chunk to a string (`body += chunk`), to hand it to response
// checks this loader never asks for. For a 120 KB tree that UTF-8 decoding cost the loader
// ~700 µs per answer (gzipped bytes decode worse), four times the server's own CPU for it, on
// the same 2 cores: the tree's latency measured the loader. Bytes are still counted
// (addByteCount) and every answer is still read and parsed to its end.
const PipelinedRequestsQueue = createRequire(import.meta.url)("autocannon/lib/pipelinedRequestsQueue.js");
PipelinedRequestsQueue.prototype.addBody = function discardBody() {};

const MAX_SAMPLES = 20_000_000; // bounds memory: ~160 MB of float64 at most

// "@path": the spec is in that file (a mix too large for one argument).
const arg = process.argv[2];
const spec = JSON.parse(arg.startsWith("@") ? readFileSync(arg.slice(1), "utf8") : arg);

// A body holding "{{n}}" gets a new number in its place on every request (all connections
// count together), so that repeated writes each change something: the server writes nothing
// for an update that equals the current version.
let counter = 0;
const requests = spec.requests.map((r) =>
  typeof r.body === "string" && r.body.includes("{{n}}")
    ? { ...r, setupRequest: (req) => ({ ...req, body: r.body.replaceAll("{{n}}", String(++counter)) }) }
    : r,
);

function fire(durationSec, onResponse) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: spec.url, connections: spec.connections, duration: durationSec, requests, timeout: 10 },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    // autocannon's own histogram keeps whole milliseconds; sub-millisecond answers need the
    // fractional time it reports per response.
    if (onResponse) instance.on("response", onResponse);
  });
}

// JIT, caches and connection set-up; its responses still count toward `responses`.
const warm = spec.warmupSec > 0 ? await fire(spec.warmupSec) : null;

let latencies = new Float64Array(1 << 20);
let n = 0;
let ok = 0;
const statuses = {};
const result = await fire(spec.durationSec, (_client, status, _bytes, ms) => {
  statuses[status] = (statuses[status] ?? 0) + 1;
  if (status < 200 || status > 299) return;
  ok++;
  if (n >= MAX_SAMPLES) return;
  if (n === latencies.length) {
    const bigger = new Float64Array(latencies.length * 2);
    bigger.set(latencies);
    latencies = bigger;
  }
  latencies[n++] = ms;
});

const sorted = latencies.subarray(0, n).sort();
const pct = (p) => (n === 0 ? null : Math.round(sorted[Math.min(n - 1, Math.floor((p / 100) * n))] * 1000) / 1000);
const non2xx = Object.entries(statuses).reduce((sum, [s, c]) => (s >= 200 && s <= 299 ? sum : sum + c), 0);
process.stdout.write(
  JSON.stringify({
    rps: Math.round((ok / result.duration) * 10) / 10,
    p50Ms: pct(50),
    p95Ms: pct(95),
    p99Ms: pct(99),
    ok,
    non2xx,
    errors: result.errors + result.timeouts,
    statuses,
    responses: (warm?.requests.total ?? 0) + Object.values(statuses).reduce((a, b) => a + b, 0),
  }) + "\n",
);
