/**
 * `bun scripts/bench/fuzzy-search.ts [words] [pages]`: what a search for a mistyped word costs on a
 * vocabulary of about `words` distinct words (default 50,000) spread over `pages` pages
 * (default 5,000, 120 words each), in-process through the service (no HTTP). Prints the first
 * search that reads the vocabulary, then one- and two-edit searches each asked for the first
 * time (answers are kept until the next write, so every query is new), and a search right after
 * a write (the written page's words are added, not the whole vocabulary read again).
 */
import { makeEnv, signUp } from "../../tests/harness";
import type { UserCaller } from "../../src/identity/caller";
import { createPage } from "../../src/pages/service";
import { createSpace } from "../../src/commands/create-space";
import { findUserWithRoleById } from "../../src/users/service";
import { catchUpSearchIndex } from "../../src/search/indexer";
import { search } from "../../src/search/service";
import { vocabulary } from "../../src/search/vocabulary";
import { searchIndex } from "../../src/search/indexer";

const wordCount = Number(process.argv[2] ?? 50_000);
const pageCount = Number(process.argv[3] ?? 5_000);
const PER_PAGE = 120;

let seed = 42;
const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
const SYLLABLES = (
  "ba be bi bo bu ca ce co cu da de di do fa fe fi fo ga ge go la le li lo lu ma me mi mo mu na ne ni no pa pe pi " +
  "po ra re ri ro ru sa se si so ta te ti to tu va ve vi vo str tr pl gr ch sh th nd nt st rk"
).split(" ");
const ENDINGS = ["", "", "", "s", "ing", "ed", "tion", "er", "ly", "ment"];
const words = new Set<string>();
while (words.size < wordCount) {
  const n = 2 + Math.floor(random() * 3);
  words.add(
    Array.from({ length: n }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join("") +
      ENDINGS[Math.floor(random() * ENDINGS.length)],
  );
}
const list = [...words];

const env = makeEnv();
try {
  const owner = await signUp(env, "owner@example.com");
  const found = findUserWithRoleById(env.core, owner.id)!;
  const caller: UserCaller = {
    kind: "user",
    ip: "local",
    user: found.user,
    role: found.role,
    permissions: new Set(found.role.permissions),
    session: null,
    token: null,
  };
  const space = createSpace(env.core, caller, { key: "FZ", name: "Fuzzy" });
  const doc = (text: string) => JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });
  let next = 0;
  const t0 = performance.now();
  for (let start = 0; start < pageCount; start += 500) {
    env.core.tx(() => {
      for (let i = start; i < Math.min(start + 500, pageCount); i++) {
        // Every word at least once (in order), then random ones: a long tail, as in real pages.
        const body = Array.from({ length: PER_PAGE }, () => (next < list.length ? list[next++] : list[Math.floor(random() * list.length)]));
        createPage(env.core, caller, { spaceId: space.id, title: `Page ${i}`, contentJson: doc(body.join(" ")) });
      }
    });
    catchUpSearchIndex(env.core);
  }
  console.log(`seeded ${pageCount} pages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const time = (q: string) => {
    const t = performance.now();
    const hits = search(env.core, caller, { q });
    return { ms: performance.now() - t, hits: hits.length };
  };
  /** A typo of a word of the vocabulary: one letter changed (and, for two edits, another dropped). */
  const typo = (edits: number, minLength: number) => {
    let w = list[Math.floor(random() * list.length)];
    while (w.length < minLength) w = list[Math.floor(random() * list.length)];
    const i = 1 + Math.floor(random() * (w.length - 2));
    let t = w.slice(0, i) + (w[i] === "x" ? "q" : "x") + w.slice(i + 1);
    if (edits === 2) t = t.slice(0, 1) + t.slice(2);
    return t;
  };
  const first = time(typo(1, 5));
  console.log(
    `first fuzzy search (reads the vocabulary of ${vocabulary(env.core, searchIndex(env.core)).sorted.length} stems): ` +
      `${first.ms.toFixed(1)} ms`,
  );
  const report = (name: string, queries: string[]) => {
    const ms = queries.map((q) => time(q).ms).sort((a, b) => a - b);
    const at = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))].toFixed(2);
    console.log(`${name}: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms (${ms.length} queries)`);
  };
  report(
    "one edit (5-7 letters)",
    Array.from({ length: 200 }, () => typo(1, 5)).filter((q) => q.length <= 7),
  );
  report(
    "two edits (8+ letters)",
    Array.from({ length: 200 }, () => typo(2, 10)),
  );
  report(
    "exact word, for comparison",
    Array.from({ length: 200 }, () => list[Math.floor(random() * list.length)]),
  );
  const w0 = performance.now();
  createPage(env.core, caller, { spaceId: space.id, title: "New", contentJson: doc("zanzibarquokka appears here") });
  const write = performance.now() - w0;
  console.log(
    `after a write (${write.toFixed(1)} ms): search for "zanzibarquoka" ` +
      `${time("zanzibarquoka").ms.toFixed(2)} ms, ${time("zanzibarquoka").hits} hit`,
  );
} finally {
  env.close();
}
