// A row's columns (core/sweep/columns.ts) against docs/sweep.md "The table", "Nothing runs twice" and
// "The accuracy column": the stage times are the DFC's own timing lines, else the driver's; a DFC
// failure in parse, optimize or compile is a finished result, a kill or docker's refusal is not;
// the accuracy cell is the worst output of the emulator context against float, kept under the
// accuracy key when it is a figure or the emulator's own crash and never when it is only unavailable.
// The compile reports and accuracy documents are written by hand here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AccuracyDocument, OracleRow, OutputTable } from '../../../server/src/core/accuracy/oracles';
import type { DfcDiagnostic } from '../../../server/src/core/dfc/types';
import { accuracyCell, accuracyCellFrom, endedLine, resultFrom, stripLive, type CompileFacts } from '../../../server/src/core/sweep/columns';
import type { PlannedVariant } from '../../../server/src/core/sweep/variantPlan';

const p: PlannedVariant = {
  variant: { id: 'level-2', label: 'level=2', values: { level: '2' }, model: '/w/m.onnx', hwArch: 'hailo10h', image: 'dfc:5', edits: [], appends: [] },
  script: 'x',
  notes: ['warning alls/known-dfc-fault: a16_w4'],
  key: 'the-key',
  accuracyKey: 'acc-key',
};

function facts(report: Partial<CompileFacts['report']>, driverStages?: CompileFacts['driverStages']): CompileFacts {
  return {
    report: {
      outcome: 'success',
      failedStage: null,
      stages: [],
      dfcVersion: '5.1.0',
      hailortVersion: null,
      hwArch: 'hailo10h',
      network: 'm',
      summary: {
        contexts: 2,
        controlUtilization: 50,
        computeUtilization: 60.5,
        memoryUtilization: 70,
        compilationSeconds: null,
        allocationSeconds: null,
        contextUtilization: [],
      },
      recommendedEndNodes: [],
      diagnostics: [],
      saved: [],
      outputs: { har: '/w/out/level-2/m.har', optimizedHar: '/w/out/level-2/m_optimized.har', hef: '/w/out/level-2/m.hef' },
      container: { image: 'hailo_ai_sw_suite:2026-04' },
      hef: { bytes: 3 << 20, contract: { pass: true, failed: [] } },
      log: '/w/out/level-2/m.dfc.log',
      notes: ['the container was removed'],
      ...report,
    },
    driverStages,
  };
}

function error(message: string): DfcDiagnostic {
  return { path: 'log', line: 1, column: 1, endLine: 1, endColumn: 1, severity: 'error', code: 'dfc/x', message, logLine: 1, confidence: 'high' };
}

test('columns: a successful compile is done and finished; stage times from the log, else the driver; context, DFC, utilisation, HEF, mtmd, image and notes from the report', () => {
  const r = resultFrom(
    p,
    '/w/out/level-2',
    facts(
      {
        stages: [
          { name: 'parse', status: 'ok', seconds: 3.5 },
          { name: 'optimize', status: 'ok', seconds: null },
          { name: 'compile', status: 'ok', seconds: 120 },
        ],
      },
      { optimize: { seconds: 41 }, compile: { seconds: 999 } },
    ),
    'gpu-box',
    170,
    '2026-01-01T00:00:00.000Z',
    '/w/out/level-2/m.alls',
  );
  assert.equal(r.state, 'done');
  assert.equal(r.finished, true);
  assert.equal(r.message, null);
  assert.deepEqual(r.stages, { parse: 3.5, optimize: 41, compile: 120 });
  assert.equal(r.seconds, 170);
  assert.equal(r.dockerContext, 'gpu-box');
  assert.equal(r.dfcVersion, '5.1.0');
  assert.equal(r.contexts, 2);
  assert.deepEqual(r.utilization, { control: 50, compute: 60.5, memory: 70 });
  assert.equal(r.hefBytes, 3 << 20);
  assert.deepEqual(r.mtmd, { pass: true, failed: [] });
  assert.equal(r.image, 'hailo_ai_sw_suite:2026-04');
  assert.deepEqual(r.notes, ['warning alls/known-dfc-fault: a16_w4', 'the container was removed']);
  assert.deepEqual(r.files, {
    folder: '/w/out/level-2',
    alls: '/w/out/level-2/m.alls',
    log: '/w/out/level-2/m.dfc.log',
    har: '/w/out/level-2/m.har',
    optimizedHar: '/w/out/level-2/m_optimized.har',
    hef: '/w/out/level-2/m.hef',
  });
  assert.equal(r.key, 'the-key');
  assert.equal(r.id, 'level-2');
  assert.equal(r.accuracy, null);
  // No container (it never ran): the variant's own image.
  assert.equal(resultFrom(p, '/w', facts({ container: null }), '', 1, 's', null).image, 'dfc:5');
});

