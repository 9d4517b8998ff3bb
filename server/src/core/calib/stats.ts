// One pass over a calibration set's elements, in file order, in bounded memory: per-channel
// min/max/mean/std (float64 sums around the channel's first value, so std does not cancel on data
// far from zero), a per-channel histogram whose range grows by doubling (exact counts, one pass, no
// second read of a multi-GB file), a 16-bin histogram of [0, 1) for the np.random.rand test, and
// per-entry min/max and a 64-bit content hash for constant and duplicated entries.
// Elements are addressed by their flat index in the file (C or Fortran order), so a sampled read
// can feed any range. Non-finite values are counted and kept out of the statistics. Pure.

export const HISTOGRAM_BINS = 64;
export const UNIT_BINS = 16;
/** Per-entry checks keep 4 numbers per entry; beyond this many entries they are skipped. */
export const MAX_TRACKED_ENTRIES = 1 << 20;
/** More channels than this along the channel axis: statistics are kept for the array as a whole. */
export const MAX_CHANNELS = 4096;

export interface ChannelStats {
  /** Finite elements counted. */
  count: number;
  min: number;
  max: number;
  mean: number;
  /** Population standard deviation (numpy's default, ddof=0). */
  std: number;
  nonFinite: number;
  histogram: Histogram;
}

export interface Histogram {
  /** bins + 1 edges, covering [min, max]. */
  edges: number[];
  counts: number[];
}

export interface EntryChecks {
  /** Indices of entries whose elements are all equal. */
  constant: number[];
  /** Groups of indices of identical entries (first index first). */
  duplicates: number[][];
  /** Entries that were read whole (the checks cover only these). */
  checked: number;
}

export interface StatsResult {
  channels: ChannelStats[];
  /** Every channel merged. */
  overall: Omit<ChannelStats, 'histogram'>;
  /** Counts of finite values in [k/16, (k+1)/16); values outside [0,1) are not counted. */
  unitBins: number[];
  /** Every finite value counted is an integer. */
  allIntegers: boolean;
  entries?: EntryChecks;
  /** Elements fed. */
  elements: number;
}

export interface Geometry {
  shape: number[];
  fortranOrder: boolean;
  /** Axis holding channels, or -1 for "the whole array is one channel". */
  channelAxis: number;
  /** Integer dtype: histogram bins start one unit wide. */
  integer: boolean;
}

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);

export class StatsAccumulator {
  private readonly c: number;
  private readonly strideC: number;
  private readonly cnt: Float64Array;
  private readonly min: Float64Array;
  private readonly max: Float64Array;
  private readonly shift: Float64Array;
  private readonly s1: Float64Array;
  private readonly s2: Float64Array;
  private readonly bad: Float64Array;
  private readonly hLo: Float64Array;
  private readonly hW: Float64Array;
  private readonly hInv: Float64Array;
  private readonly hist: Float64Array;
  private readonly unit = new Float64Array(UNIT_BINS);
  private integers = true;
  private fed = 0;
  // Entries (axis 0).
  private readonly n: number;
  private readonly entrySize: number;
  private readonly eMin?: Float64Array;
  private readonly eMax?: Float64Array;
  private readonly eH1?: Uint32Array;
  private readonly eH2?: Uint32Array;
  private readonly eSeen?: Float64Array;

  constructor(private readonly g: Geometry) {
    const shape = g.shape;
    const rank = shape.length;
    const axis = g.channelAxis >= 0 && g.channelAxis < rank && shape[g.channelAxis] <= MAX_CHANNELS ? g.channelAxis : -1;
    this.c = axis >= 0 ? Math.max(1, shape[axis]) : 1;
    // Flat-index distance between consecutive values of the channel index.
    let stride = 1;
    if (axis >= 0) {
      if (g.fortranOrder) for (let i = 0; i < axis; i++) stride *= shape[i];
      else for (let i = axis + 1; i < rank; i++) stride *= shape[i];
    }
    // One channel: the index never advances (stride 0 is never reached by the counter).
    this.strideC = axis >= 0 ? stride : 0;
    const c = this.c;
    this.cnt = new Float64Array(c);
    this.min = new Float64Array(c).fill(Infinity);
    this.max = new Float64Array(c).fill(-Infinity);
    this.shift = new Float64Array(c);
    this.s1 = new Float64Array(c);
    this.s2 = new Float64Array(c);
    this.bad = new Float64Array(c);
    this.hLo = new Float64Array(c);
    this.hW = new Float64Array(c); // 0 = no value yet
    this.hInv = new Float64Array(c);
    this.hist = new Float64Array(c * HISTOGRAM_BINS);
    this.n = rank >= 1 ? shape[0] : 1;
    this.entrySize = rank >= 1 ? shape.slice(1).reduce((a, b) => a * b, 1) : 1;
    if (rank >= 2 && this.n <= MAX_TRACKED_ENTRIES && this.entrySize > 0) {
      this.eMin = new Float64Array(this.n).fill(Infinity);
      this.eMax = new Float64Array(this.n).fill(-Infinity);
      this.eH1 = new Uint32Array(this.n).fill(0x811c9dc5);
      this.eH2 = new Uint32Array(this.n).fill(0x01000193);
      this.eSeen = new Float64Array(this.n);
    }
  }

