// The schedule of a sweep (core/sweep/schedule.ts) against docs/sweep.md: a variant whose inputs key
// has a finished result under `out` is reused wherever that result's folder is; a refused one never
// runs; jobs go to the pool in plan order, a reused variant measured with other accuracy settings
// getting an accuracy-only job (never a compile); a context that is down, or lacks the variant's
// image, does not take it (the image only for that image); the emulator runs where "The accuracy
// column" says. The rows and results are built by hand here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { SweepPlan } from '../../../server/src/core/sweep/plan';
import type { VariantResult } from '../../../server/src/core/sweep/results';
import type { PlannedVariant } from '../../../server/src/core/sweep/variantPlan';
import {
  accuracyContexts,
  emulatorContext,
  initialRows,
  jobs,
  noContextMessage,
  startLine,
  usableContexts,
  type ContextState,
} from '../../../server/src/core/sweep/schedule';

const OUT = '/work/plans/tiny';

function plan(extra: Partial<SweepPlan> = {}): SweepPlan {
  return {
    path: '/work/plans/tiny.sweep.json',
    dir: '/work/plans',
    name: 'tiny',
    models: ['/work/plans/m.har'],
    calibrations: [],
    images: [],
    hwArches: ['hailo10h'],
    axes: [],
    contexts: [
      { name: '', width: 1 },
      { name: 'gpu-box', width: 2 },
    ],
    out: OUT,
    startNodes: [],
    endNodes: [],
    ...extra,
  };
}

function variant(id: string, extra: Partial<PlannedVariant> = {}): PlannedVariant {
  return {
    variant: { id, label: `level=${id}`, values: { level: id }, model: '/work/plans/m.har', hwArch: 'hailo10h', edits: [], appends: [] },
    script: null,
    notes: [],
    key: `key-${id}`,
    accuracyKey: 'acc-now',
    ...extra,
  };
}

/** A finished result as a run left it in `folder` (under OUT). */
function finished(key: string, folder: string, extra: Partial<VariantResult> = {}): VariantResult {
  return {
    version: 1,
    key,
    id: folder,
    label: `old label of ${folder}`,
    values: { level: 'old' },
    finished: true,
    state: 'done',
    message: null,
    outcome: 'success',
    failedStage: null,
    stages: { parse: 1, optimize: 2, compile: 3 },
    seconds: 6,
    dockerContext: 'gpu-box',
    image: 'dfc:1',
    hwArch: 'hailo10h',
    dfcVersion: '5.1.0',
    contexts: 1,
    utilization: { control: 10, compute: 20, memory: 30 },
    hefBytes: 1000,
    mtmd: null,
    accuracy: null,
    device: null,
    files: {
      folder: join(OUT, folder),
      alls: null,
      log: join(OUT, folder, 'm.dfc.log'),
      har: null,
      optimizedHar: join(OUT, folder, 'm_optimized.har'),
      hef: join(OUT, folder, 'm.hef'),
    },
    notes: [],
    startedAt: '2026-01-01T00:00:00.000Z',
    endedAt: '2026-01-01T00:00:06.000Z',
    ...extra,
  };
}

function context(name: string, extra: Partial<ContextState> = {}): ContextState {
  return { name, width: 1, state: 'up', local: false, message: null, ran: 0, missingImages: new Set(), ...extra };
}

test('schedule: a finished result with the inputs key is reused whatever folder it is in; a refused variant is invalid; the rest wait', () => {
  const planned = [variant('0'), variant('1'), variant('2', { invalid: 'The derived script is refused.' })];
  // Variant 1's result is in a folder of another name (the plan was reordered): still found by its key.
  const rows = initialRows(planned, new Map([['key-1', finished('key-1', 'renamed')]]), OUT);
  assert.deepEqual(
    [...rows.values()].map((r) => [r.id, r.state, r.finished, r.message]),
    [
      ['0', 'waiting', false, null],
      ['1', 'reused', true, null],
      ['2', 'invalid', false, 'The derived script is refused.'],
    ],
  );
  const reused = rows.get('1')!;
  // Reused: the result's columns under this variant's name and values, pointing at the folder it came from.
  assert.equal(reused.label, 'level=1');
  assert.deepEqual(reused.values, { level: '1' });
  assert.equal(reused.reusedFrom, 'renamed');
  assert.equal(reused.hefBytes, 1000);
  assert.equal(reused.files.folder, join(OUT, 'renamed'));
  // A waiting row has its own folder and no figures yet.
  const waiting = rows.get('0')!;
  assert.equal(waiting.files.folder, join(OUT, '0'));
  assert.equal(waiting.seconds, null);
  assert.equal(waiting.accuracy, null);
});

