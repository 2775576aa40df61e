/**
 * The longest single holds in a .cpuprofile (what `bun --cpu-prof` writes): runs of consecutive
 * samples with the same stack, longest first, each with when it began and its stack (innermost
 * first). `bun scripts/bench/cpu-profile-holds.ts FILE.cpuprofile [top=15]`. Where
 * cpu-profile-top.ts says where the CPU goes overall, this says what held the event loop at
 * once: one statement waiting on a lock shows as one long run, many short checks never do.
 */
import { readProfile, type Frame } from "./cpu-profile";

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error("usage: cpu-profile-holds.ts FILE.cpuprofile [top]");
const top = Number(topArg ?? 15);
const profile = readProfile(file);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const nameOf = (f: Frame) => `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\/(src|node_modules)\//, "$1/")}:${f.lineNumber + 1}`;
const stackOf = (id: number) => {
  const frames: string[] = [];
  for (let at: number | undefined = id; at !== undefined && frames.length < 9; at = parent.get(at))
    frames.push(nameOf(byId.get(at)!.callFrame));
  return frames.join(" < ");
};

const times: number[] = [];
let t = profile.startTime;
for (const d of profile.timeDeltas) times.push((t += d));
// A gap of more than 5 ms between samples ends a run (the thread was idle or not sampled).
const runs: { ms: number; atS: number; id: number }[] = [];
let start = 0;
for (let i = 1; i <= profile.samples.length; i++) {
  if (i === profile.samples.length || profile.samples[i] !== profile.samples[start] || times[i] - times[i - 1] > 5_000) {
    runs.push({ ms: (times[i - 1] - times[start]) / 1000, atS: (times[start] - times[0]) / 1e6, id: profile.samples[start] });
    start = i;
  }
}
runs.sort((a, b) => b.ms - a.ms);
for (const r of runs.slice(0, top)) console.log(`${r.ms.toFixed(0)} ms at ${r.atS.toFixed(2)} s: ${stackOf(r.id)}`);
