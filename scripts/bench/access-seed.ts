/**
 * Seeds a space with restrictions for the access benchmarks, through the public API only (the
 * caller provides `api`: over HTTP in the benchmark, in-process elsewhere). The owner creates the
 * space (so administers it) and a reader reads it through the Everyone group.
 *
 * Shape: `sections` top-level pages, each with 10 children, each with `leaves` children
 * (sections × 101 pages with 9 leaves: 100 sections give 10,100 pages). Restrictions go on
 * pages at all three depths, alternating View and Edit, and alternately naming the reader
 * ("inside") or only the owner ("outside"), so the reader passes some and fails others.
 */

export type Api = (method: string, path: string, body?: unknown) => Promise<any>;

export interface RestrictedSpace {
  spaceId: string;
  key: string;
  pages: number;
  restrictions: number;
  /** Pages the reader can see (for GET page), and ones it cannot (never requested). */
  visible: string[];
  hidden: number;
}

/** Runs `jobs` with at most `width` in flight (SQLite serialises writes; this only hides latency). */
async function inParallel<T>(items: T[], width: number, job: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await job(items[next++]);
    }),
  );
}

// None of these is in the content benchmark's sample vocabulary, so searches measure this space.
const WORDS = [
  "alpha",
  "island",
  "cairn",
  "delta",
  "engine",
  "forest",
  "garden",
  "harbour",
  "island",
  "jungle",
  "kettle",
  "lantern",
  "meadow",
  "needle",
  "orchard",
  "pepper",
];
const body = (i: number) =>
  JSON.stringify({
    type: "doc",
    content: [
      {
        type: "paragraph",
        content: [
          {
            type: "text",
            text:
              `Page ${i} about ${WORDS[i % WORDS.length]} and ${WORDS[(i * 7) % WORDS.length]}, ` +
              `words on every page: zephyr quorum tally.`,
          },
        ],
      },
    ],
  });

export async function seedRestrictedSpace(
  api: Api,
  opts: { key: string; sections: number; leaves: number; restrictions: number; ownerId: string; readerId: string },
): Promise<RestrictedSpace> {
  const space = await api("POST", "/api/spaces", { key: opts.key, name: `Access bench ${opts.key}` });
  let n = 0;
  const create = async (title: string, parentPageId: string | null) =>
    (await api("POST", "/api/pages", { spaceId: space.id, parentPageId, title, contentJson: body(++n) })).id as string;

  const levels: string[][] = [[], [], []];
  const sections = Array.from({ length: opts.sections }, (_, i) => i);
  await inParallel(sections, 8, async (s) => {
    const top = await create(`Section ${s} ${WORDS[s % WORDS.length]}`, null);
    levels[0].push(top);
    for (let c = 0; c < 10; c++) {
      const child = await create(`Chapter ${s}.${c} ${WORDS[(s + c) % WORDS.length]}`, top);
      levels[1].push(child);
      const leaves = Array.from({ length: opts.leaves }, (_, l) => l);
      await Promise.all(
        leaves.map(async (l) => levels[2].push(await create(`Note ${s}.${c}.${l} ${WORDS[(s + c + l) % WORDS.length]}`, child))),
      );
    }
  });

  // Spread over the depths: a fifth on sections, two fifths on chapters, two fifths on notes.
  const targets: string[] = [];
  const pick = (level: string[], count: number) => {
    const step = Math.max(1, Math.floor(level.length / Math.max(count, 1)));
    for (let i = 0; i < count && i * step < level.length; i++) targets.push(level[i * step]);
  };
  const r = opts.restrictions;
  pick(levels[0], Math.min(levels[0].length, Math.round(r / 5)));
  pick(levels[1], Math.round((2 * r) / 5));
  pick(levels[2], r - targets.length);

  const outside = new Set<string>();
  await inParallel(
    targets.map((pageId, i) => ({ pageId, operation: i % 2, inside: Math.floor(i / 2) % 2 === 0 })),
    8,
    async ({ pageId, operation, inside }) => {
      await api("POST", `/api/pages/${pageId}/restrictions`, {
        principalType: 0,
        principalId: inside ? opts.readerId : opts.ownerId,
        operation,
      });
      if (!inside && operation === 0) outside.add(pageId);
    },
  );

  // What the reader may not see: the View restrictions that leave them out, with their subtrees.
  const tree = await api("GET", `/api/pages/tree?spaceId=${space.id}`);
  const visible: string[] = [];
  let hidden = 0;
  const walk = (nodes: Array<{ id: string; children: any[] }>, under: boolean) => {
    for (const node of nodes) {
      const out = under || outside.has(node.id);
      if (out) hidden++;
      else visible.push(node.id);
      walk(node.children, out);
    }
  };
  walk(tree, false);
  return { spaceId: space.id, key: opts.key, pages: n, restrictions: targets.length, visible, hidden };
}