test('columns: a DFC failure in parse, optimize or compile is a finished result (the first error, one sentence); a kill, docker or an unknown stage is not', () => {
  const failedIn = (outcome: CompileFacts['report']['outcome'], failedStage: CompileFacts['report']['failedStage'], diagnostics: DfcDiagnostic[] = []) =>
    resultFrom(p, '/w', facts({ outcome, failedStage, diagnostics }), '', 1, 's', null);
  const optimize = failedIn('failed', 'optimize', [
    error("AttributeError: 'function' object has no attribute 'set_wraparound_loss'. This is a DFC 5.3.0 fault: use a16_w16."),
    error('A second error.'),
  ]);
  assert.equal(optimize.state, 'failed');
  assert.equal(optimize.finished, true);
  assert.equal(optimize.failedStage, 'optimize');
  assert.equal(optimize.message, "AttributeError: 'function' object has no attribute 'set_wraparound_loss'.");
  for (const stage of ['parse', 'compile'] as const) assert.equal(failedIn('failed', stage).finished, true, stage);
  for (const [outcome, stage] of [
    ['killed', 'optimize'],
    ['failed', 'docker'],
    ['failed', 'unknown'],
    ['incomplete', null],
  ] as const) {
    const r = failedIn(outcome, stage);
    assert.equal(r.state, 'failed', `${outcome} ${stage}`);
    assert.equal(r.finished, false, `${outcome} ${stage}`);
    assert.ok(r.message, `${outcome} ${stage}: a sentence`);
  }
});

function table(name: string, quantized: OracleRow, float: OracleRow = okRow('float')): OutputTable {
  return { name, size: 10, rows: [float, quantized], pairs: [] };
}

function okRow(oracle: 'float' | 'quantized', rel = 0, cosine = 1, maxAbs = 0): OracleRow {
  return {
    oracle,
    label: oracle,
    status: 'ok',
    vsFloat: {
      count: 10,
      maxAbsError: maxAbs,
      maxAbsErrorIndex: 0,
      meanAbsError: 0,
      relativeError: rel,
      correlation: 1,
      cosine,
      nonFinite: { device: 0, reference: 0 },
    },
  };
}

function document(outputs: OutputTable[]): AccuracyDocument {
  return {
    version: 1,
    inputs: { count: 8, text: '8 inputs drawn like the calibration set, seed 1' },
    calibration: '',
    threshold: 0.1,
    oracles: [],
    outputs,
    flags: [],
  };
}

test('columns: the accuracy cell is the worst output — largest relative and absolute error, smallest cosine', () => {
  // Each output is worst in something (boxes in relative error, scores in cosine and max |err|), in either order.
  const outputs = [table('boxes', okRow('quantized', 0.05, 0.999, 0.3)), table('scores', okRow('quantized', 0.02, 0.99, 0.5))];
  for (const order of [outputs, [...outputs].reverse()]) {
    assert.deepEqual(accuracyCellFrom(document(order), 'quantized'), {
      status: 'ok',
      relativeError: 0.05,
      cosine: 0.99,
      maxAbsError: 0.5,
      inputs: '8 inputs drawn like the calibration set, seed 1',
    });
  }
});

test("columns: the emulator's crash is its cell (kept under the accuracy key); a float model that did not run or a missing row is only unavailable (not kept)", () => {
  const crashed = accuracyCellFrom(
    document([
      table('boxes', okRow('quantized', 0.02)),
      table('scores', { oracle: 'quantized', label: 'q', status: 'crashed', message: 'InferenceError: conv2/pow' }),
    ]),
    'quantized',
  );
  assert.equal(crashed.status, 'crashed');
  assert.equal(crashed.message, 'InferenceError: conv2/pow');
  assert.equal(accuracyCell('quantized', 'acc-key', crashed).key, 'acc-key');

  const noFloat = accuracyCellFrom(
    document([table('boxes', okRow('quantized', 0.02), { oracle: 'float', label: 'f', status: 'unavailable', message: 'onnxruntime-node is missing' })]),
    'quantized',
  );
  assert.equal(noFloat.status, 'unavailable');
  assert.ok(noFloat.message?.includes('onnxruntime-node is missing'), noFloat.message);
  assert.equal(accuracyCell('quantized', 'acc-key', noFloat).key, '');

  const noRow = accuracyCellFrom(document([table('boxes', okRow('float'))]), 'bit_exact');
  assert.equal(noRow.status, 'unavailable');

  const ok = accuracyCell('quantized', 'acc-key', accuracyCellFrom(document([table('boxes', okRow('quantized', 0.01, 0.9, 1))]), 'quantized'));
  assert.equal(ok.key, 'acc-key');
  assert.equal(ok.context, 'quantized');
  // Nothing measured (no float runner): unavailable, with empty figures and no key.
  assert.deepEqual(accuracyCell('quantized', 'acc-key', { message: 'onnxruntime-node was not found' }), {
    context: 'quantized',
    status: 'unavailable',
    relativeError: null,
    cosine: null,
    maxAbsError: null,
    inputs: '',
    message: 'onnxruntime-node was not found',
    key: '',
  });
});

test('columns: the record a live row leaves has a result state and no live fields; the progress line of an ended variant', () => {
  const r = resultFrom(p, '/w', facts({}), 'gpu-box', 65, 's', null);
  const live = { ...r, state: 'reused' as const, reusedFrom: 'old', stage: 'compile' };
  const kept = stripLive(live);
  assert.equal(kept.state, 'done');
  assert.ok(!('reusedFrom' in kept) && !('stage' in kept));
  assert.equal(stripLive({ ...r, state: 'lost' }).state, 'lost');
  const line = endedLine({ ...r, hefBytes: 1.5 * (1 << 20), accuracy: accuracyCell('quantized', 'k', { status: 'ok', relativeError: 0.005 }) });
  assert.equal(line, 'done in 1 min 5 s, HEF 1.5 MB, 2 contexts, quantized vs float 0.50 %');
  const failed = resultFrom(p, '/w', facts({ outcome: 'failed', failedStage: 'optimize', diagnostics: [error('Out of memory.')] }), '', 1, 's', null);
  assert.equal(endedLine(failed), 'FAILED at optimize: Out of memory.');
});
