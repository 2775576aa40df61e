/**
 * Realistic page bodies for seeding benchmarks and tests: headings, paragraphs, a bullet list
 * and a code block, deterministic from the seed. The vocabulary has a common core, a long tail
 * of rarer invented words and some Chinese/Japanese terms, so that search benchmarks see the
 * word-frequency spread of real pages rather than one word repeated.
 */

export interface SampleNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: SampleNode[];
  text?: string;
  marks?: { type: string; attrs?: Record<string, unknown> }[];
}

const COMMON = `the of and to a in is for on that with as by this be are from at it or we will can should
  team project release deploy server client database query index page space user account access
  permission group review draft version history change update backup restore migration schema table
  column report meeting agenda decision action owner deadline budget forecast quarter customer
  support ticket incident outage monitor alert metric latency throughput cache queue worker job
  schedule config setting option default feature flag rollout test build pipeline branch merge
  commit issue bug fix patch security token password session login audit policy compliance
  document template guide tutorial overview summary background goal scope risk dependency
  milestone roadmap estimate priority status blocked done progress week month plan design
  architecture service endpoint request response error retry timeout limit capacity storage
  network region cluster node container image volume secret certificate domain proxy firewall
  invoice contract vendor partner onboarding training handbook process workflow approval`
  .split(/\s+/)
  .filter(Boolean);

const CJK = ["管理", "設定", "検索", "会議", "プロジェクト", "文書", "用户", "权限", "데이터", "회의"];
const SYLLABLES = "ka ri to mo ne sa lu vi den tor bel quin ar os ex fal gro hem ip jus lam nor pra sil tev";
const LANGUAGES = ["typescript", "python", "sql", "bash", "go"];

/** Mulberry32: tiny, fast, and the same sequence on every platform. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** About 4,000 invented words, the same for every seed (a shared vocabulary across pages). */
const RARE: string[] = (() => {
  const rnd = seededRandom(20250101);
  const syllables = SYLLABLES.split(" ");
  const words = new Set<string>();
  while (words.size < 4000) {
    const n = 2 + Math.floor(rnd() * 3);
    words.add(Array.from({ length: n }, () => syllables[Math.floor(rnd() * syllables.length)]).join(""));
  }
  return [...words];
})();

export function sampleDocument(seed: number, words = 500): SampleNode & { type: "doc"; content: SampleNode[] } {
  const rnd = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)];
  let left = words;

  // Skewed towards the front of COMMON (Zipf-like), with a tail of rare and CJK words.
  const word = (): string => {
    left--;
    const r = rnd();
    if (r < 0.75) return COMMON[Math.floor(COMMON.length * rnd() ** 2.5)];
    if (r < 0.97) return pick(RARE);
    return pick(CJK);
  };
  const phrase = (n: number) => Array.from({ length: n }, word).join(" ");
  const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const clause = () => capital(phrase(6 + Math.floor(rnd() * 14)));
  const heading = (level: number): SampleNode => ({
    type: "heading",
    attrs: { level },
    content: [{ type: "text", text: capital(phrase(2 + Math.floor(rnd() * 4))) }],
  });

  const paragraph = (): SampleNode => {
    const content: SampleNode[] = [];
    const sentences = 1 + Math.floor(rnd() * 4);
    for (let i = 0; i < sentences; i++) {
      const plain = (i ? " " : "") + clause();
      // Some sentences end on a formatted word, as real pages do.
      if (rnd() < 0.3) {
        content.push(
          { type: "text", text: plain + " " },
          { type: "text", text: word(), marks: [{ type: pick(["bold", "italic", "code"]) }] },
        );
      } else content.push({ type: "text", text: plain });
      content.push({ type: "text", text: "." });
    }
    return { type: "paragraph", content };
  };
  const bulletList = (): SampleNode => ({
    type: "bulletList",
    content: Array.from({ length: 3 + Math.floor(rnd() * 4) }, () => ({
      type: "listItem",
      content: [{ type: "paragraph", content: [{ type: "text", text: capital(phrase(3 + Math.floor(rnd() * 8))) }] }],
    })),
  });
  const codeBlock = (): SampleNode => {
    const lines = Array.from({ length: 3 + Math.floor(rnd() * 6) }, () => `${word()}_${word()}(${word()}, ${Math.floor(rnd() * 100)})`);
    return { type: "codeBlock", attrs: { language: pick(LANGUAGES) }, content: [{ type: "text", text: lines.join("\n") }] };
  };

  const content: SampleNode[] = [heading(1), paragraph()];
  let listDue = true;
  let codeDue = true;
  while (left > 0) {
    content.push(heading(rnd() < 0.7 ? 2 : 3), paragraph());
    if (rnd() < 0.5) content.push(paragraph());
    if (listDue && rnd() < 0.4) content.push(bulletList()), (listDue = false);
    else if (codeDue && rnd() < 0.3) content.push(codeBlock()), (codeDue = false);
  }
  // Every page has its list and code block, however short.
  if (listDue) content.push(bulletList());
  if (codeDue) content.push(codeBlock());
  return { type: "doc", content };
}
