/**
 * The top functions of a .cpuprofile (what `bun --cpu-prof` writes), by self time and by total
 * time: `bun scripts/bench/cpu-profile-top.ts FILE.cpuprofile [top=40] [--match=TEXT] [--from=S]`.
 * `--match` keeps only the samples whose stack holds a frame whose function or file contains
 * TEXT (one request kind's handler, say), so the share is of that part of the run; `--from=S`
 * leaves out the first S seconds (the start-up before the load).
 */
import { readProfile, type Frame } from "./cpu-profile";

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith("--") && !/^\d+$/.test(a));
if (!file) throw new Error("usage: cpu-profile-top.ts FILE.cpuprofile [top] [--match=TEXT]");
const top = Number(args.find((a) => /^\d+$/.test(a)) ?? 40);
const match = args.find((a) => a.startsWith("--match="))?.slice(8);
/** --from=S: leave out the first S seconds of the run (start-up, before the load). */
const fromUs = Number(args.find((a) => a.startsWith("--from="))?.slice(7) ?? 0) * 1e6;

const profile = readProfile(file);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const short = (url: string) => url.replace(/^.*\/(src|node_modules)\//, "$1/").replace(/^file:\/\//, "");
const nameOf = (f: Frame) => `${f.functionName || "(anonymous)"} ${short(f.url)}:${f.lineNumber + 1}`;

/**
 * Each sample counts as the sampling interval: the time since the previous sample (timeDeltas)
 * also holds the time the thread slept in between, which would weigh the first function run
 * after an idle moment (a timer's, the next request's) by the idle time.
 */
const interval = (() => {
  const sorted = profile.timeDeltas.filter((d) => d > 0).sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? 1000;
})();
const weight = (i: number) => Math.min(profile.timeDeltas[i] ?? 0, interval);

const self = new Map<string, number>();
const total = new Map<string, number>();
let all = 0;
let clock = 0;
for (let i = 0; i < profile.samples.length; i++) {
  clock += profile.timeDeltas[i] ?? 0;
  if (clock < fromUs) continue;
  const dt = weight(i);
  const stack: Frame[] = [];
  for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id)) stack.push(byId.get(id)!.callFrame);
  const leaf = stack[0];
  if (!leaf || leaf.functionName === "(idle)" || (leaf.functionName === "(program)" && stack.length === 1)) continue;
  if (match && !stack.some((f) => nameOf(f).includes(match))) continue;
  all += dt;
  self.set(nameOf(leaf), (self.get(nameOf(leaf)) ?? 0) + dt);
  for (const name of new Set(stack.map(nameOf))) total.set(name, (total.get(name) ?? 0) + dt);
}

const print = (title: string, m: Map<string, number>) => {
  console.log(`\n${title} (of ${(all / 1000).toFixed(0)} ms sampled${match ? `, stacks with ${match}` : ""})`);
  for (const [name, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((us / all) * 100).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`);
};
print("self time", self);
print("total time", total);

// --callers=NAME: who calls the functions named NAME (self time of NAME by its caller's frame).
const callersOf = args.find((a) => a.startsWith("--callers="))?.slice(10);
if (callersOf) {
  const by = new Map<string, number>();
  let sum = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const leafNode = byId.get(profile.samples[i])!;
    if (leafNode.callFrame.functionName !== callersOf) continue;
    const chain: string[] = [];
    for (let id = parent.get(leafNode.id); id !== undefined && chain.length < 3; id = parent.get(id))
      chain.push(nameOf(byId.get(id)!.callFrame));
    const key = chain.join(" < ");
    const dt = weight(i);
    sum += dt;
    by.set(key, (by.get(key) ?? 0) + dt);
  }
  console.log(`\ncallers of ${callersOf} (${(sum / 1000).toFixed(0)} ms self)`);
  for (const [name, us] of [...by].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((us / sum) * 100).toFixed(1).padStart(5)} %  ${name}`);
}
