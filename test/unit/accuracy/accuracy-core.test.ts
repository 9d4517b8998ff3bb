// The float reference's numeric core (server/src/core/accuracy/) against numpy: error metrics,
// transposes, normalization and dequantisation. Expected values come from
// scripts/gen-accuracy-fixtures.py (numpy), committed in test/fixtures/accuracy/expected.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareArrays, type ErrorMetrics } from '../../../server/src/core/accuracy/metrics';
import { hefToOnnx, onnxToHef, planLayout, transpose } from '../../../server/src/core/accuracy/layout';
import { dequantize, normalize } from '../../../server/src/core/accuracy/preprocess';
import { readNormalizations } from '../../../server/src/core/alls/normalization';
import { repoRoot } from '../../helpers/shared';

type Num = number | string;
interface Fixture {
  metrics: {
    name: string;
    device: Num[];
    reference: Num[];
    expected: Omit<ErrorMetrics, 'maxAbsError' | 'meanAbsError' | 'relativeError' | 'correlation' | 'cosine'> & Record<string, Num | null>;
  }[];
  transposes: { dims: number[]; perm: number[]; input: Num[]; expected: Num[] }[];
  normalizations: { mean: number[]; std: number[]; input: number[]; expected: Num[] }[];
  dequantize: { zp: number | number[]; scale: number | number[]; input: number[]; expected: Num[] }[];
}

const fx = JSON.parse(readFileSync(join(repoRoot, 'test', 'fixtures', 'accuracy', 'expected.json'), 'utf8')) as Fixture;
const n = (v: Num | null): number | null => (v === null ? null : typeof v === 'number' ? v : Number(v));
const f32 = (xs: Num[]) => Float32Array.from(xs.map((x) => n(x)!));

