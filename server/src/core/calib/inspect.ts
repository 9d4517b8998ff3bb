// The calibration-set inspector: opens a .npy/.npz, reads its header, streams (or, past a size
// limit, samples) its values into the statistics, decides its layout against the model's input and
// lists findings against the model script. Memory is bounded by the read buffer, the per-channel
// histograms and the per-entry checks — never by the file. `calibJson` is the CLI's --json.
import { decodeElements, NpyFormatError, parseNpyHeader, type NpyHeader } from '../common/npyFormat';
import { openCalibrationSource, readPrefix, SourceError, type ArrayBytes, type NpzMember } from './source';
import { StatsAccumulator, type ChannelStats, type StatsResult } from './stats';
import { decideLayout, type Layout, type LayoutDecision, type ModelInput } from './modelInput';
import { calibFindings, type CalibFinding } from './findings';
import type { Distribution } from './distribution';
import type { ScriptFacts } from './scriptFacts';

export interface InspectOptions {
  /** The model's inputs (from the HAR or the ONNX), for the layout check. */
  inputs?: ModelInput[];
  /** What the model script says (calibset_size, normalization, …). */
  facts?: ScriptFacts;
  /** Read every value however large the file (default: sample past `fullScanBytes`). */
  full?: boolean;
  /** Bodies up to this size are read whole (default 256 MiB). */
  fullScanBytes?: number;
  /** Bytes read when sampling (default 16 MiB: 16 M uint8 values). */
  sampleBytes?: number;
  /** Read-buffer size (default 4 MiB). */
  chunkBytes?: number;
  /** Stops the read (the LSP cancels when the file changes). */
  signal?: AbortSignal;
}

export interface CalibReport {
  file: string;
  /** `calib.npy` or `calib.npz:arr_0.npy`. */
  label: string;
  dtype: string;
  descr: string;
  shape: number[];
  fortranOrder: boolean;
  layout: Layout;
  layoutHow: string;
  /** Entries along the first axis. */
  count: number;
  channels: ChannelStats[];
  overall: StatsResult['overall'];
  distribution: Distribution;
  sampled: boolean;
  sampleNote?: string;
  members?: NpzMember[];
  findings: CalibFinding[];
  /** The model input the layout was checked against. */
  modelInput?: string;
}

/** The unreadable-file error: one sentence, exit 2 in the CLI. */
export class CalibReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CalibReadError';
  }
}

export const DEFAULT_FULL_SCAN_BYTES = 256 << 20;
export const DEFAULT_SAMPLE_BYTES = 16 << 20;

interface Range {
  /** First element (flat index). */
  start: number;
  /** Elements. */
  length: number;
}

/** Evenly spaced whole entries (C order) or evenly spaced blocks, about `budget` bytes in all. */
function sampleRanges(h: NpyHeader, budget: number, chunk: number): { ranges: Range[]; note: string } {
  const size = h.dtype.size;
  const n = h.shape.length ? h.shape[0] : 1;
  const entry = h.shape.length ? h.count / Math.max(1, n) : h.count;
  if (!h.fortranOrder && h.shape.length >= 2 && entry * size <= budget) {
    const k = Math.max(1, Math.min(n, Math.floor(budget / (entry * size))));
    const ranges: Range[] = [];
    for (let i = 0; i < k; i++) {
      const e = k === 1 ? 0 : Math.round((i * (n - 1)) / (k - 1));
      if (ranges.length && ranges[ranges.length - 1].start + ranges[ranges.length - 1].length === e * entry) ranges[ranges.length - 1].length += entry;
      else ranges.push({ start: e * entry, length: entry });
    }
    return { ranges, note: `${k.toLocaleString('en-US')} of ${n.toLocaleString('en-US')} entries, evenly spaced` };
  }
  const block = Math.max(1, Math.floor(chunk / size));
  const blocks = Math.max(1, Math.min(Math.ceil(h.count / block), Math.floor(budget / (block * size))));
  const ranges: Range[] = [];
  for (let i = 0; i < blocks; i++) {
    const start = blocks === 1 ? 0 : Math.round((i * (h.count - block)) / (blocks - 1));
    ranges.push({ start, length: Math.min(block, h.count - start) });
  }
  return { ranges, note: `${blocks.toLocaleString('en-US')} blocks of ${(block * size).toLocaleString('en-US')} bytes, evenly spaced` };
}

