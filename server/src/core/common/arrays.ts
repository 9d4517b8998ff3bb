// Folds over arrays a file sized. `Math.min(...xs)` passes every element as an argument: past
// about 10⁵ elements it throws "Maximum call stack size exceeded" (a million-entry SNR list lost
// the HAR view's SNR column), and so does `push(...xs)`. Lint (eslint.config.mjs) forbids the
// spread forms in server/ and client/; these loops replace them.

/** The smallest element (Infinity for none), as Math.min without the spread. */
export function minOf(xs: Iterable<number>): number {
  let m = Infinity;
  for (const x of xs) if (x < m || Number.isNaN(x)) m = x;
  return m;
}

/** The largest element (-Infinity for none), as Math.max without the spread. */
export function maxOf(xs: Iterable<number>): number {
  let m = -Infinity;
  for (const x of xs) if (x > m || Number.isNaN(x)) m = x;
  return m;
}

/** Appends every element of each of `lists` to `target` (push(...items) without the spread); returns target. */
export function pushAll<T>(target: T[], ...lists: Iterable<T>[]): T[] {
  for (const items of lists) for (const x of items) target.push(x);
  return target;
}