function close(actual: number | null, expected: number | null, what: string): void {
  if (expected === null || actual === null) return assert.equal(actual, expected, what);
  if (Number.isNaN(expected)) return assert.ok(Number.isNaN(actual), `${what}: expected NaN, got ${actual}`);
  const tol = 1e-9 * Math.max(1, Math.abs(expected));
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} vs numpy ${expected}`);
}

test('metrics: max|err|, mean|err|, relative error, correlation and cosine equal numpy on every case', () => {
  assert.ok(fx.metrics.length >= 8);
  for (const c of fx.metrics) {
    const m = compareArrays(f32(c.device), f32(c.reference));
    const e = c.expected;
    assert.equal(m.count, e.count, c.name);
    for (const k of ['maxAbsError', 'meanAbsError', 'relativeError', 'correlation', 'cosine'] as const) close(m[k], n(e[k] as Num | null), `${c.name}: ${k}`);
    assert.equal(m.maxAbsErrorIndex, e.maxAbsErrorIndex, `${c.name}: index of max|err|`);
    assert.deepEqual(m.nonFinite, e.nonFinite, c.name);
  }
});

test("metrics: the cases mean what they say (a sanity read of numpy's numbers)", () => {
  const by = Object.fromEntries(fx.metrics.map((c) => [c.name, compareArrays(f32(c.device), f32(c.reference))]));
  assert.ok(by['close: reference + 1% noise'].correlation! > 0.999);
  assert.ok(by['anti-correlated'].correlation! < -0.999);
  assert.equal(by['constant device output'].correlation, null);
  assert.equal(by['all-zero reference'].relativeError, null);
  assert.ok(Number.isNaN(by['NaN on the device'].maxAbsError));
  assert.throws(() => compareArrays([1, 2], [1]), /cannot compare 2 device values with 1 reference values/);
});

test('transpose equals numpy.transpose for ranks 3–5', () => {
  for (const c of fx.transposes) {
    assert.deepEqual(Array.from(transpose(f32(c.input), c.dims, c.perm)), Array.from(f32(c.expected)), `dims ${c.dims} perm ${c.perm}`);
  }
  assert.throws(() => transpose([1, 2, 3], [3], [1]), /not a permutation/);
  assert.throws(() => transpose([1, 2, 3], [2, 2], [1, 0]), /do not fill/);
});

test('normalize (x − mean) / std per channel and dequantize (q − zp) × scale equal numpy (float32)', () => {
  for (const c of fx.normalizations) assert.deepEqual(Array.from(normalize(c.input, c.mean, c.std)), Array.from(f32(c.expected)), `mean ${c.mean}`);
  for (const c of fx.dequantize) assert.deepEqual(Array.from(dequantize(c.input, c.zp, c.scale)), Array.from(f32(c.expected)), `zp ${c.zp}`);
  assert.throws(() => normalize([1, 2, 3, 4], [1, 2, 3], [1, 1, 1]), /does not have 3 channels/);
  assert.throws(() => normalize([1, 2], [1, 2], [1]), /as many std values/);
});

test('layout: the DFC reads rank-4 ONNX as NCHW; rank 2/3 keep their order; mismatches are one sentence', () => {
  // dfc-flow.md §3.4: ONNX [1,3,H,W] → (N,H,W,3); [1,C,1,S] → (N,1,S,C); [1,S,C] → (N,1,S,C); [1,C,1,1] conv → (N,1,1,C).
  assert.equal(planLayout({ height: 64, width: 64, features: 3 }, [1, 3, 64, 64], 'input').kind, 'nhwc-nchw');
  assert.equal(planLayout({ height: 1, width: 196, features: 768 }, [1, 768, 1, 196], 'x').kind, 'nhwc-nchw');
  assert.equal(planLayout({ height: 1, width: 196, features: 768 }, [1, 196, 768], 'x').kind, 'same-order');
  assert.equal(planLayout({ height: 1, width: 1, features: 10 }, ['batch', 10], 'logits').kind, 'same-order');
  assert.equal(planLayout({ height: 1, width: 1, features: 10 }, [1, 10, 1, 1], 'y').kind, 'nhwc-nchw');
  // dfc-flow.md §6: an NHWC-like ONNX output [1,16,16,2560] read as NCHW comes out as 16x2560x16.
  assert.equal(planLayout({ height: 16, width: 2560, features: 16 }, [1, 16, 16, 2560], 'out').kind, 'nhwc-nchw');
  assert.equal(planLayout({ height: 16, width: 16, features: 2560 }, [1, 16, 16, 2560], 'out').kind, 'same-order');
  const bad = planLayout({ height: 8, width: 8, features: 3 }, [1, 3, 64, 64], 'input');
  assert.deepEqual(bad, {
    kind: 'error',
    message: "ONNX tensor 'input' [1,3,64,64] has 12288 values but the HEF vstream 8x8x3 has 192: they are not the same tensor.",
  });
  assert.equal(planLayout({ height: 4, width: 6, features: 2 }, [1, 6, 4, 2], 't').kind, 'error');
  assert.match((planLayout({ height: 4, width: 4, features: 3 }, [1, 3, 'h', 4], 't') as { message: string }).message, /dynamic shape \[1,3,h,4\]/);
  // Round trip through the plan equals numpy's transposes (fixture: [1,4,5,3] → perm 0,3,1,2).
  const t = fx.transposes.find((c) => c.dims.join() === '1,4,5,3' && c.perm.join() === '0,2,3,1')!;
  const plan = planLayout({ height: 3, width: 4, features: 5 }, [1, 5, 3, 4], 'x');
  assert.equal(plan.kind, 'nhwc-nchw');
  {
    const nchw = f32(t.input); // values laid out as [1,5,3,4] → to NHWC [1,3,4,5] is perm 0,2,3,1
    const nhwc = onnxToHef(nchw, plan);
    assert.deepEqual(Array.from(hefToOnnx(nhwc, plan)), Array.from(nchw));
  }
});

test('.alls normalization is read as numbers, with its input layer; unreadable ones are reported', () => {
  const r = readNormalizations(
    [
      '# comment',
      'normalization1 = normalization([123.675, 116.28, 103.53], [58.395, 57.12, 57.375])',
      'norm2 = normalization([127.5], [127.5], input_layer2)',
      'quantization_param(conv1, precision_mode=a16_w16)',
      'bad = normalization([1, 2], [0, 1])',
    ].join('\n'),
  );
  assert.deepEqual(r.normalizations, [
    { mean: [123.675, 116.28, 103.53], std: [58.395, 57.12, 57.375], inputLayer: undefined, name: 'normalization1', line: 2 },
    { mean: [127.5], std: [127.5], inputLayer: 'input_layer2', name: 'norm2', line: 3 },
  ]);
  assert.equal(r.problems.length, 1);
  assert.match(r.problems[0], /^line 5: normalization/);
  const ex = readNormalizations(readFileSync(join(repoRoot, 'examples', 'model', 'tinycnn.alls'), 'utf8'));
  assert.deepEqual(
    ex.normalizations.map((x) => [x.mean, x.std]),
    [
      [
        [0, 0, 0],
        [255, 255, 255],
      ],
    ],
  );
});