async function readRanges(array: ArrayBytes, h: NpyHeader, ranges: Range[], acc: StatsAccumulator, chunk: number, signal?: AbortSignal): Promise<void> {
  const size = h.dtype.size;
  const perChunk = Math.max(1, Math.floor(chunk / size));
  const buf = new Uint8Array(new ArrayBuffer(perChunk * size));
  const values = new Float64Array(perChunk);
  for (const r of ranges) {
    for (let done = 0; done < r.length;) {
      signal?.throwIfAborted();
      const n = Math.min(perChunk, r.length - done);
      const got = await array.read(h.dataOffset + (r.start + done) * size, n * size, buf);
      if (got < n * size)
        throw new CalibReadError(
          `truncated: the data ends at byte ${(h.dataOffset + (r.start + done) * size + got).toLocaleString('en-US')} of the ${(h.dataOffset + h.dataBytes).toLocaleString('en-US')} the header promises`,
        );
      decodeElements(h.dtype, buf.subarray(0, n * size), values);
      acc.feed(values, n, r.start + done);
      done += n;
    }
  }
}

/** A deflated .npz member: streamed from its start, reading `limit` elements at most. */
async function readStream(array: ArrayBytes, h: NpyHeader, limit: number, acc: StatsAccumulator, chunk: number, signal?: AbortSignal): Promise<number> {
  const size = h.dtype.size;
  const perChunk = Math.max(1, Math.floor(chunk / size));
  const buf = new Uint8Array(new ArrayBuffer(perChunk * size));
  const values = new Float64Array(perChunk);
  let skip = h.dataOffset;
  let fill = 0;
  let fed = 0;
  const stream = await array.stream();
  const flush = (bytes: number) => {
    const n = Math.floor(bytes / size);
    decodeElements(h.dtype, buf.subarray(0, n * size), values);
    acc.feed(values, n, fed);
    fed += n;
  };
  try {
    for await (const raw of stream) {
      signal?.throwIfAborted();
      let c = raw;
      if (skip) {
        const s = Math.min(skip, c.length);
        skip -= s;
        c = c.subarray(s);
      }
      while (c.length && fed < limit) {
        const want = Math.min(buf.length, (limit - fed) * size) - fill;
        const take = Math.min(want, c.length);
        buf.set(c.subarray(0, take), fill);
        fill += take;
        c = c.subarray(take);
        if (fill === Math.min(buf.length, (limit - fed) * size)) {
          flush(fill);
          fill = 0;
        }
      }
      if (fed >= limit) break;
    }
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new CalibReadError(`the .npz member cannot be inflated: ${(err as Error).message}`);
  } finally {
    (stream as { destroy?: () => void }).destroy?.();
  }
  if (fill) flush(fill);
  if (fed < limit)
    throw new CalibReadError(
      `truncated: the .npz member holds ${fed.toLocaleString('en-US')} of the ${limit.toLocaleString('en-US')} values its header promises`,
    );
  return fed;
}

/** What reading a set yields before it is judged against a script (cached by the language server). */
export interface CalibArray {
  file: string;
  label: string;
  dtype: string;
  descr: string;
  shape: number[];
  fortranOrder: boolean;
  layout: LayoutDecision;
  stats: StatsResult;
  sampled: boolean;
  sampleNote?: string;
  members?: NpzMember[];
  memberChoice?: string;
}

