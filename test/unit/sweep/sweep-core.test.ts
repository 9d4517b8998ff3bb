// The pure parts of a sweep: the plan checker (every mistake one sentence naming its JSON path),
// the variants (product of the axes, stable folder names), the derived scripts (written by the
// .alls parser: in place, inserted, created; refused by the .alls rules where the DFC refuses),
// the inputs key, the compile pool (a width per docker context, several contexts per job), and
// the table (sorting, CSV, terminal text). Expected scripts are written out by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePlan, PlanError, type SweepPlan } from '../../../server/src/core/sweep/plan';
import { BaseScript, checkDerived, DeriveError } from '../../../server/src/core/sweep/derive';
import { expandVariants, varyingAxes } from '../../../server/src/core/sweep/variants';
import { inputsKey, type KeyParts } from '../../../server/src/processes/sweep/inputsHash';
import { CompilePool } from '../../../server/src/processes/compile/pool';
import { buildDocument, columns, sortRows, sweepCsv, sweepText, type SweepRow } from '../../../server/src/core/sweep/table';

function folder(): { dir: string; file(name: string, text?: string): string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-sweep-core-'));
  return {
    dir,
    file: (name, text = 'x') => {
      const p = join(dir, name);
      mkdirSync(join(p, '..'), { recursive: true });
      writeFileSync(p, text);
      return p;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function withPlan(extra: Record<string, unknown>, check: (plan: SweepPlan, dir: string) => void) {
  const f = folder();
  try {
    f.file('m.har');
    f.file('m.onnx');
    f.file('m.alls', 'model_optimization_config(calibration, batch_size=1)\n');
    f.file('a.npy');
    f.file('b.npy');
    const path = f.file('m.sweep.json', JSON.stringify({ model: 'm.har', hwArch: 'hailo10h', ...extra }));
    check(parsePlan(JSON.stringify({ model: 'm.har', hwArch: 'hailo10h', ...extra }), path), f.dir);
  } finally {
    f.cleanup();
  }
}

function planError(extra: Record<string, unknown>): string {
  try {
    withPlan(extra, () => undefined);
  } catch (err) {
    assert.ok(err instanceof PlanError, String(err));
    return err.message;
  }
  assert.fail(`no error for ${JSON.stringify(extra)}`);
}

test('plan: defaults — one context (docker current), out folder beside the plan, the ONNX model is the float reference only when given', () => {
  withPlan({}, (plan, dir) => {
    assert.deepEqual(plan.contexts, [{ name: '', width: 1 }]);
    assert.equal(plan.out, join(dir, 'm.sweep'));
    assert.equal(plan.onnx, undefined, 'a HAR is not a float model');
    assert.deepEqual(plan.axes, []);
    assert.equal(expandVariants(plan).length, 1);
    assert.equal(expandVariants(plan)[0].id, 'base');
  });
  withPlan({ onnx: 'm.onnx', calibration: ['a.npy', 'b.npy'], contexts: ['default', { name: 'gpu-box', width: 3 }] }, (plan, dir) => {
    assert.equal(plan.onnx, join(dir, 'm.onnx'));
    assert.deepEqual(plan.calibrations, [join(dir, 'a.npy'), join(dir, 'b.npy')]);
    assert.deepEqual(plan.contexts, [
      { name: 'default', width: 1 },
      { name: 'gpu-box', width: 3 },
    ]);
  });
});

test('plan: every mistake is one sentence naming its JSON path and the fix', () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ hwArch: 'hailo9' }, /'hwArch' must be one of hailo8, .*hailo10h.*, not "hailo9"/],
    [{ hwArch: undefined, model: 'm.har' }, /'hwArch' is missing/],
    [{ model: 'nope.onnx' }, /'model' names .*nope\.onnx, which does not exist/],
    [{ model: 'm.alls' }, /'model' must name an \.onnx or \.har model/],
    [{ axes: { optimisation_level: [0, 2] } }, /'axes\.optimisation_level' is not a known setting .*optimization_level.*give \{"command"/],
    [{ axes: { precision_mode: ['a8_w8'] } }, /'axes\.precision_mode' needs the layers it applies to/],
    [{ axes: { optimization_level: [] } }, /'axes\.optimization_level' must be a non-empty list of values/],
    [{ axes: { optimization_level: [0, 0] } }, /'axes\.optimization_level\[1\]' repeats 0/],
    [{ axes: { optimization_level: [{}] } }, /'axes\.optimization_level\[0\]' must be a number, a string/],
    [{ axes: { calibration: ['a.npy'] } }, /'axes\.calibration' is a plan field's axis/],
    [
      { axes: { x: { command: 'model_optimization_flavor', keyword: 'optimization_level', values: [1] }, optimization_level: [2] } },
      /merge them into one axis/,
    ],
    [{ contexts: [{ name: 'gpu', width: 0 }] }, /'contexts\[0\]\.width' must be an integer from 1 to 16/],
    [{ contexts: ['gpu', 'gpu'] }, /'contexts\[1\]' repeats context 'gpu'/],
    [{ contexts: ['bad name'] }, /'contexts\[0\]' names "bad name", which is not a docker context name/],
    [{ out: '../elsewhere' }, /'out' must be a folder below the plan's folder/],
    [{ out: '/tmp/x' }, /'out' must be a folder below the plan's folder/],
    [{ accuracy: true }, /'accuracy' needs the float model: add 'onnx'/],
    [{ onnx: 'm.onnx', accuracy: { context: 'exact' } }, /'accuracy\.context' must be one of quantized, bit_exact/],
    [{ extraRunArgs: ['--privileged'] }, /'extraRunArgs' is not a plan field/],
    [{ gpus: 'yes' }, /'gpus' must be "auto", "all" or "none"/],
    [
      {
        axes: {
          optimization_level: [0, 1, 2, 3, 4],
          compression_level: [0, 1, 2, 3, 4],
          calibset_size: [
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39,
            40, 41,
          ],
        },
      },
      /has 1,025 items, over the limit of 1,000 items/,
    ],
  ];
  for (const [extra, want] of cases) {
    const m = planError(extra);
    assert.match(m, /^m\.sweep\.json: /, m);
    assert.match(m, want);
    assert.ok(!m.includes('\n'), `one line: ${m}`);
  }
  const f = folder();
  try {
    const path = f.file('bad.sweep.json', '{\n  "model": "m.har",\n  "hwArch": "hailo10h",,\n}');
    assert.throws(() => parsePlan('{\n  "model": "m.har",\n  "hwArch": "hailo10h",,\n}', path), /bad\.sweep\.json is not valid JSON \(.*line 3, column 24\)/);
  } finally {
    f.cleanup();
  }
});

test('variants: the product of the axes, last axis fastest; labels and folder names from the values that vary', () => {
  withPlan(
    {
      calibration: ['a.npy', 'b.npy'],
      images: ['hailo8_ai_sw_suite_2025-10:1'],
      axes: { optimization_level: [0, 2], precision_mode: { layers: ['conv1', '{conv*}'], values: [null, 'a16_w16'] } },
    },
    (plan) => {
      const vs = expandVariants(plan);
      assert.equal(vs.length, 8);
      assert.deepEqual(varyingAxes(plan), ['calibration', 'optimization_level', 'precision_mode']);
      assert.deepEqual(
        vs.map((v) => v.label),
        [
          'calibration=a.npy, optimization_level=0, precision_mode=base',
          'calibration=a.npy, optimization_level=0, precision_mode=a16_w16',
          'calibration=a.npy, optimization_level=2, precision_mode=base',
          'calibration=a.npy, optimization_level=2, precision_mode=a16_w16',
          'calibration=b.npy, optimization_level=0, precision_mode=base',
          'calibration=b.npy, optimization_level=0, precision_mode=a16_w16',
          'calibration=b.npy, optimization_level=2, precision_mode=base',
          'calibration=b.npy, optimization_level=2, precision_mode=a16_w16',
        ],
      );
      assert.equal(vs[1].id, 'calibration-a_optimization_level-0_precision_mode-a16_w16');
      assert.deepEqual(vs[1].values, { calibration: 'a.npy', optimization_level: '0', precision_mode: 'a16_w16' });
      assert.equal(vs[1].image, 'hailo8_ai_sw_suite_2025-10:1', 'a single image applies to every variant');
      // precision_mode of two layers: one setting per layer; the baseline (null) edits nothing.
      assert.deepEqual(
        vs[1].edits.map((e) => `${e.setting.command}(${e.setting.target}, ${e.setting.keyword}=${String(e.value)})`),
        [
          'model_optimization_flavor(undefined, optimization_level=0)',
          'quantization_param(conv1, precision_mode=a16_w16)',
          'quantization_param({conv*}, precision_mode=a16_w16)',
        ],
      );
      assert.equal(vs[0].edits.length, 1);
      assert.equal(new Set(vs.map((v) => v.id)).size, 8, 'folder names are unique');
    },
  );
  // Folder names are made of values: reordering the values of an axis keeps every variant's folder.
  let ids1: string[] = [];
  withPlan({ axes: { optimization_level: [0, 2, 4] } }, (plan) => (ids1 = expandVariants(plan).map((v) => v.id)));
  withPlan({ axes: { optimization_level: [4, 0, 2] } }, (plan) =>
    assert.deepEqual(
      expandVariants(plan)
        .map((v) => v.id)
        .sort(),
      [...ids1].sort(),
    ),
  );
});

test('derived scripts: a keyword in place, a missing keyword inserted before ")", a missing statement created (one per command and target), appends last', () => {
  const base = [
    '# base',
    'normalization1 = normalization([0.0, 0.0, 0.0], [255.0, 255.0, 255.0])',
    'model_optimization_flavor(optimization_level=1)',
    'quantization_param(conv1, precision_mode=a8_w8)',
    'model_optimization_config(calibration, batch_size=4)',
    '',
  ].join('\n');
  const s = new BaseScript(base);
  const flavor = (keyword: string) => ({ command: 'model_optimization_flavor', keyword });
  assert.equal(
    s.derive([
      { setting: flavor('optimization_level'), value: 2 },
      { setting: flavor('compression_level'), value: 1 },
      { setting: { command: 'quantization_param', target: 'conv1', keyword: 'precision_mode' }, value: 'a16_w16' },
      { setting: { command: 'model_optimization_config', target: 'calibration', keyword: 'calibset_size' }, value: 1024 },
      { setting: { command: 'quantization_param', target: '{conv*}', keyword: 'precision_mode' }, value: 'a16_w16' },
      { setting: { command: 'post_quantization_optimization', target: 'finetune', keyword: 'policy' }, value: 'enabled' },
      { setting: { command: 'post_quantization_optimization', target: 'finetune', keyword: 'epochs' }, value: 4 },
    ]),
    [
      '# base',
      'normalization1 = normalization([0.0, 0.0, 0.0], [255.0, 255.0, 255.0])',
      'model_optimization_flavor(optimization_level=2, compression_level=1)',
      'quantization_param(conv1, precision_mode=a16_w16)',
      'model_optimization_config(calibration, batch_size=4, calibset_size=1024)',
      'quantization_param({conv*}, precision_mode=a16_w16)',
      'post_quantization_optimization(finetune, policy=enabled, epochs=4)',
      '',
    ].join('\n'),
  );
  // Booleans are the DFC's True/False; text that is not one word is quoted; nothing else changes.
  assert.equal(
    new BaseScript('a(b=1)').derive(
      [{ setting: { command: 'c', keyword: 'flag' }, value: true }],
      ['pre_quantization_optimization(equalization, policy=disabled)'],
      ['made by a test'],
    ),
    '# made by a test\na(b=1)\nc(flag=True)\npre_quantization_optimization(equalization, policy=disabled)\n',
  );
  assert.equal(new BaseScript('').derive([{ setting: { command: 'c', keyword: 'path' }, value: 'my dir/x.json' }]), 'c(path="my dir/x.json")\n');
  assert.equal(new BaseScript('x = 1\n').derive([]), 'x = 1\n', 'no settings: the base bytes');
  assert.throws(
    () => new BaseScript('model_optimization_flavor(optimization_level=1\n').derive([{ setting: flavor('optimization_level'), value: 2 }]),
    DeriveError,
  );
});

test('derived scripts are checked by the .alls rules: a value the DFC refuses makes the variant invalid; findings the base already has are not repeated', () => {
  const s = new BaseScript('quantization_param(conv1, precision_mode=a8_w8)\n');
  const baseFindings = new Set<string>();
  const bad = checkDerived(
    s.derive([{ setting: { command: 'model_optimization_flavor', keyword: 'optimization_level' }, value: 7 }]),
    'hailo10h',
    baseFindings,
  );
  assert.equal(bad.errors.length, 1);
  assert.equal(bad.errors[0].code, 'alls/out-of-range');
  // a16_w4 is accepted syntax but a known DFC 5.3.0 optimize crash: a warning the table carries, not a refusal.
  const a16w4 = checkDerived(
    s.derive([{ setting: { command: 'quantization_param', target: 'conv1', keyword: 'precision_mode' }, value: 'a16_w4' }]),
    'hailo10h',
    baseFindings,
  );
  assert.equal(a16w4.errors.length, 0);
  assert.deepEqual(
    a16w4.newFindings.map((d) => d.code),
    ['alls/dfc-known-fault'],
  );
  const typo = checkDerived(
    s.derive([{ setting: { command: 'quantization_param', target: 'conv1', keyword: 'precision_mode' }, value: 'a16_w17' }]),
    'hailo10h',
    baseFindings,
  );
  assert.equal(typo.errors[0].code, 'alls/invalid-value');
});

test('inputs key: equal parts give one key; each part (model, script, calibration, image, arch, nodes, config) changes it', () => {
  const parts: KeyParts = { model: 'm', script: 's', calibration: 'c', image: 'i', hwArch: 'hailo10h', startNodes: [], endNodes: ['e'], hailoConfig: null };
  const k = inputsKey(parts);
  assert.match(k, /^[0-9a-f]{64}$/);
  assert.equal(inputsKey({ ...parts }), k);
  const changed: Partial<KeyParts>[] = [
    { model: 'm2' },
    { script: 's2' },
    { script: null },
    { calibration: null },
    { image: 'j' },
    { hwArch: 'hailo8' },
    { startNodes: ['x'] },
    { endNodes: [] },
    { hailoConfig: 'h' },
  ];
  for (const c of changed) assert.notEqual(inputsKey({ ...parts, ...c }), k, JSON.stringify(c));
});

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

test('pool: a width per docker context; a job that accepts several contexts starts on the first free one; waiting jobs keep their order', async () => {
  const pool = new CompilePool();
  pool.setWidth('gpu', 2);
  const started: string[] = [];
  const gates = new Map<string, ReturnType<typeof deferred<void>>>();
  const job = (name: string) => async (ctx: string) => {
    started.push(`${name}@${ctx}`);
    const g = deferred<void>();
    gates.set(name, g);
    await g.promise;
    return `${name}@${ctx}`;
  };
  const places: Record<string, number[]> = {};
  const add = (name: string, keys: string[]) => pool.enqueue(keys, job(name), (n) => (places[name] ??= []).push(n));
  const a = add('a', ['gpu', 'cpu']);
  const b = add('b', ['gpu', 'cpu']);
  const c = add('c', ['gpu', 'cpu']);
  const d = add('d', ['gpu', 'cpu']);
  const e = add('e', ['cpu']);
  await new Promise((r) => setImmediate(r));
  // gpu has two free slots, cpu one: a and b fill gpu (most free slots first), c takes cpu.
  assert.deepEqual(started, ['a@gpu', 'b@gpu', 'c@cpu']);
  assert.equal(pool.running('gpu'), 2);
  assert.deepEqual(places.d, [1]);
  assert.deepEqual(places.e, [2], 'e waits behind d, which also accepts cpu');
  assert.equal(pool.size('cpu'), 3);
  gates.get('c')!.resolve();
  assert.equal(await c.result, 'c@cpu');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(started.slice(3), ['d@cpu'], 'the first waiting job takes the freed slot');
  assert.deepEqual(places.e, [2, 1]);
  assert.equal(e.withdraw(), true);
  assert.equal(await e.result, undefined);
  for (const n of ['a', 'b', 'd']) gates.get(n)!.resolve();
  assert.deepEqual(await Promise.all([a.result, b.result, d.result]), ['a@gpu', 'b@gpu', 'd@cpu']);
  assert.equal(pool.size('gpu') + pool.size('cpu'), 0);
  // A job that throws rejects its result and frees its slot.
  const boom = pool.enqueue('cpu', () => Promise.reject(new Error('boom')));
  await assert.rejects(boom.result, /boom/);
  assert.equal(pool.running('cpu'), 0);
});

function row(over: Partial<SweepRow>): SweepRow {
  return {
    version: 1,
    key: 'k',
    id: 'v',
    label: 'v',
    values: {},
    finished: true,
    state: 'done',
    message: null,
    outcome: 'success',
    failedStage: null,
    stages: { parse: null, optimize: 1, compile: 2 },
    seconds: 3,
    dockerContext: '',
    image: null,
    hwArch: 'hailo10h',
    dfcVersion: null,
    contexts: null,
    utilization: { control: null, compute: null, memory: null },
    hefBytes: null,
    mtmd: null,
    accuracy: null,
    device: null,
    files: { folder: '/f', alls: null, log: null, har: null, optimizedHar: null, hef: null },
    notes: [],
    startedAt: null,
    endedAt: null,
    ...over,
  };
}

test('table: numeric axes sort as numbers, empty cells last both ways; CSV quotes and defuses formulas; the terminal table lists contexts and failures', () => {
  const rows = [
    row({ id: 'a', label: 'optimization_level=10', values: { optimization_level: '10' }, seconds: null }),
    row({ id: 'b', label: 'optimization_level=2', values: { optimization_level: '2' }, seconds: 5 }),
    row({ id: 'c', label: 'optimization_level=base', values: { optimization_level: 'base' }, seconds: 1 }),
  ];
  const cols = columns(['optimization_level']);
  const axis = cols.find((c) => c.id === 'axis:optimization_level')!;
  assert.deepEqual(
    sortRows(rows, axis).map((r) => r.id),
    ['b', 'a', 'c'],
  );
  const total = cols.find((c) => c.id === 'total_s')!;
  assert.deepEqual(
    sortRows(rows, total).map((r) => r.id),
    ['c', 'b', 'a'],
  );
  assert.deepEqual(
    sortRows(rows, total, true).map((r) => r.id),
    ['b', 'c', 'a'],
  );
  const plan = { path: '/p/x.sweep.json', name: 'x', out: '/p/x.sweep' } as SweepPlan;
  const doc = buildDocument(
    plan,
    ['optimization_level'],
    [row({ label: 'a, "b"', message: '=HYPERLINK("http://x")', state: 'failed', failedStage: 'optimize', finished: true, outcome: 'failed' })],
    [{ name: 'gpu', width: 2, state: 'down', local: false, message: 'gone.', ran: 0 }],
    't0',
    't1',
  );
  const csv = sweepCsv(doc).split('\r\n');
  assert.equal(csv[0].split(',')[0], 'variant');
  assert.ok(csv[0].includes(',optimization_level,'));
  assert.ok(csv[1].startsWith('"a, ""b""",'), csv[1]);
  assert.ok(csv[1].includes(`"'=HYPERLINK(""http://x"")"`), 'a formula from a message is defused');
  const text = sweepText(doc);
  assert.match(text, /^sweep x: 1 variant, 1 failed/);
  assert.match(text, /gpu \(width 2\): down — gone\./);
  assert.match(text, /a, "b": =HYPERLINK/);
});
