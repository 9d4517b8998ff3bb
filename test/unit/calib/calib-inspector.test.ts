// The calibration-set inspector (server/src/core/calib/) against numpy: every statistic, histogram
// count, entry check and header fact comes from scripts/gen-calib-fixtures.py (numpy computed them
// in float64 from the arrays it saved), committed as test/fixtures/calib/expected.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CalibReadError, calibJson, inspectCalibrationSet, type CalibReport } from '../../../server/src/core/calib/inspect';
import { scriptFactsOf } from '../../../server/src/core/calib/scriptFacts';
import type { ModelInput } from '../../../server/src/core/calib/modelInput';
import { repoRoot } from '../../helpers/shared';

const dir = join(repoRoot, 'test', 'fixtures', 'calib');
interface Stat {
  min: number;
  max: number;
  mean: number;
  std: number;
  count: number;
}
interface Case {
  dtype: string;
  descr: string;
  shape: number[];
  fortranOrder: boolean;
  layout: string;
  channels: Stat[];
  overall: Stat;
  unitHistogram16: number[];
  constantEntries: number[];
  duplicateGroups: number[][];
  distribution: string;
  bincount?: number[][];
}
const fx = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as {
  cases: Record<string, Case>;
  sampled: { file: string; entries: number; indices: number[]; channels: Stat[] };
  broken: Record<string, { dataBytes?: number; present?: number; headerBytes?: number; numpy?: string }>;
  npz: Record<string, { members: string[]; inspects: string; same_as: string }>;
};

/** The model input every 8x8 fixture is drawn for: ONNX [1,3,8,8] → NHWC (8,8,3). */
const input8: ModelInput = { name: 'input', nhwc: [8, 8, 3], nchw: [3, 8, 8], source: "ONNX input 'input' [1,3,8,8]" };
const input4: ModelInput = { name: 'input', nhwc: [4, 4, 3], nchw: [3, 4, 4], source: "ONNX input 'input' [1,3,4,4]" };
const inputFor = (shape: number[]) => (shape[1] === 8 || shape[2] === 8 ? input8 : input4);

function close(actual: number, expected: number, what: string, rel = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= rel * Math.max(1, Math.abs(expected)), `${what}: ${actual} vs numpy ${expected}`);
}

function sameStats(r: CalibReport, channels: Stat[], what: string): void {
  assert.equal(r.channels.length, channels.length, `${what}: channel count`);
  channels.forEach((e, i) => {
    const c = r.channels[i];
    assert.equal(c.count, e.count, `${what} ch${i} count`);
    assert.equal(c.min, e.min, `${what} ch${i} min`);
    assert.equal(c.max, e.max, `${what} ch${i} max`);
    close(c.mean, e.mean, `${what} ch${i} mean`);
    close(c.std, e.std, `${what} ch${i} std`);
  });
}

for (const [name, e] of Object.entries(fx.cases)) {
  test(`${name}: header, layout and per-channel statistics equal numpy's`, async () => {
    const r = await inspectCalibrationSet(join(dir, name), { inputs: [inputFor(e.shape)] });
    assert.equal(r.dtype, e.dtype);
    assert.equal(r.descr, e.descr);
    assert.deepEqual(r.shape, e.shape);
    assert.equal(r.fortranOrder, e.fortranOrder);
    assert.equal(r.layout, e.layout);
    assert.equal(r.count, e.shape[0]);
    assert.equal(r.sampled, false);
    sameStats(r, e.channels, name);
    assert.equal(r.overall.count, e.overall.count);
    close(r.overall.mean, e.overall.mean, `${name} overall mean`);
    close(r.overall.std, e.overall.std, `${name} overall std`);
    assert.equal(r.distribution.kind, e.distribution, `${name}: ${r.distribution.text}`);
    // Histograms: every finite value is in exactly one bin, and integer data matches np.bincount.
    r.channels.forEach((c, i) => {
      assert.equal(
        c.histogram.counts.reduce((a, b) => a + b, 0),
        e.channels[i].count,
        `${name} ch${i} histogram total`,
      );
      assert.ok(
        c.histogram.edges[0] <= e.channels[i].min && c.histogram.edges[c.histogram.edges.length - 1] > e.channels[i].max,
        `${name} ch${i} edges cover [min, max]`,
      );
      if (e.bincount) {
        const want = c.histogram.counts.map((_, b) => {
          let s = 0;
          for (let v = Math.ceil(c.histogram.edges[b]); v < c.histogram.edges[b + 1]; v++) s += e.bincount![i][v] ?? 0;
          return s;
        });
        assert.deepEqual(c.histogram.counts, want, `${name} ch${i} histogram vs np.bincount`);
      }
    });
  });
}