/** Opens, reads (or samples) and measures a set. Throws CalibReadError with one sentence. */
export async function readCalibrationSet(path: string, options: InspectOptions = {}): Promise<CalibArray> {
  const chunk = options.chunkBytes ?? 4 << 20;
  let opened;
  try {
    opened = await openCalibrationSource(path, { preferMembers: options.inputs?.map((i) => i.name) });
  } catch (err) {
    if (err instanceof SourceError) throw new CalibReadError(err.message);
    throw err;
  }
  try {
    const array = opened.array;
    let h: NpyHeader;
    try {
      h = parseNpyHeader(await readPrefix(array), array.size);
    } catch (err) {
      if (err instanceof NpyFormatError) throw new CalibReadError(err.message);
      throw err;
    }
    const layout = decideLayout(h.shape, options.inputs ?? []);
    const acc = new StatsAccumulator({ shape: h.shape, fortranOrder: h.fortranOrder, channelAxis: layout.channelAxis, integer: h.dtype.kind !== 'f' });
    const limit = options.fullScanBytes ?? DEFAULT_FULL_SCAN_BYTES;
    const budget = options.sampleBytes ?? DEFAULT_SAMPLE_BYTES;
    let sampled = false;
    let sampleNote: string | undefined;
    if (options.full || h.dataBytes <= limit) {
      if (array.randomAccess) await readRanges(array, h, [{ start: 0, length: h.count }], acc, chunk, options.signal);
      else await readStream(array, h, h.count, acc, chunk, options.signal);
    } else if (array.randomAccess) {
      const s = sampleRanges(h, budget, chunk);
      sampled = true;
      sampleNote = s.note;
      await readRanges(array, h, s.ranges, acc, chunk, options.signal);
    } else {
      const n = Math.max(1, Math.floor(budget / h.dtype.size));
      sampled = true;
      sampleNote = `the first ${(n * h.dtype.size).toLocaleString('en-US')} bytes of a compressed .npz member, which can only be read from its start`;
      await readStream(array, h, n, acc, chunk, options.signal);
    }
    return {
      file: path,
      label: array.label,
      dtype: h.dtype.name,
      descr: h.dtype.descr,
      shape: h.shape,
      fortranOrder: h.fortranOrder,
      layout,
      stats: acc.result(),
      sampled,
      sampleNote,
      members: opened.members,
      memberChoice: opened.memberChoice,
    };
  } finally {
    await opened.close();
  }
}

/** Judges a measured set against a script (cheap: no I/O). */
export function reportOf(a: CalibArray, facts?: ScriptFacts): CalibReport {
  const count = a.shape.length ? a.shape[0] : 1;
  const { findings, distribution } = calibFindings({
    dtypeName: a.dtype,
    shape: a.shape,
    layout: a.layout,
    stats: a.stats,
    count,
    sampled: a.sampled,
    sampleNote: a.sampleNote,
    facts,
    memberChoice: a.memberChoice,
  });
  return {
    file: a.file,
    label: a.label,
    dtype: a.dtype,
    descr: a.descr,
    shape: a.shape,
    fortranOrder: a.fortranOrder,
    layout: a.layout.layout,
    layoutHow: a.layout.how,
    count,
    channels: a.stats.channels,
    overall: a.stats.overall,
    distribution,
    sampled: a.sampled,
    sampleNote: a.sampleNote,
    members: a.members,
    findings,
    modelInput: a.layout.input?.source,
  };
}

export async function inspectCalibrationSet(path: string, options: InspectOptions = {}): Promise<CalibReport> {
  return reportOf(await readCalibrationSet(path, options), options.facts);
}

/** The CLI's --json document: exactly these keys (plus `sampled` when sampled). */
export function calibJson(r: CalibReport): Record<string, unknown> {
  const num = (v: number) => (Number.isFinite(v) ? v : null);
  const doc: Record<string, unknown> = {
    dtype: r.dtype,
    shape: r.shape,
    layout: r.layout,
    count: r.count,
    channels: r.channels.map((c) => ({ min: num(c.min), max: num(c.max), mean: num(c.mean), std: num(c.std) })),
    findings: r.findings.map((f) => ({ code: f.code, severity: f.severity, message: f.message })),
  };
  if (r.sampled) doc.sampled = true;
  return doc;
}

/** Warnings or errors: the CLI exits 1. */
export function hasProblems(r: CalibReport): boolean {
  return r.findings.some((f) => f.severity !== 'info');
}
