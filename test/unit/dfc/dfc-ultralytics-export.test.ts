// Ultralytics' `export(format="hailo")` console (issue 30, "Today's formats"; PR
// https://github.com/ultralytics/ultralytics/pull/25231). The exporter's own lines are written here from the
// format strings of ultralytics/engine/exporter.py as merged by that PR (`try_export`: `{prefix} export success ✅
// {t:.1f}s, saved as '{path}' ({mb:.1f} MB)` and `LOGGER.error(f"{prefix} export failure {t:.1f}s: {e}")`, older
// releases `LOGGER.info(f"{prefix} export failure ❌ {t:.1f}s: {e}")`; `export_hailo`'s `prefix=colorstr("Hailo:")` and
// its `LOGGER.warning(f"\nHailo level-2 optimization will use {n} calibration images. Hailo recommends at least 1,024
// representative images for best accuracy. …")`) and ultralytics/utils/__init__.py's PrefixFormatter (`WARNING ⚠️ `,
// `ERROR ❌ ` before a warning's or an error's message; colorstr's default is blue and bold). The DFC's own lines
// between them are the project's real fixtures (test/fixtures/dfc/success-dfc3-hailomz, misspelled-node).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readDfcLog } from '../../../server/src/core/dfc';
import { repoRoot } from '../../helpers/shared';

const fixture = (name: string) => readFileSync(join(repoRoot, 'test', 'fixtures', 'dfc', name, 'run.log'), 'utf8').split('\n');
/** The real DFC 3.33 console of one whole run (translate, optimize, compile), without the model zoo's own lines. */
const dfcRun = fixture('success-dfc3-hailomz').filter((l) => l.startsWith('['));
const misspelled = fixture('misspelled-node');

const read = (lines: string[]) => readDfcLog(lines.join('\n'), { logPath: 'run.log' });
/** colorstr(prefix): blue, bold, then reset (ultralytics/utils/__init__.py). */
const coloured = (colour: boolean) => (s: string) => (colour ? `\x1b[34m\x1b[1m${s}\x1b[0m` : s);

function head(colour: boolean, images: number): string[] {
  const p = coloured(colour);
  return [
    'Ultralytics 8.4.90 🚀 Python-3.10.12 torch-2.5.1+cpu CPU (Intel Core(TM) i7-12700)',
    `${p('PyTorch:')} starting from 'yolo11n.pt' with input shape (1, 3, 640, 640) BCHW and output shape(s) (1, 84, 8400) (5.4 MB)`,
    'WARNING ⚠️ ',
    `Hailo level-2 optimization will use ${images} calibration images. Hailo recommends at least 1,024 representative images for best accuracy. Pass data="path/to/dataset.yaml". See https://docs.ultralytics.com/integrations/hailo/#export-a-hailo-hef-model`,
    `${p('ONNX:')} starting export with onnx 1.17.0 opset 11...`,
    `${p('ONNX:')} export success ✅ 1.9s, saved as 'yolo11n.onnx' (10.2 MB)`,
  ];
}

for (const colour of [false, true]) {
  const p = coloured(colour);
  const label = colour ? 'ANSI colours' : 'no colours';

  test(`Ultralytics' Hailo export: its own 'export success ✅' ends the run as a success (${label})`, () => {
    // A pasted tail: the compile was still running on the last DFC line, the exporter's verdict says it wrote the HEF.
    const tail = dfcRun.slice(
      dfcRun.findIndex((l) => l.includes('Compiling context_0')),
      dfcRun.findIndex((l) => l.includes('Building HEF')) + 1,
    );
    assert.ok(tail.length >= 3);
    assert.equal(read(tail).outcome, 'incomplete', 'the DFC lines alone stop inside the compile');
    const r = read([...tail, `${p('Hailo:')} export success ✅ 912.4s, saved as 'yolo11n_hailo_model' (9.8 MB)`, '', 'Export complete (915.0s)']);
    assert.equal(r.outcome, 'success');
    assert.equal(r.diagnostics.filter((d) => d.severity === 'error').length, 0);
  });

  test(`Ultralytics' Hailo export: 'export failure …: <exception>' fails the run at the stage the DFC was in (${label})`, () => {
    const optimizing = dfcRun.slice(
      0,
      dfcRun.findIndex((l) => l.includes('Statistics Collector is done')),
    );
    const err = colour ? '\x1b[31mERROR ❌\x1b[0m' : 'ERROR ❌';
    for (const verdict of [
      `${err} ${p('Hailo:')} export failure 75.0s: the optimizer stopped on a tensor it could not read`,
      `${p('Hailo:')} export failure ❌ 75.0s: the optimizer stopped on a tensor it could not read`,
    ]) {
      assert.equal(read(optimizing).outcome, 'incomplete', 'the DFC lines alone stop inside optimize');
      const r = read([...head(colour, 2000), ...optimizing, verdict]);
      assert.equal(r.outcome, 'failed', verdict);
      assert.equal(r.failedStage, 'optimize', verdict);
      const errors = r.diagnostics.filter((d) => d.severity === 'error');
      assert.equal(errors.length, 1);
      assert.ok(errors[0].message.includes('could not read'), errors[0].message);
    }
  });

  test(`Ultralytics' Hailo export: the exception it relays and re-raises is read once, by its class (${label})`, () => {
    // The DFC's refusal: the relayed str(e) on the exporter's line, then the same exception ending its traceback.
    const dfc = misspelled.filter((l) => l.trim());
    const raised = dfc[dfc.length - 1];
    const message = raised.slice(raised.indexOf(': ') + 2);
    const r = read([
      ...head(colour, 2000),
      ...dfc.filter((l) => l.startsWith('[info]')),
      `${colour ? '\x1b[31mERROR ❌\x1b[0m' : 'ERROR ❌'} ${p('Hailo:')} export failure 3.1s: ${message}`,
      ...dfc.filter((l) => !l.startsWith('[info]')),
    ]);
    assert.equal(r.outcome, 'failed');
    assert.equal(r.failedStage, 'parse');
    const errors = r.diagnostics.filter((d) => d.severity === 'error');
    assert.deepEqual(
      errors.map((d) => d.code),
      ['dfc/misspelled-node'],
    );
    assert.ok(errors[0].message.startsWith('MisspellNodeError'), errors[0].message);
  });

  test(`Ultralytics' calibration count below 1024 is the accuracy-risk warning, at medium confidence (${label})`, () => {
    const run = (images: number) =>
      read([
        ...head(colour, images),
        ...dfcRun.filter((l) => !l.includes('optimization level') && !l.includes('zero level')),
        `${p('Hailo:')} export success ✅ 912.4s, saved as 'yolo11n_hailo_model' (9.8 MB)`,
      ]);
    const few = run(128);
    assert.equal(few.outcome, 'success');
    const w = few.diagnostics.filter((d) => d.code === 'dfc/optimization-level-0');
    assert.equal(w.length, 1);
    assert.equal(w[0].severity, 'warning');
    assert.equal(w[0].confidence, 'medium');
    assert.ok(w[0].message.includes('128') && w[0].message.includes('1024'), w[0].message);
    // Ultralytics prints the line whatever the count: 1024 or more is no risk.
    assert.deepEqual(
      run(1024).diagnostics.filter((d) => d.code === 'dfc/optimization-level-0'),
      [],
    );
    assert.equal(run(5000).outcome, 'success');
  });
}