test('uniform [0,1): the 16-bin histogram of [0, 1) equals np.histogram, and the set is named np.random.rand-like', async () => {
  const e = fx.cases['uniform_nhwc_f32.npy'];
  const r = await inspectCalibrationSet(join(dir, 'uniform_nhwc_f32.npy'), { inputs: [input8] });
  assert.match(r.distribution.text, /np\.random\.rand/);
  // Not exposed on the report: recompute through the accumulator's result via the findings' source.
  const { StatsAccumulator } = await import('../../../server/src/core/calib/stats');
  const { decodeElements, parseNpyHeader } = await import('../../../server/src/core/common/npyFormat');
  const buf = readFileSync(join(dir, 'uniform_nhwc_f32.npy'));
  const h = parseNpyHeader(buf, buf.length);
  const acc = new StatsAccumulator({ shape: h.shape, fortranOrder: false, channelAxis: 3, integer: false });
  const body = new Uint8Array(buf.subarray(h.dataOffset)); // copy: aligned
  const vals = new Float64Array(h.count);
  decodeElements(h.dtype, body, vals);
  acc.feed(vals, h.count, 0);
  assert.deepEqual(acc.result().unitBins, e.unitHistogram16);
});

test('entry checks: constant entries and groups of identical entries equal numpy (np.unique over rows)', async () => {
  for (const [name, e] of Object.entries(fx.cases)) {
    if (e.fortranOrder) continue;
    const r = await inspectCalibrationSet(join(dir, name), { inputs: [inputFor(e.shape)] });
    const constant = r.findings.find((f) => f.code === 'calib/constant-entries');
    const dups = r.findings.find((f) => f.code === 'calib/duplicate-entries');
    assert.equal(!!constant, e.constantEntries.length > 0, `${name}: constant finding`);
    assert.equal(!!dups, e.duplicateGroups.length > 0, `${name}: duplicate finding`);
    if (e.constantEntries.length)
      assert.match(
        constant!.message,
        new RegExp(`^${e.constantEntries.length} of ${e.shape[0]} entries are constant \\(every value equal; entries ${e.constantEntries.join(', ')}\\)`),
      );
    for (const g of e.duplicateGroups) assert.ok(dups!.message.includes(g.join(' = ')), `${name}: group ${g.join(' = ')} in ${dups!.message}`);
  }
});

test('Fortran order: statistics along the channel axis equal numpy and identical to the C-ordered copy', async () => {
  const f = await inspectCalibrationSet(join(dir, 'fortran_nhwc_f32.npy'), { inputs: [input8] });
  const c = await inspectCalibrationSet(join(dir, 'pixels_nhwc_u8.npy'), { inputs: [input8] });
  assert.equal(f.fortranOrder, true);
  sameStats(f, fx.cases['pixels_nhwc_u8.npy'].channels, 'fortran vs the uint8 original');
  assert.deepEqual(
    f.channels.map((x) => x.histogram.counts.reduce((a, b) => a + b, 0)),
    c.channels.map((x) => x.histogram.counts.reduce((a, b) => a + b, 0)),
  );
});

