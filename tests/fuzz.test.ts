/**
 * Fuzz: the real server process (`bun src/main.ts serve`) against hostile requests for every
 * operation its own OpenAPI document describes (tests/fuzz/generate.ts), as the Owner's token,
 * its session and anonymously, then against what only a raw socket can send
 * (tests/fuzz/headers.ts). Nothing may answer 500 or more, the process must live through all of
 * it without logging an error, and its memory must stay bounded. The requests come from a fixed
 * corpus and a seeded PRNG, so every run sends the same ones; a failure message is the list of
 * findings, one line each. `bun run bench -- --fuzz` runs the same engine much longer.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Engine } from "./fuzz/engine";
import { makeFixtures, type Fixtures } from "./fuzz/fixtures";
import { generate, type Plan } from "./fuzz/generate";
import { rawCases, runRawCases } from "./fuzz/headers";
import { serverErrors, unexplainedErrors } from "./fuzz/report";
import { MAX_RSS_MB, SETTLED_RSS_MB, Target } from "./fuzz/target";

const PLAN: Plan = { seed: 20_261_123, sampled: 3, combined: 0 };

let dir: string;
let target: Target;
let engine: Engine;
let fixtures: Fixtures;
let setupProblems: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cairn-fuzz-"));
  // From source, passwords hashed at the least cost (tests/fuzz/cheap-hashing.ts says why).
  const command = ["bun", "--preload", join(import.meta.dir, "fuzz", "cheap-hashing.ts"), "src/main.ts"];
  target = new Target({ dataDir: join(dir, "data"), logPath: join(dir, "server.log"), command });
  await target.start();
  engine = new Engine(target, 8);
  ({ fixtures, problems: setupProblems } = await makeFixtures(target.url));
}, 60_000);

afterAll(async () => {
  await target?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Throws with every finding, one per line, so that the test's failure message is the bug list. */
function expectNone(what: string, failures: string[], appendix: string[] = []) {
  if (failures.length)
    throw new Error(
      `${failures.length} ${what}:\n${failures.join("\n")}` +
        `${appendix.length ? `\n\nwhat the server logged for them:\n${appendix.join("\n")}` : ""}`,
    );
}

test("every operation answers hostile bodies, parameters and headers without a 5xx", async () => {
  const doc = await (await fetch(`${target.url}/api/openapi.json`)).json();
  const requests = generate(doc, fixtures, PLAN);
  const started = performance.now();
  const before = engine.findings.failures.length;
  await engine.run(requests);
  const { sent, statuses } = engine.findings;
  const operations = Object.values<object>(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  console.log(
    `fuzz: ${sent} requests to ${operations} operations in ${((performance.now() - started) / 1000).toFixed(1)} s; answers ` +
      `${JSON.stringify(statuses)}; max RSS ${target.maxRssMb.toFixed(0)} MB`,
  );
  for (const problem of setupProblems.filter((p) => !/-> 5\d\d /.test(p)))
    console.log(`fuzz: a fixture could not be made, its id is a bogus one: ${problem}`);
  expect(sent).toBeGreaterThan(1_000);
  const failures = [...setupProblems.filter((p) => /-> 5\d\d /.test(p)), ...engine.findings.failures.slice(before)];
  expectNone("requests answered 5xx, none or with a crash", failures, serverErrors(target));
}, 300_000); // ~10 s, and ~10 s more to find the request behind each crash (90 s at most in all)

test("hostile headers over a raw socket: never a 5xx, never the process's end", async () => {
  const before = engine.findings.failures.length;
  const count = await runRawCases(engine, rawCases(fixtures));
  console.log(`fuzz: ${count} raw-socket requests`);
  expectNone("raw-socket requests answered 5xx or stopped the process", engine.findings.failures.slice(before));
}, 300_000);

test("the process stays alive, within memory, and logs no error of its own", async () => {
  const health = await engine.health();
  const settled = await target.settledRssMb(SETTLED_RSS_MB, 10_000);
  console.log(
    `fuzz: max RSS ${target.maxRssMb.toFixed(0)} MB, ${settled.toFixed(0)} MB once quiet, ${target.startRssMb.toFixed(0)} MB at start`,
  );
  expect(target.maxRssMb).toBeGreaterThan(0); // it was measured at all
  const problems = [
    ...(target.alive() && health.status === 200
      ? []
      : [
          `at the end the process ` +
            (target.alive() ? `answered GET /api/health with ${health.status || "nothing"}` : `had exited (${target.exitDescription()})`),
        ]),
    ...engine.findings.crashes.map((c) => `crashed (and was started again): ${c}`),
    ...(target.maxRssMb >= MAX_RSS_MB ? [`RSS reached ${target.maxRssMb.toFixed(0)} MB during the run (bound ${MAX_RSS_MB} MB)`] : []),
    ...(settled >= SETTLED_RSS_MB ? [`RSS still ${settled.toFixed(0)} MB after 10 s of quiet (bound ${SETTLED_RSS_MB} MB)`] : []),
    ...unexplainedErrors(target).map((e) => `logged: ${e}`),
  ];
  expectNone("problems with the process itself", problems);
}, 30_000);
