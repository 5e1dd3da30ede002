/**
 * "Did you mean ...?" for names a definition misspells (docs/standard-library.md): an unknown function or subworkflow, a
 * `next` to a step that does not exist. The closest known name by edit distance (optimal string alignment:
 * insertions, deletions, substitutions and swaps of neighbours each cost 1; case is ignored), offered only when
 * it is close for the name's length, so an unrelated name gets no suggestion.
 */

/** The suffix ` (did you mean 'x'?)` for the closest of `candidates` to `name`, or '' when none is close. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const best = closestName(name, candidates);
  return best === undefined ? '' : ` (did you mean '${best}'?)`;
}

/**
 * The candidate closest to `name`, or undefined when none is within the allowed distance: 1 for names up to 4
 * characters, 2 up to 8, 3 beyond. Ties go to the first candidate.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const allowed = name.length <= 4 ? 1 : name.length <= 8 ? 2 : 3;
  const a = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = allowed + 1;
  for (const c of candidates) {
    if (c === name || Math.abs(c.length - name.length) > allowed) continue;
    const d = editDistance(a, c.toLowerCase(), bestDistance);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** Optimal string alignment distance between `a` and `b`; any value ≥ `limit` means "at least limit". */
function editDistance(a: string, b: string, limit: number): number {
  if (a === b) return 0;
  let prev2: number[] = [];
  let prev: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      if (d < rowMin) rowMin = d;
    }
    if (rowMin >= limit) return limit;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}