test('.npz: a stored member is read in place, a deflated one streamed; both equal the .npy they hold', async () => {
  for (const [file, e] of Object.entries(fx.npz)) {
    const r = await inspectCalibrationSet(join(dir, file), { inputs: [input8] });
    assert.deepEqual(
      r.members?.map((m) => m.name),
      e.members,
      file,
    );
    assert.equal(r.label, `${file}:${e.inspects}.npy`);
    sameStats(r, fx.cases[e.same_as].channels, file);
    assert.equal(r.layout, 'NHWC');
  }
  const stored = await inspectCalibrationSet(join(dir, 'stored.npz'), { inputs: [{ ...input8, name: 'labels' }] });
  assert.equal(stored.label, 'stored.npz:labels.npy', 'a member named like the model input is preferred');
  assert.ok(stored.findings.some((f) => f.code === 'calib/npz-member' && /named like the model's input/.test(f.message)));
});

test('sampling past the size limit: evenly spaced whole entries, statistics equal numpy on the same entries, "sampled":true', async () => {
  const s = fx.sampled;
  const e = fx.cases[s.file];
  const r = await inspectCalibrationSet(join(dir, s.file), { inputs: [input8], fullScanBytes: 1024, sampleBytes: s.entries * 8 * 8 * 3 * 4 });
  assert.equal(r.sampled, true);
  assert.match(r.sampleNote!, new RegExp(`^${s.entries} of ${e.shape[0]} entries`));
  sameStats(r, s.channels, 'sampled');
  assert.equal(calibJson(r).sampled, true);
  const full = await inspectCalibrationSet(join(dir, s.file), { inputs: [input8], fullScanBytes: 1024, sampleBytes: 1024, full: true });
  assert.equal(full.sampled, false);
  sameStats(full, e.channels, '--full');
});

test('unreadable files: one sentence each, with the numbers (truncated, huge header, structured dtype, not .npy, broken zip)', async () => {
  const b = fx.broken;
  const fails = async (file: string, re: RegExp) => {
    await assert.rejects(inspectCalibrationSet(join(dir, file)), (err: unknown) => {
      assert.ok(err instanceof CalibReadError, `${file}: ${err}`);
      assert.match((err as Error).message, re);
      assert.ok(!(err as Error).message.includes('\n'), 'one line');
      return true;
    });
  };
  await fails(
    'truncated.npy',
    new RegExp(
      `truncated: the header promises ${b['truncated.npy'].dataBytes!.toLocaleString('en-US')} bytes of uint8 .*the file has ${b['truncated.npy'].present!.toLocaleString('en-US')}`,
    ),
  );
  // numpy's own refusal of the same file: "Header info length (20000) is large and may not be safe…"
  assert.match(b['huge_header.npy'].numpy!, /Header info length \(20000\) is large/);
  await fails('huge_header.npy', /claims 20,000 bytes; numpy itself refuses headers over 10,000 bytes/);
  await fails('structured.npy', /structured dtype/);
  await fails('not_npy.npy', /not a readable \.npz/);
  await fails('bad_zip.npz', /not a readable \.npz/);
  await fails('does-not-exist.npy', /no such file/);
  await assert.rejects(inspectCalibrationSet(dir), /a folder, not a file/);
});

test('a file cut short by a few bytes is named truncated with the byte counts', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'calib-'));
  try {
    const src = readFileSync(join(dir, 'normal_nhwc_f32.npy'));
    const p = join(tmp, 'x.npy');
    const fd = openSync(p, 'w');
    writeSync(fd, src);
    closeSync(fd);
    const fd2 = openSync(p, 'r+');
    ftruncateSync(fd2, src.length - 100);
    closeSync(fd2);
    await assert.rejects(inspectCalibrationSet(p), /truncated: the header promises 49,152 bytes of float32/);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('a multi-GB set is sampled in bounded memory and time (sparse 3 GiB file)', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'calib-big-'));
  try {
    const p = join(tmp, 'big.npy');
    const n = 21_000; // 21,000 × 224 × 224 × 3 uint8 = 3.16 GB
    let header = `{'descr': '|u1', 'fortran_order': False, 'shape': (${n}, 224, 224, 3), }`;
    header = header.padEnd(128 - 10 - 1, ' ') + '\n';
    const prefix = Buffer.concat([
      Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]),
      Buffer.from(new Uint16Array([header.length]).buffer),
      Buffer.from(header, 'latin1'),
    ]);
    const fd = openSync(p, 'w');
    writeSync(fd, prefix);
    ftruncateSync(fd, prefix.length + n * 224 * 224 * 3);
    closeSync(fd);
    global.gc?.();
    const rss0 = process.memoryUsage().rss;
    const t0 = Date.now();
    const r = await inspectCalibrationSet(p, { inputs: [{ name: 'image', nhwc: [224, 224, 3], nchw: [3, 224, 224], source: 'test' }] });
    const ms = Date.now() - t0;
    const grew = (process.memoryUsage().rss - rss0) / 2 ** 20;
    assert.equal(r.sampled, true);
    assert.equal(r.count, n);
    assert.equal(r.layout, 'NHWC');
    assert.equal(calibJson(r).sampled, true);
    assert.ok(
      r.channels.every((c) => c.min === 0 && c.max === 0),
      'a sparse file reads as zeros',
    );
    assert.ok(r.findings.some((f) => f.code === 'calib/constant-entries'));
    assert.ok(grew < 200, `RSS grew ${grew.toFixed(0)} MB`);
    assert.ok(ms < 60_000, `${ms} ms`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

// ---- findings against the script -------------------------------------------------------------

const SCRIPT_255 = `normalization1 = normalization([123.675, 116.28, 103.53], [58.395, 57.12, 57.375])
model_optimization_config(calibration, batch_size=8, calibset_size=64)
`;
const facts = (text: string) => scriptFactsOf(text).facts;
async function codes(file: string, script = SCRIPT_255, inputs: ModelInput[] = [input8]): Promise<Record<string, string>> {
  const r = await inspectCalibrationSet(join(dir, file), { inputs, facts: facts(script) });
  return Object.fromEntries(r.findings.map((f) => [f.code, f.severity]));
}

test('findings: raw 0–255 pixels with a 0–255 normalization and 64 entries give no warning (negative case)', async () => {
  const c = await codes('pixels_nhwc_u8.npy');
  assert.deepEqual(
    Object.entries(c).filter(([, s]) => s !== 'info'),
    [],
  );
});

test('findings: np.random.rand data for a normalized input is a warning that quotes the calibration lesson', async () => {
  const r = await inspectCalibrationSet(join(dir, 'uniform_nhwc_f32.npy'), { inputs: [input8], facts: facts(SCRIPT_255) });
  const f = r.findings.find((x) => x.code === 'calib/uniform-unit')!;
  assert.equal(f.severity, 'warning');
  assert.equal(f.anchor, 'normalization');
  assert.match(f.message, /66\.65 %.*2\.44 %/);
  // Without a normalization it is only worth knowing.
  assert.equal((await codes('uniform_nhwc_f32.npy', 'model_optimization_config(calibration, calibset_size=64)\n'))['calib/uniform-unit'], 'info');
  // Standard-normal data is not called uniform.
  assert.equal((await codes('normal_nhwc_f32.npy', 'model_optimization_config(calibration, calibset_size=64)\n'))['calib/uniform-unit'], undefined);
});

test('findings: a range the normalization contradicts — scaled to [0,1], or normalized twice', async () => {
  assert.equal((await codes('scaled_nhwc_f32.npy'))['calib/range-vs-normalization'], 'warning');
  assert.equal((await codes('normalized_nhwc_f32.npy'))['calib/normalized-twice'], 'warning');
  assert.equal((await codes('pixels_nhwc_u8.npy'))['calib/range-vs-normalization'], undefined);
  // A 0–1 scale normalization with 0–255 data.
  assert.equal(
    (await codes('pixels_nhwc_u8.npy', 'normalization1 = normalization([0.5, 0.5, 0.5], [0.25, 0.25, 0.25])\n'))['calib/range-vs-normalization'],
    'warning',
  );
  // Two channels in the script, three in the set.
  assert.equal(
    (await codes('pixels_nhwc_u8.npy', 'normalization1 = normalization([127.5, 127.5], [127.5, 127.5])\n'))['calib/normalization-channels'],
    'warning',
  );
});

test('findings: NCHW against an NCHW-vs-NHWC model input, and a shape that fits no input', async () => {
  const r = await inspectCalibrationSet(join(dir, 'pixels_nchw_u8.npy'), { inputs: [input8], facts: facts(SCRIPT_255) });
  const f = r.findings.find((x) => x.code === 'calib/nchw')!;
  assert.equal(f.severity, 'warning');
  assert.match(f.message, /NHWC \(N, 8, 8, 3\).*np\.transpose\(x, \(0, 2, 3, 1\)\)/);
  assert.equal(r.layout, 'NCHW');
  assert.equal(calibJson(r).layout, 'NCHW');
  const other = await inspectCalibrationSet(join(dir, 'pixels_nhwc_u8.npy'), {
    inputs: [{ name: 'x', nhwc: [16, 16, 3], nchw: [3, 16, 16], source: 'ONNX input x [1,3,16,16]' }],
  });
  assert.equal(other.layout, 'unknown');
  assert.match(
    other.findings.find((x) => x.code === 'calib/shape')!.message,
    /shape \(64, 8, 8, 3\) is not \(N, 16, 16, 3\), which ONNX input x \[1,3,16,16\] needs/,
  );
});

test("findings: entries vs calibset_size (64 default, the script's value) and the 1024 fine-tuning threshold", async () => {
  assert.equal((await codes('few_nhwc_u8.npy'))['calib/too-few'], 'warning');
  assert.equal(
    (await codes('few_nhwc_u8.npy', 'normalization1 = normalization([127.5, 127.5, 127.5], [127.5, 127.5, 127.5])\n'))['calib/too-few'],
    'warning',
    'default 64',
  );
  assert.equal((await codes('few_nhwc_u8.npy', 'model_optimization_config(calibration, calibset_size=16)\n'))['calib/too-few'], undefined);
  assert.equal((await codes('pixels_nhwc_u8.npy', 'model_optimization_config(calibration, calibset_size=32)\n'))['calib/more-than-calibset'], 'info');
  const ft = await codes('pixels_nhwc_u8.npy', `${SCRIPT_255}post_quantization_optimization(finetune, policy=enabled)\n`);
  assert.equal(ft['calib/under-1024'], 'warning');
  assert.equal((await codes('pixels_nhwc_u8.npy', `${SCRIPT_255}model_optimization_flavor(optimization_level=2)\n`))['calib/under-1024'], 'info');
  assert.equal((await codes('pixels_nhwc_u8.npy'))['calib/under-1024'], undefined);
});

test('findings: NaN/inf values, float16 and big-endian data are read and reported', async () => {
  assert.equal((await codes('nonfinite_nhwc_f32.npy', '', [input4]))['calib/non-finite'], 'warning');
  assert.equal((await codes('half_nhwc_f16.npy', ''))['calib/dtype'], 'info');
  const be = await inspectCalibrationSet(join(dir, 'bigendian_nhwc_f4.npy'), { inputs: [input8] });
  assert.equal(be.dtype, 'float32');
});

test('--json document: exactly the keys the issue names', async () => {
  const r = await inspectCalibrationSet(join(dir, 'pixels_nhwc_u8.npy'), { inputs: [input8], facts: facts(SCRIPT_255) });
  const doc = calibJson(r);
  assert.deepEqual(Object.keys(doc), ['dtype', 'shape', 'layout', 'count', 'channels', 'findings']);
  assert.deepEqual(Object.keys((doc.channels as object[])[0]), ['min', 'max', 'mean', 'std']);
});
