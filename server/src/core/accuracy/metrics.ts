// Agreement between a device output and the float reference computed on the same input: the
// figures published DFC logbooks report (max|err|, relative error, correlation), plus cosine.
// Pure; accumulates in float64 with two passes (means first), like numpy does, so the numbers
// match numpy's to ~1e-12 on float32 data (test/unit/accuracy/accuracy-core.test.ts).

export interface ErrorMetrics {
  /** Elements compared. */
  count: number;
  /** max |device − reference| and where it is (flat index, reference layout). */
  maxAbsError: number;
  maxAbsErrorIndex: number;
  meanAbsError: number;
  /** ‖device − reference‖₂ / ‖reference‖₂; null when the reference is all zeros. */
  relativeError: number | null;
  /** Pearson correlation; null when either side is constant (no variance to correlate). */
  correlation: number | null;
  /** Cosine similarity; null when either side is all zeros. */
  cosine: number | null;
  /** NaN or ±Inf elements on the device side and on the reference side (then the figures are NaN). */
  nonFinite: { device: number; reference: number };
}

/** Compares two equally long arrays element by element. Throws on a length mismatch (a caller bug). */
export function compareArrays(device: ArrayLike<number>, reference: ArrayLike<number>): ErrorMetrics {
  const n = device.length;
  if (reference.length !== n) throw new Error(`cannot compare ${n} device values with ${reference.length} reference values`);
  let sumD = 0;
  let sumR = 0;
  let badD = 0;
  let badR = 0;
  for (let i = 0; i < n; i++) {
    const d = device[i];
    const r = reference[i];
    if (!Number.isFinite(d)) badD++;
    if (!Number.isFinite(r)) badR++;
    sumD += d;
    sumR += r;
  }
  const meanD = n ? sumD / n : 0;
  const meanR = n ? sumR / n : 0;
  let maxAbs = 0;
  let maxAt = -1;
  let sumAbs = 0;
  let sqErr = 0;
  let sqR = 0;
  let sqD = 0;
  let dot = 0;
  let covDR = 0;
  let varD = 0;
  let varR = 0;
  for (let i = 0; i < n; i++) {
    const d = device[i];
    const r = reference[i];
    const e = d - r;
    const a = Math.abs(e);
    // `!(a <= max)` is also true for NaN: the first NaN becomes (and stays) the worst element.
    if (!(a <= maxAbs) && !Number.isNaN(maxAbs)) {
      maxAbs = a;
      maxAt = i;
    }
    sumAbs += a;
    sqErr += e * e;
    sqR += r * r;
    sqD += d * d;
    dot += d * r;
    const cd = d - meanD;
    const cr = r - meanR;
    covDR += cd * cr;
    varD += cd * cd;
    varR += cr * cr;
  }
  if (maxAt < 0 && n) maxAt = 0;
  return {
    count: n,
    maxAbsError: n ? maxAbs : 0,
    maxAbsErrorIndex: maxAt,
    meanAbsError: n ? sumAbs / n : 0,
    relativeError: sqR > 0 ? Math.sqrt(sqErr) / Math.sqrt(sqR) : Number.isNaN(sqR) ? NaN : null,
    correlation: varD > 0 && varR > 0 ? covDR / Math.sqrt(varD * varR) : Number.isNaN(varD + varR) ? NaN : null,
    cosine: sqD > 0 && sqR > 0 ? dot / Math.sqrt(sqD * sqR) : Number.isNaN(sqD + sqR) ? NaN : null,
    nonFinite: { device: badD, reference: badR },
  };
}
