// "Did you mean" candidates: optimal-string-alignment distance with an early cut-off, so the
// quick fix for an unknown layer stays cheap against models with thousands of layers.

export function editDistance(a: string, b: string, limit = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n];
}

/** Up to `max` candidates close to `word`, best first. */
export function suggest(word: string, candidates: Iterable<string>, max = 3): string[] {
  const limit = Math.max(1, Math.min(3, Math.floor(word.length / 3)));
  // Ties keep the candidates' order (schemas list common values first).
  const scored: { c: string; d: number; i: number }[] = [];
  const lower = word.toLowerCase();
  let i = 0;
  for (const c of candidates) {
    i++;
    if (c === word) continue;
    const d = c.toLowerCase() === lower ? 0 : editDistance(lower, c.toLowerCase(), limit);
    if (d <= limit) scored.push({ c, d, i });
  }
  scored.sort((x, y) => x.d - y.d || x.i - y.i);
  return scored.slice(0, max).map((s) => s.c);
}