  get channelCount(): number {
    return this.c;
  }

  /** Feeds `count` values that sit at flat indices start, start+1, … of the array. */
  feed(values: Float64Array, count: number, start: number): void {
    this.feedStats(values, count, start);
    if (this.eMin) {
      if (this.g.fortranOrder) this.feedEntriesStrided(values, count, start);
      else this.feedEntriesContiguous(values, count, start);
    }
    this.fed += count;
  }

  // The loops below are kept tight: rare work (the first value of a channel, a histogram that must
  // grow, NaN) goes through method calls, so V8 keeps the loop optimized.
  private feedStats(values: Float64Array, count: number, start: number): void {
    const c = this.c;
    const strideC = this.strideC;
    let ch = c === 1 ? 0 : Math.floor(start / strideC) % c;
    let within = c === 1 ? 0 : start % strideC;
    const { cnt, min, max, shift, s1, s2, unit, hLo, hW, hInv, hist } = this;
    const B = HISTOGRAM_BINS;
    let integers = this.integers;
    for (let k = 0; k < count; k++) {
      const x = values[k];
      if (x - x === 0) {
        const w = hW[ch];
        if (w === 0) this.first(ch, x);
        cnt[ch]++;
        if (x < min[ch]) min[ch] = x;
        if (x > max[ch]) max[ch] = x;
        const d = x - shift[ch];
        s1[ch] += d;
        s2[ch] += d * d;
        // Widths are powers of two, so multiplying by the inverse is exact.
        const j = Math.floor((x - hLo[ch]) * hInv[ch]);
        if (j >= 0 && j < B) hist[ch * B + j]++;
        else this.bin(ch, x);
        if (x >= 0 && x < 1) unit[(x * UNIT_BINS) | 0]++;
        if (integers && Math.floor(x) !== x) integers = false;
      } else this.nonFinite(ch);
      if (++within === strideC) {
        within = 0;
        if (++ch === c) ch = 0;
      }
    }
    this.integers = integers;
  }

  private first(ch: number, x: number): void {
    const B = HISTOGRAM_BINS;
    this.shift[ch] = x;
    // Bins one unit wide for integers, else ~1/4096 of the first value's magnitude (a power of two).
    const w = this.g.integer ? 1 : 2 ** (Math.floor(Math.log2(Math.max(Math.abs(x), 2 ** -60))) - 12);
    this.hW[ch] = w;
    this.hInv[ch] = 1 / w;
    this.hLo[ch] = Math.floor(x / w) * w - (B / 2) * w;
  }

  private nonFinite(ch: number): void {
    this.bad[ch]++;
  }

  /** C order: an entry is a contiguous run; its state lives in locals while it lasts. */
  private feedEntriesContiguous(values: Float64Array, count: number, start: number): void {
    const es = this.entrySize;
    const eMin = this.eMin!;
    const eMax = this.eMax!;
    const eH1 = this.eH1!;
    const eH2 = this.eH2!;
    const eSeen = this.eSeen!;
    let e = Math.floor(start / es);
    let ein = start % es;
    for (let i = 0; i < count;) {
      const take = Math.min(count - i, es - ein);
      let h1 = eH1[e];
      let h2 = eH2[e];
      let mn = eMin[e];
      let mx = eMax[e];
      for (let k = i, end = i + take; k < end; k++) {
        const x = values[k];
        // NaN compares false: it never makes an entry look constant.
        if (x < mn) mn = x;
        if (x > mx) mx = x;
        F64[0] = x;
        h1 = Math.imul(h1 ^ U32[0], 0x01000193) ^ U32[1];
        h2 = Math.imul(h2 ^ U32[1], 0x5bd1e995) + U32[0];
      }
      eH1[e] = h1;
      eH2[e] = h2;
      eMin[e] = mn;
      eMax[e] = mx;
      eSeen[e] += take;
      i += take;
      ein += take;
      if (ein === es) {
        ein = 0;
        e++;
      }
    }
  }

  /** Fortran order: consecutive values belong to consecutive entries. */
  private feedEntriesStrided(values: Float64Array, count: number, start: number): void {
    const n = this.n;
    const eMin = this.eMin!;
    const eMax = this.eMax!;
    const eH1 = this.eH1!;
    const eH2 = this.eH2!;
    const eSeen = this.eSeen!;
    let e = start % n;
    for (let k = 0; k < count; k++) {
      const x = values[k];
      if (x < eMin[e]) eMin[e] = x;
      if (x > eMax[e]) eMax[e] = x;
      F64[0] = x;
      eH1[e] = Math.imul(eH1[e] ^ U32[0], 0x01000193) ^ U32[1];
      eH2[e] = Math.imul(eH2[e] ^ U32[1], 0x5bd1e995) + U32[0];
      eSeen[e]++;
      if (++e === n) e = 0;
    }
  }

