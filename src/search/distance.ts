/**
 * Damerau-Levenshtein distance (the "optimal string alignment" form: insertions, deletions,
 * substitutions and swaps of two neighbouring letters, each costing one).
 */
export function editDistance(a: string, b: string): number {
  let before = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      row.push(d);
    }
    before = prev;
    prev = row;
  }
  return prev[b.length];
}

/**
 * The words of a sorted list within `max` edits of `query`, or of a beginning of it that
 * `endsAt(j)` accepts (query.slice(0, j), e.g. with an inflection left off): word → distance.
 *
 * One pass over the list with one row of the edit-distance table per letter, as a walk of a
 * letter tree would: neighbours in sorted order share a prefix, so a word reuses the rows of
 * the previous one up to their common prefix, and once every entry of a row exceeds `max`
 * (no extension of that prefix can come back within reach) all words with that prefix are
 * skipped without a look. On 50,000 words a query touches a small part of the list.
 */
export function wordsNear(sorted: readonly string[], query: string, max: number, endsAt: (j: number) => boolean): Map<string, number> {
  const n = query.length;
  const found = new Map<string, number>();
  const rows: Int32Array[] = [Int32Array.from({ length: n + 1 }, (_, j) => j)];
  let last = "";
  let prunedAt = Infinity; // the prefix length of `last` at which every entry exceeded max
  for (const word of sorted) {
    let common = 0;
    const limit = Math.min(last.length, word.length);
    while (common < limit && last.charCodeAt(common) === word.charCodeAt(common)) common++;
    if (common >= prunedAt) continue; // shares a prefix already out of reach
    last = word;
    prunedAt = Infinity;
    for (let k = common + 1; k <= word.length; k++) {
      const prev = rows[k - 1];
      const row = (rows[k] ??= new Int32Array(n + 1));
      const c = word.charCodeAt(k - 1);
      row[0] = k;
      let best = k;
      for (let j = 1; j <= n; j++) {
        let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (c === query.charCodeAt(j - 1) ? 0 : 1));
        if (k > 1 && j > 1 && c === query.charCodeAt(j - 2) && word.charCodeAt(k - 2) === query.charCodeAt(j - 1))
          d = Math.min(d, rows[k - 2][j - 2] + 1);
        row[j] = d;
        if (d < best) best = d;
      }
      if (best > max) {
        prunedAt = k;
        break;
      }
    }
    if (prunedAt !== Infinity) continue;
    const row = rows[word.length];
    let distance = Infinity;
    for (let j = 0; j <= n; j++) if (row[j] < distance && endsAt(j)) distance = row[j];
    if (distance <= max) found.set(word, distance);
  }
  return found;
}
