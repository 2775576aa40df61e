/**
 * Server CPU time per request on the hot reads, two builds alternated:
 * `bun scripts/bench/request-cpu.ts BINARY_A [BINARY_B…] [--rounds=3] [--seconds=5] [--kinds=health,me,page,tree,tree-gzip]
 *  [--source] [--prof=DIR]`.
 *
 * Seeds one data directory through the service layer (the bench's TREE space of 1,000 pages and
 * a few hundred BIG pages), then for each round and each binary: a copy of it, the server
 * started on it, the owner's token minted, and each kind loaded by the bench's own loader
 * (loader.mjs, 32 connections) with the server's utime+stime read from /proc before and after.
 * The figure is µs of server CPU per answer (warm-up included), the median over rounds; the
 * loader's own CPU and the neighbours' do not count, which is why it is steadier than rps on a
 * shared machine. Not a timing for the history: rps is printed only to see that nothing failed.
 *
 * `--bare` adds the bench's baseline (a bare Bun.serve) as a side: the floor under every kind.
 * `--template=DIR` keeps the seeded directory there for the next run.
 * `--source` runs `bun src/main.ts serve` of this checkout instead of a binary ("source" as
 * the name); `--prof=DIR` adds `--cpu-prof --cpu-prof-dir=DIR` to it (a .cpuprofile per run,
 * read with scripts/bench/cpu-profile-top.ts).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load } from "./load";
import { cpuMicros, freePort, HOST, killAll, spawnLogged, stop, waitFor200 } from "./procs";
import { seedContext } from "./seed";
import { preSeed, type PreSeed } from "./seed-pages";
import type { LoadRequest } from "./scenarios";

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const binaries = args.filter((a) => !a.startsWith("--"));
const source = args.includes("--source");
const prof = option("prof");
const rounds = Number(option("rounds") ?? 3);
const seconds = Number(option("seconds") ?? 5);
const kinds = (option("kinds") ?? "health,me,page,tree").split(",");
const root = join(import.meta.dir, "../..");
if (!binaries.length && !source) throw new Error("name at least one binary, or --source");

process.on("exit", killAll);
const work = mkdtempSync(join(tmpdir(), "cairn-request-cpu-"));
// --template=DIR: the seeded directory is kept there and reused by the next run.
const kept = option("template");
const template = kept ?? join(work, "template");
const preFile = `${template}.json`;
let pre: PreSeed;
if (kept && existsSync(preFile)) pre = JSON.parse(readFileSync(preFile, "utf8"));
else {
  console.log(`seeding ${template}…`);
  pre = await preSeed(template, 300);
  writeFileSync(preFile, JSON.stringify(pre));
}

function requestsOf(kind: string, auth: Record<string, string>): LoadRequest[] {
  const pages = pre.big.pageIds.filter((_, i) => i % 3 === 0).slice(0, 64);
  switch (kind) {
    case "health":
      return [{ path: "/api/health", headers: auth }];
    case "me":
      return [{ path: "/api/auth/me", headers: auth }];
    case "page":
      return pages.map((id) => ({ path: `/api/pages/${id}`, headers: auth }));
    case "tree":
      return [{ path: `/api/pages/tree?spaceId=${pre.tree.id}`, headers: auth }];
    case "tree-gzip":
      // As a browser asks for it (the answer then comes gzipped).
      return [{ path: `/api/pages/tree?spaceId=${pre.tree.id}`, headers: { ...auth, "accept-encoding": "gzip, deflate, br, zstd" } }];
    default:
      throw new Error(`unknown kind ${kind}`);
  }
}

// --bare: the bench's bare Bun.serve baseline as one more side.
const sides = [...binaries, ...(source ? ["source"] : []), ...(args.includes("--bare") ? ["bare"] : [])];
const results = new Map<string, Map<string, number[]>>();
for (let round = 0; round < rounds; round++) {
  for (const side of sides) {
    const data = join(work, `data-${round}-${sides.indexOf(side)}`);
    cpSync(template, data, { recursive: true });
    const port = await freePort();
    const serve = ["serve", "--data", data, "--host", HOST, "--port", String(port)];
    if (side === "bare") {
      // The bench's baseline (a bare Bun.serve) loaded the same way: the floor under every kind.
      const child = spawnLogged(["bun", join(import.meta.dir, "baseline-server.ts"), String(port)], join(work, "server.log"), work);
      const url = `http://${HOST}:${port}`;
      await waitFor200(`${url}/`, child, 30_000);
      await load(url, child.pid, [{ path: "/" }], 2, 0);
      const r = await load(url, child.pid, [{ path: "/" }], seconds, 1);
      const perSide = results.get(side) ?? new Map<string, number[]>();
      results.set(side, perSide);
      for (const kind of kinds) perSide.set(kind, [...(perSide.get(kind) ?? []), r.cpuUsPerRequest]);
      console.log(`round ${round + 1} bare Bun.serve: ${r.cpuUsPerRequest.toFixed(0)} µs (${r.rps.toFixed(0)} rps, p99 ${r.p99Ms} ms)`);
      await stop(child, 20_000);
      continue;
    }
    const cmd =
      side === "source"
        ? ["bun", ...(prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : []), join(root, "src/main.ts"), ...serve]
        : [side, ...serve];
    const child = spawnLogged(cmd, join(work, "server.log"), work);
    const url = `http://${HOST}:${port}`;
    await waitFor200(`${url}/api/health`, child, 30_000);
    const ctx = await seedContext(url, true, true);
    // Warm every kind first (JIT, kept answers), so the first kind measured is not the coldest.
    for (const kind of kinds) await load(url, child.pid, requestsOf(kind, ctx.auth()), 2, 0);
    const line: string[] = [];
    for (const kind of kinds) {
      const r = await load(url, child.pid, requestsOf(kind, ctx.auth()), seconds, 1);
      const perSide = results.get(side) ?? new Map<string, number[]>();
      results.set(side, perSide);
      perSide.set(kind, [...(perSide.get(kind) ?? []), r.cpuUsPerRequest]);
      line.push(
        `${kind} ${r.cpuUsPerRequest.toFixed(0)} µs (${r.rps.toFixed(0)} rps, p99 ${r.p99Ms} ms${r.non2xx ? `, ${r.non2xx} non-2xx` : ""})`,
      );
    }
    console.log(`round ${round + 1} ${side}: ${line.join("; ")}; cpu at end ${(cpuMicros(child.pid) / 1000).toFixed(0)} ms`);
    await stop(child, 20_000);
    rmSync(data, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log("\nserver CPU µs per request, median of rounds (all rounds):");
for (const side of sides) {
  const perSide = results.get(side)!;
  console.log(
    `${side}\n  ${kinds
      .map(
        (k) =>
          `${k} ${median(perSide.get(k)!).toFixed(0)} (${perSide
            .get(k)!
            .map((x) => x.toFixed(0))
            .join(", ")})`,
      )
      .join("\n  ")}`,
  );
}
// --log=FILE: the last server's log kept there (what it wrote under the load).
if (option("log")) cpSync(join(work, "server.log"), option("log")!);
rmSync(work, { recursive: true, force: true });
process.exit(0);
