/**
 * The table of a comparison (compare.ts): each figure for both builds, the ratio and the noise.
 */
import { betterWhen } from "./history";
import { median } from "./server";

export interface Side {
  label: "ref" | "this";
  commit: string;
  sourceRoot: string;
  binary: string;
  bytes: number;
  runs: Array<Record<string, number>>;
}

const fmt = (n: number) => (Math.abs(n) >= 100 ? String(Math.round(n)) : String(Math.round(n * 1000) / 1000));

/**
 * One row per figure: the median of each side's rounds, the ratio this/ref, and the noise —
 * ± half the larger of the two sides' spreads ((max − min) / median between its rounds). A
 * change is called better or worse only when the two sides' ranges do not overlap.
 */
export function formatComparison(ref: Side, mine: Side): string {
  // "<hash>+changes": a build of the checkout with uncommitted changes.
  const short = (commit: string) => commit.slice(0, 10) + (commit.endsWith("+changes") ? "+changes" : "");
  const rows = [["figure", `ref ${short(ref.commit)}`, `this ${short(mine.commit)}`, "this/ref", "noise", ""]];
  let significant = 0;
  for (const name of Object.keys(mine.runs[0])) {
    const a = ref.runs.map((r) => r[name]).filter((v) => v !== undefined);
    const b = mine.runs.map((r) => r[name]).filter((v) => v !== undefined);
    if (a.length === 0) {
      rows.push([name, "—", fmt(median(b)), "", "", "ref lacks it"]);
      continue;
    }
    const [ma, mb] = [median(a), median(b)];
    const spread = (v: number[], m: number) => (m === 0 ? 0 : (Math.max(...v) - Math.min(...v)) / Math.abs(m));
    const noise = Math.max(spread(a, ma), spread(b, mb));
    const apart = Math.min(...b) > Math.max(...a) || Math.max(...b) < Math.min(...a);
    const better = betterWhen(name);
    // Counts (deliveries, reads…) have no better side: a run that did a little more is no news.
    const word = !apart || better === null ? "" : mb > ma === (better === "higher") ? "better" : "worse";
    if (word) significant++;
    rows.push([name, fmt(ma), fmt(mb), ma === 0 ? "—" : (mb / ma).toFixed(3), `±${(noise * 50).toFixed(1)} %`, word]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const text = rows
    .map((r) =>
      r
        .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
  return [
    text,
    `medians of ${ref.runs.length} runs each, run alternately (ref, this, ref, ` +
      `this…). noise: ± half the larger spread between one side's runs;`,
    `better/worse only where every run of one side lies beyond every run of the other (${significant} figures). Server ` +
      `CPU per request is the steadiest figure; rps and latencies on a shared machine are rough.`,
  ].join("\n");
}