test('schedule: jobs in plan order — a compile per waiting variant, an accuracy-only job for a reused one measured with other settings; nothing else runs', () => {
  const planned = [
    variant('reused-old-accuracy'),
    variant('waiting'),
    variant('refused', { invalid: 'refused' }),
    variant('reused-same-accuracy'),
    variant('reused-har-gone'),
    variant('waiting-2'),
  ];
  const results = new Map([
    ['key-reused-old-accuracy', finished('key-reused-old-accuracy', 'a', { accuracy: accuracy('acc-before') })],
    ['key-reused-same-accuracy', finished('key-reused-same-accuracy', 'b', { accuracy: accuracy('acc-now') })],
    ['key-reused-har-gone', finished('key-reused-har-gone', 'c')],
  ]);
  const rows = initialRows(planned, results, OUT);
  const present = new Set([join(OUT, 'a', 'm_optimized.har'), join(OUT, 'b', 'm_optimized.har')]);
  const exists = (p: string) => present.has(p);
  const withAccuracy = plan({ accuracy: { count: 8, seed: 1, context: 'quantized' } });
  assert.deepEqual(
    jobs(withAccuracy, planned, rows, exists).map((j) => [j.kind, j.variant.variant.id]),
    [
      ['accuracy', 'reused-old-accuracy'],
      ['compile', 'waiting'],
      ['compile', 'waiting-2'],
    ],
  );
  const [first] = jobs(withAccuracy, planned, rows, exists);
  assert.ok(first.kind === 'accuracy');
  assert.equal(first.har, join(OUT, 'a', 'm_optimized.har'));
  // A plan without accuracy measures nothing again: only the compiles.
  assert.deepEqual(
    jobs(plan(), planned, rows, exists).map((j) => [j.kind, j.variant.variant.id]),
    [
      ['compile', 'waiting'],
      ['compile', 'waiting-2'],
    ],
  );
});

function accuracy(key: string): VariantResult['accuracy'] {
  return { context: 'quantized', status: 'ok', relativeError: 0.01, cosine: 0.99, maxAbsError: 0.1, inputs: '8 inputs', key };
}

test('schedule: a context that is down takes nothing; one without the image is skipped for that image only; with none left, each reason is said', () => {
  const contexts = [
    context('', { state: 'down', message: 'Cannot connect to the Docker daemon.' }),
    context('gpu-box', { missingImages: new Set(['dfc:3']) }),
    context('cpu-box'),
  ];
  assert.deepEqual(
    usableContexts(contexts, 'dfc:3').map((c) => c.name),
    ['cpu-box'],
  );
  assert.deepEqual(
    usableContexts(contexts, 'dfc:5').map((c) => c.name),
    ['gpu-box', 'cpu-box'],
  );
  contexts[2].state = 'down';
  contexts[2].message = 'ssh: connect to host cpu-box port 22: No route to host';
  assert.deepEqual(usableContexts(contexts, 'dfc:3'), []);
  const why = noContextMessage(contexts, 'dfc:3');
  assert.match(why, /^No docker context of the plan can run this variant \(/);
  assert.ok(why.includes("docker's current context: Cannot connect to the Docker daemon."), why);
  assert.ok(why.includes("'gpu-box': no image dfc:3"), why);
  assert.ok(why.includes("'cpu-box': ssh: connect to host cpu-box port 22: No route to host"), why);
});

test("schedule: the emulator runs on the plan's accuracy.dockerContext, else the slot's own context when local, else a local context up with the image, else the slot's", () => {
  const acc = { count: 8, seed: 1, context: 'quantized' as const };
  const local = context('laptop', { local: true });
  const remote = context('gpu-box');
  const named = plan({ accuracy: { ...acc, dockerContext: 'emu-box' } });
  assert.equal(emulatorContext(named, [local, remote], 'dfc:1', 'gpu-box'), 'emu-box');
  const p = plan({ accuracy: acc });
  assert.equal(emulatorContext(p, [local, remote], 'dfc:1', 'laptop'), 'laptop');
  assert.equal(emulatorContext(p, [local, remote], 'dfc:1', 'gpu-box'), 'laptop');
  // The slot's own local context before another local one.
  assert.equal(emulatorContext(p, [context('desk', { local: true }), local, remote], 'dfc:1', 'laptop'), 'laptop');
  // The local context lacks the variant's image, or is down: the variant's own (remote) host, through docker cp.
  assert.equal(emulatorContext(p, [context('laptop', { local: true, missingImages: new Set(['dfc:1']) }), remote], 'dfc:1', 'gpu-box'), 'gpu-box');
  assert.equal(emulatorContext(p, [context('laptop', { local: true, state: 'down' }), remote], 'dfc:1', 'gpu-box'), 'gpu-box');
  // Remote hosts only.
  assert.equal(emulatorContext(p, [remote, context('tcp-box')], 'dfc:1', 'tcp-box'), 'tcp-box');
});

test('schedule: an accuracy-only job may take any context that is up (the current one when none is); the first line counts variants, reused and refused', () => {
  assert.deepEqual(accuracyContexts([context('a'), context('b', { state: 'down' }), context('c')]), ['a', 'c']);
  assert.deepEqual(accuracyContexts([context('a', { state: 'down' })]), ['']);
  const rows = initialRows([variant('0'), variant('1'), variant('2', { invalid: 'no' })], new Map([['key-1', finished('key-1', '1')]]), OUT);
  const line = startLine(plan(), rows.values());
  assert.ok(line.startsWith('sweep tiny: 3 variants on 2 docker contexts'), line);
  assert.ok(line.includes('1 finished earlier (not run again)'), line);
  assert.ok(line.includes('1 refused by the .alls rules'), line);
});
