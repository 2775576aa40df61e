/**
 * `bun run bench -- --fuzz`: the fuzz test's engine (tests/fuzz/) run much longer. Every entry
 * of every corpus list goes to every operation, plus requests with several things wrong at once
 * drawn by a seeded PRNG, then the raw-socket cases; prints the requests sent, every finding,
 * and the server's peak memory, and exits 1 if anything was found. Options:
 *   --seed=N          another seed, other combinations (default 7)
 *   --combined=N      combined requests per operation (default 60: ~28,000 requests, about a minute)
 *   --concurrency=N   requests in flight (default 8)
 *   --binary=PATH     fuzz a built binary (`bun run build`) instead of `bun src/main.ts`
 * The server's log is kept in .bench/fuzz-server.log.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Engine } from "../../tests/fuzz/engine";
import { makeFixtures } from "../../tests/fuzz/fixtures";
import { generate } from "../../tests/fuzz/generate";
import { rawCases, runRawCases } from "../../tests/fuzz/headers";
import { serverErrors, unexplainedErrors } from "../../tests/fuzz/report";
import { MAX_RSS_MB, ROOT, SETTLED_RSS_MB, Target } from "../../tests/fuzz/target";

export async function runFuzz(argv: string[]): Promise<number> {
  const option = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const seed = Number(option("seed") ?? 7);
  const combined = Number(option("combined") ?? 60);
  const concurrency = Number(option("concurrency") ?? 8);
  const binary = option("binary");

  const dir = mkdtempSync(join(tmpdir(), "cairn-fuzz-bench-"));
  const target = new Target({
    dataDir: join(dir, "data"),
    logPath: join(dir, "server.log"),
    command: binary ? [resolve(binary)] : undefined,
  });
  const cleanUp = async () => {
    await target.stop();
    mkdirSync(join(ROOT, ".bench"), { recursive: true });
    try {
      copyFileSync(join(dir, "server.log"), join(ROOT, ".bench", "fuzz-server.log"));
    } catch {
      // never started: no log
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.on("SIGINT", () => void cleanUp().then(() => process.exit(130)));

  try {
    const started = performance.now();
    await target.start();
    const { fixtures, problems } = await makeFixtures(target.url);
    const doc = await (await fetch(`${target.url}/api/openapi.json`)).json();
    const requests = generate(doc, fixtures, { seed, sampled: "all", combined });
    console.log(
      `fuzz: seed ${seed}, ${requests.length} requests to ${new Set(requests.map((r) => r.op)).size} ` +
        `operations, ${concurrency} in flight, against ${binary ?? "bun src/main.ts"}`,
    );
    const engine = new Engine(target, concurrency);
    const progress = setInterval(
      () => console.log(`  … ${engine.findings.sent} sent, ${engine.findings.failures.length} found, RSS ${target.rssMb().toFixed(0)} MB`),
      10_000,
    );
    await engine.run(requests);
    const raw = await runRawCases(engine, rawCases(fixtures));
    clearInterval(progress);
    const settled = await target.settledRssMb(SETTLED_RSS_MB, 10_000);

    const f = engine.findings;
    const fivexx = f.failures.filter((l) => / -> 5\d\d /.test(l)).length;
    const failures = [...problems.filter((p) => / -> 5\d\d /.test(p)), ...f.failures];
    const logged = unexplainedErrors(target);
    console.log(
      `\nfuzz: ${f.sent} requests (${raw} over a raw socket) in ` +
        `${((performance.now() - started) / 1000).toFixed(0)} s; answers ${JSON.stringify(f.statuses)}`,
    );
    console.log(
      `fuzz: ${fivexx} answered 5xx, ${f.crashes.length} crash(es), ${failures.length} finding(s) in all; max RSS ` +
        `${target.maxRssMb.toFixed(0)} MB (bound ${MAX_RSS_MB}), ${settled.toFixed(0)} MB once quiet`,
    );
    if (failures.length) console.log(`\n${failures.join("\n")}`);
    const causes = serverErrors(target);
    if (causes.length) console.log(`\nwhat the server logged for the 5xx answers:\n${causes.join("\n")}`);
    if (logged.length) console.log(`\nother errors the server logged:\n${logged.join("\n")}`);
    console.log("\nserver log: .bench/fuzz-server.log");
    // Memory once quiet is only shown: a long run leaves more pages, comments and cached search behind.
    return failures.length || logged.length || target.maxRssMb >= MAX_RSS_MB ? 1 : 0;
  } finally {
    await cleanUp();
  }
}