  /** x falls outside the histogram's range: widen it, then count x. */
  private bin(ch: number, x: number): void {
    const B = HISTOGRAM_BINS;
    let w = this.hW[ch];
    let lo = this.hLo[ch];
    if (x < lo || x >= lo + B * w) {
      const base = ch * B;
      const h = this.hist;
      while (x < lo || x >= lo + B * w) {
        // Double the bin width towards x. Edges stay multiples of the (power-of-two) width, so
        // every old bin falls whole into one new bin and the counts stay exact.
        const nw = 2 * w;
        const nlo = x < lo ? Math.ceil((lo + B * w) / nw) * nw - B * nw : Math.floor(lo / nw) * nw;
        const moved = new Float64Array(B);
        for (let j = 0; j < B; j++) {
          const v = h[base + j];
          if (v) moved[Math.floor((lo + j * w - nlo) / nw)] += v;
        }
        h.set(moved, base);
        w = nw;
        lo = nlo;
      }
      this.hW[ch] = w;
      this.hInv[ch] = 1 / w;
      this.hLo[ch] = lo;
    }
    let j = Math.floor((x - lo) / w);
    if (j >= B) j = B - 1;
    this.hist[ch * B + j]++;
  }

  result(): StatsResult {
    const channels: ChannelStats[] = [];
    let tc = 0;
    let tmin = Infinity;
    let tmax = -Infinity;
    let tbad = 0;
    // Merge channel sums about a common shift (the first channel's) for the overall figures.
    let gShift = 0;
    let gShiftSet = false;
    let g1 = 0;
    let g2 = 0;
    for (let ch = 0; ch < this.c; ch++) {
      const n = this.cnt[ch];
      const mean = n ? this.shift[ch] + this.s1[ch] / n : NaN;
      const variance = n ? Math.max(0, this.s2[ch] / n - (this.s1[ch] / n) ** 2) : NaN;
      channels.push({
        count: n,
        min: n ? this.min[ch] : NaN,
        max: n ? this.max[ch] : NaN,
        mean,
        std: Math.sqrt(variance),
        nonFinite: this.bad[ch],
        histogram: this.histogramOf(ch),
      });
      tbad += this.bad[ch];
      if (!n) continue;
      tc += n;
      tmin = Math.min(tmin, this.min[ch]);
      tmax = Math.max(tmax, this.max[ch]);
      if (!gShiftSet) {
        gShift = this.shift[ch];
        gShiftSet = true;
      }
      // Σ(x − g) = Σ(x − s) + n(s − g);  Σ(x − g)² = Σ(x − s)² + 2(s − g)Σ(x − s) + n(s − g)²
      const dsg = this.shift[ch] - gShift;
      g2 += this.s2[ch] + 2 * dsg * this.s1[ch] + n * dsg * dsg;
      g1 += this.s1[ch] + n * dsg;
    }
    const overall = {
      count: tc,
      min: tc ? tmin : NaN,
      max: tc ? tmax : NaN,
      mean: tc ? gShift + g1 / tc : NaN,
      std: tc ? Math.sqrt(Math.max(0, g2 / tc - (g1 / tc) ** 2)) : NaN,
      nonFinite: tbad,
    };
    return { channels, overall, unitBins: Array.from(this.unit), allIntegers: this.integers && tc > 0, entries: this.entryChecks(), elements: this.fed };
  }

  private histogramOf(ch: number): Histogram {
    const B = HISTOGRAM_BINS;
    const w = this.hW[ch];
    if (w === 0) return { edges: [], counts: [] };
    const counts = Array.from(this.hist.subarray(ch * B, ch * B + B));
    let first = counts.findIndex((v) => v > 0);
    let last = B - 1 - [...counts].reverse().findIndex((v) => v > 0);
    if (first < 0) {
      first = 0;
      last = 0;
    }
    const lo = this.hLo[ch];
    const edges: number[] = [];
    for (let j = first; j <= last + 1; j++) edges.push(lo + j * w);
    return { edges, counts: counts.slice(first, last + 1) };
  }

  private entryChecks(): EntryChecks | undefined {
    if (!this.eMin) return undefined;
    const constant: number[] = [];
    const groups = new Map<string, number[]>();
    let checked = 0;
    for (let e = 0; e < this.n; e++) {
      if (this.eSeen![e] !== this.entrySize) continue; // not read whole (sampled)
      checked++;
      if (this.eMin![e] === this.eMax![e]) constant.push(e);
      const key = `${this.eH1![e]}:${this.eH2![e]}`;
      const g = groups.get(key);
      if (g) g.push(e);
      else groups.set(key, [e]);
    }
    const duplicates = [...groups.values()].filter((g) => g.length > 1);
    return { constant, duplicates, checked };
  }
}
