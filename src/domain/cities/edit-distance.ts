// Typo tolerance for city names: optimal string alignment distance (Levenshtein plus adjacent
// transpositions, the slips thumbs make on phone keyboards), cut off early above `max`.

const rowA: number[] = [];
const rowB: number[] = [];
const rowC: number[] = [];

/** The OSA distance between a and b, or max + 1 as soon as it is known to exceed max. */
export function editDistance(a: string, b: string, max: number): number {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  if (la === 0 || lb === 0) return Math.max(la, lb);
  let prevPrev = rowA;
  let prev = rowB;
  let cur = rowC;
  for (let j = 0; j <= lb; j++) prev[j] = j;
  for (let i = 1; i <= la; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1);
      const cost = ca === cb ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) d = Math.min(d, prevPrev[j - 2]! + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    const spare = prevPrev;
    prevPrev = prev;
    prev = cur;
    cur = spare;
  }
  const result = prev[lb]!;
  return result > max ? max + 1 : result;
}

/** The strings one deletion away from key (and key itself): the symmetric-delete index of SymSpell. */
export function deletions(key: string): string[] {
  const out = [key];
  for (let i = 0; i < key.length; i++) {
    const variant = key.slice(0, i) + key.slice(i + 1);
    if (variant !== out[out.length - 1]) out.push(variant);
  }
  return out;
}
