/**
 * What an import's memory growth is made of, in-process: `bun scripts/bench/import-memory.ts
 * [--pages=N]`. A space of N pages (default 10,000) seeded through the service layer, its wiki
 * pack taken, then imported under a new key while every 20 ms the process's RSS is split into
 * anonymous and file pages (/proc/self/smaps_rollup) beside JavaScriptCore's heap (bun:jsc
 * heapStats: heap and extra memory). Prints the baseline, the peak of each, and the breakdown at
 * the moment RSS peaked. Not a timing: the figures are bytes, so the shared lock is not needed.
 */
import { heapStats } from "bun:jsc";
import { existsSync, readFileSync } from "node:fs";
import { call, makeEnv, signUp } from "../../tests/harness";
import { importZip, packOf } from "../../src/imports/testing";
import { ownerCaller, seedSpacePages } from "./seed-pages";

/** `--mark`: a look for a file named for the import's start and end, so `strace -e openat,…` can window its trace. */
const mark = process.argv.includes("--mark") ? (what: string) => existsSync(`/tmp/cairn-mark-import-${what}`) : () => false;
const pages = Number(process.argv.find((a) => a.startsWith("--pages="))?.slice(8) ?? 10_000);
const MB = 1024 * 1024;

function sample() {
  const rollup = readFileSync("/proc/self/smaps_rollup", "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(rollup)?.[1] ?? 0) / 1024;
  const h = heapStats();
  return {
    rss: kb("Rss"),
    anon: kb("Anonymous"),
    file: kb("Rss") - kb("Anonymous"),
    heap: h.heapSize / MB,
    extra: h.extraMemorySize / MB,
    objects: h.objectCount,
  };
}
const round = (s: Record<string, number>) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, Math.round(v * 10) / 10]));

const env = makeEnv({ archiveWal: true });
try {
  const owner = await signUp(env, "owner@example.com");
  const space = await call(env, "POST", "/api/spaces", { as: owner, body: { key: "MEM", name: "Memory" } });
  const started = performance.now();
  await seedSpacePages(env.core, ownerCaller(env.core, owner.id), space.body.id, pages, { roots: 100, fanout: 10, seedBase: 5_000_000 });
  console.log(`seeded ${pages} pages in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const pack = await packOf(env, owner, "MEM");
  console.log(`pack ${(pack.byteLength / MB).toFixed(1)} MB`);
  await Bun.sleep(500);
  Bun.gc(true);
  const before = sample();
  console.log("before", round(before));
  const peak = { ...before };
  let atPeak = before;
  const timer = setInterval(() => {
    const s = sample();
    for (const k of Object.keys(s) as (keyof typeof s)[]) peak[k] = Math.max(peak[k], s[k]);
    if (s.rss >= atPeak.rss) atPeak = s;
  }, 20);
  const t0 = performance.now();
  mark("start");
  const res = await importZip(env, owner, pack, { key: "IMP" });
  mark("end");
  clearInterval(timer);
  if (res.status !== 201) throw new Error(`import: ${res.status} ${res.text.slice(0, 300)}`);
  console.log(`imported in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const growth = (s: Record<string, number>) =>
    round(Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v - (before as Record<string, number>)[k]])));
  console.log("peak of each, growth", growth(peak));
  console.log("at the RSS peak, growth", growth(atPeak));
  Bun.gc(true);
  console.log("after a full collection, growth", growth(sample()));
} finally {
  env.close();
}
